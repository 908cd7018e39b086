//! `wait` for one deployment.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use anyhow::Result;

use super::lost_track;
use crate::cli::WaitArgs;
use crate::db::session::Session;
use crate::decide::{self, Progress};
use crate::exit::{self, ErrorKind, ExitCode};
use crate::model::wait::WaitReport;
use crate::ops::{Context, assess};
use crate::ui::{self, wait::Watch};

/// How one deployment's wait ended: its last progress, how long it took,
/// and on a timeout the failure the process ends with (its JSON is in the
/// report: one document on stdout).
pub struct Followed {
    pub progress: Progress,
    pub elapsed: Duration,
    pub timed_out: Option<anyhow::Error>,
}

impl Followed {
    /// The `wait` report.
    pub fn report(&self) -> WaitReport<'_> {
        WaitReport {
            progress: &self.progress,
            timed_out: self.timed_out.is_some(),
            elapsed_seconds: self.elapsed.as_secs(),
            error: self
                .timed_out
                .as_ref()
                .map(|err| ui::failure::body(err, ExitCode::WaitTimedOut, ErrorKind::TimedOut)),
            elapsed: self.elapsed,
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
    let (progress, timed_out) = follow(ctx, &mut session, args, deployment, started)?;
    let timed_out =
        timed_out.then(|| exit::wait_timed_out(ui::wait::timed_out_text(&progress, args.timeout)));
    Ok(Followed {
        progress,
        elapsed: started.elapsed(),
        timed_out,
    })
}

/// Looks again every `--interval` until verified or `--timeout`: the last
/// progress, and whether it timed out.
fn follow(
    ctx: &Context,
    session: &mut Session,
    args: &WaitArgs,
    deployment: &str,
    started: Instant,
) -> Result<(Progress, bool)> {
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
        if p.verified || started.elapsed() >= args.timeout {
            let timed_out = !p.verified;
            break (p, timed_out);
        }
        let remaining = args.timeout.saturating_sub(started.elapsed());
        std::thread::sleep(args.interval.min(remaining));
    };
    watch.finish();
    Ok(result)
}
