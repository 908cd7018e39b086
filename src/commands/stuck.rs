//! `stuck`: the fleet-wide scan the alerts describe, with the triage a big
//! incident needs (`ops::stuck`); as a table, JSON, markdown, `--watch`
//! or metrics. Reports, never acts.

use anyhow::Result;

use super::watch::{self, Watched};
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
    let watched = Watched {
        read: &mut |session| stuck::scan_triaged(ctx, session, args),
        text: &|report| ui::stuck::watch_text(report, &ctx.output),
    };
    watch::watch(ctx, interval, args.watch.count, watched)
}

/// The metrics, to `--write`'s file (atomically) or stdout; then the
/// scan's failure, if it failed.
fn metrics(ctx: &Context, args: &StuckArgs) -> Result<ExitCode> {
    let metrics = stuck::metrics(ctx, args);
    match &args.write {
        Some(path) => ui::output::write_atomically(path, &metrics.text)?,
        None => ui::print(&metrics.text)?,
    }
    let report = metrics.scan?;
    Ok(if args.exit_code && report.actionable() {
        ExitCode::StuckFound
    } else {
        ExitCode::Done
    })
}
