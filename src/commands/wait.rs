//! `wait <deployment>`: the runbook's Verification step. Follows the
//! deployment until it is `failed` (and, unless a network attachment keeps
//! them, its reservations are released), or `teardown_queued`/`destroyed`
//! with every instance removed and its allocations released.
//!
//! It only reads (each look is one read-only snapshot, as `diagnose`), and
//! it says early when progress is impossible: a teardown waiting for a dead
//! node, or a network attachment that keeps reservations.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use anyhow::Result;
use serde::Serialize;

use super::{Context, diagnose};
use crate::cli::WaitArgs;
use crate::decide::{self, Progress};
use crate::exit::{self, ErrorKind, ExitCode, Lost};
use crate::model::NextCommand;
use crate::ui::{self, wait::Watch};

/// A look failed. Bad input and a missing deployment say so themselves; a
/// lost connection or anything unexpected says how to pick up again.
fn lost_track(err: anyhow::Error, deployment: &str) -> anyhow::Error {
    let err = exit::explain_lost(
        err,
        Lost {
            doing: &format!("waiting for deployment {deployment}"),
            written: ". wait only reads: nothing was written, and what fail-safely did stays done",
            next: &exit::rerun_when_up(NextCommand::wait(deployment)),
        },
    );
    if err.chain().any(|cause| cause.is::<exit::Failure>()) {
        return err;
    }
    err.context(format!(
        "lost track of deployment {deployment} while waiting; rerun `{}` when the database is reachable",
        NextCommand::wait(deployment)
    ))
}

/// The `wait --output json` document.
#[derive(Debug, Serialize)]
struct WaitReport<'a> {
    #[serde(flatten)]
    progress: &'a Progress,
    timed_out: bool,
    /// Whole seconds.
    elapsed_seconds: u64,
    /// On a timeout: the error document's body, in this one document.
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<ui::failure::ErrorBody>,
}

pub fn run(ctx: &Context, args: &WaitArgs) -> Result<ExitCode> {
    if let Some(region) = ctx.region() {
        ctx.output
            .note(&format!("region {region} (connection service)"));
    }
    let mut client = ctx.connect(Duration::from_secs(5))?;
    let policy = args.staleness.policy();
    let started = Instant::now();
    let mut watch = Watch::start(std::io::stderr().is_terminal(), ctx.output.width);
    let mut deployment = args.deployment.clone();
    let (progress, timed_out) = loop {
        let d = diagnose::diagnose(&mut client, ctx.schema(), &deployment, Some(1), &policy)
            .map_err(|err| {
                // The error goes to stderr next: no half-drawn bar above it.
                watch.finish();
                lost_track(err, &deployment)
            })?;
        // Resolve a prefix once; later looks use the full id.
        deployment = d.snapshot.deployment.id.to_string();
        let p = decide::progress(&d.snapshot, &policy);
        if p.nothing_to_wait_for() {
            // Nobody failed it: no amount of waiting verifies anything.
            watch.finish();
            return Err(exit::refused(ui::wait::nothing_to_wait_for_text(&p)));
        }
        watch.show(&p);
        if p.verified {
            break (p, false);
        }
        if started.elapsed() >= args.timeout {
            break (p, true);
        }
        let remaining = args.timeout.saturating_sub(started.elapsed());
        std::thread::sleep(args.interval.min(remaining));
    };
    watch.finish();
    let elapsed = started.elapsed();
    let failure =
        timed_out.then(|| exit::wait_timed_out(ui::wait::timed_out_text(&progress, args.timeout)));
    if ctx.output.json() {
        ui::print_json(&WaitReport {
            progress: &progress,
            timed_out,
            elapsed_seconds: elapsed.as_secs(),
            error: failure
                .as_ref()
                .map(|err| ui::failure::body(err, ExitCode::WaitTimedOut, ErrorKind::TimedOut)),
        })?;
    } else if !timed_out {
        ctx.output.print(&ui::wait::verified_text(
            &progress,
            elapsed,
            ctx.output.width,
        ))?;
    }
    match failure {
        // Its JSON is the document above: one document on stdout.
        Some(err) => Err(exit::reported(err)),
        None => Ok(ExitCode::Done),
    }
}
