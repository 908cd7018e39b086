//! `wait` for one deployment.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use anyhow::Result;

use super::lost_track;
use crate::cli::WaitArgs;
use crate::db::session::Session;
use crate::decide::{self, Progress, ProgressState};
use crate::exit::{self, ExitCode};
use crate::model::wait::WaitReport;
use crate::ops::{Context, assess};
use crate::ui::{self, wait::Watch};

/// How one deployment's wait ended: its last progress, how long it took,
/// and on a timeout (exit 6) or when it is blocked on a dead node (exit 7)
/// the failure the process ends with (its JSON is in the report: one
/// document on stdout).
pub struct Followed {
    pub progress: Progress,
    pub elapsed: Duration,
    pub failure: Option<anyhow::Error>,
    pub at: chrono::DateTime<chrono::Utc>,
}

/// Why the looking stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    Verified,
    TimedOut,
    /// Everything left waits for dead nodes, and `--wait-for-node` was not
    /// given: waiting longer changes nothing until they return.
    Blocked,
}

impl Followed {
    /// The `wait` report.
    pub fn report(&self) -> WaitReport<'_> {
        WaitReport {
            progress: &self.progress,
            timed_out: self
                .failure
                .as_ref()
                .is_some_and(|err| exit::code_for(err) == ExitCode::WaitTimedOut),
            elapsed_seconds: self.elapsed.as_secs(),
            error: self.failure.as_ref().map(|err| {
                let code = exit::code_for(err);
                ui::failure::body(err, code, code.kind())
            }),
            elapsed: self.elapsed,
            at: self.at,
        }
    }
}

/// One deployment: a progress bar while it waits, until verified or
/// `--timeout`.
pub fn one(ctx: &Context, args: &WaitArgs, deployment: &str) -> Result<Followed> {
    if let Some(region) = ctx.region() {
        ctx.output
            .note(&format!("region {region} (connection service)"));
    }
    let mut session = ctx.connect(Duration::from_secs(5))?;
    let started = Instant::now();
    let (progress, end) = follow(ctx, &mut session, args, deployment, started)?;
    let failure = match end {
        End::Verified => None,
        End::TimedOut => Some(exit::wait_timed_out(ui::wait::timed_out_text(
            &progress,
            args.timeout,
        ))),
        End::Blocked => Some(exit::wait_blocked(ui::wait::blocked_on_node_text(
            &progress,
        ))),
    };
    Ok(Followed {
        progress,
        elapsed: started.elapsed(),
        failure,
        at: chrono::Utc::now(),
    })
}

/// Looks again every `--interval` until verified, blocked on a dead node
/// (unless `--wait-for-node`) or `--timeout`: the last progress, and why
/// it stopped.
fn follow(
    ctx: &Context,
    session: &mut Session,
    args: &WaitArgs,
    deployment: &str,
    started: Instant,
) -> Result<(Progress, End)> {
    let policy = args.staleness.policy();
    let mut watch = Watch::start(std::io::stderr().is_terminal(), ctx.output.width);
    let mut deployment = deployment.to_string();
    let result = loop {
        let d = assess::assess(session, ctx.schema(), &deployment, Some(1), &policy).map_err(
            |err| {
                // The error goes to stderr next: no half-drawn bar above it.
                watch.finish();
                lost_track(err, &deployment)
            },
        )?;
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
            break (p, End::Verified);
        }
        if p.state == ProgressState::BlockedOnDeadNode && !args.wait_for_node {
            break (p, End::Blocked);
        }
        if started.elapsed() >= args.timeout {
            break (p, End::TimedOut);
        }
        let remaining = args.timeout.saturating_sub(started.elapsed());
        std::thread::sleep(args.interval.min(remaining));
    };
    watch.finish();
    Ok(result)
}
