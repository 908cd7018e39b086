//! `stuck`: the fleet-wide scan the alerts describe, with the triage a big
//! incident needs (`ops::stuck`); as a table, JSON, markdown, `--watch`
//! or metrics. Reports, never acts.

use anyhow::Result;

use super::watch;
use crate::cli::StuckArgs;
use crate::exit::ExitCode;
use crate::ops::{Context, regions, stuck};
use crate::ui::{self, OutputFormat};

pub fn run(ctx: &Context, args: &StuckArgs) -> Result<ExitCode> {
    if args.write.is_some() || ctx.output.format == OutputFormat::Openmetrics {
        return metrics(ctx, args);
    }
    if let Some(interval) = args.watch.watch {
        return watching(ctx, args, interval);
    }
    let scanned = stuck::scan_all(ctx, args)?;
    ctx.emit(&scanned.report)?;
    let code = if args.exit_code && scanned.actionable {
        ExitCode::StuckFound
    } else {
        ExitCode::Done
    };
    Ok(regions::finish(ctx, &scanned.statuses, code))
}

/// `--watch`: the triaged scan, redrawn every `interval`.
fn watching(ctx: &Context, args: &StuckArgs, interval: std::time::Duration) -> Result<ExitCode> {
    let read =
        &mut |session: &mut crate::db::session::Session| stuck::scan_triaged(ctx, session, args);
    watch::watch(ctx, interval, args.watch.count, read)
}

/// The metrics, to `--write`'s file (atomically) or stdout; then the
/// scan's failure, if it failed.
fn metrics(ctx: &Context, args: &StuckArgs) -> Result<ExitCode> {
    let measured = stuck::measure(ctx, args);
    let metrics = measured.metrics();
    match &args.write {
        Some(path) => ui::report::write_metrics(path, &metrics)?,
        None => ctx.emit(&metrics)?,
    }
    let (report, _) = measured.result?;
    Ok(if args.exit_code && report.actionable() {
        ExitCode::StuckFound
    } else {
        ExitCode::Done
    })
}
