//! `stuck`: the fleet-wide scan the alerts describe, `deployment_stuck` and
//! `job_lease_orphaned`, with the triage a big incident needs (filters,
//! order, groups, a limit). Reports, never acts.

use crate::db::session::Session;
use anyhow::Result;

use super::Context;
use super::regions::{self, Regional, Regions};
use super::watch;
use crate::cli::StuckArgs;
use crate::db::fleet::{self, FleetFilter};
use crate::db::stuck;
use crate::decide::Policy;
use crate::decide::blind;
use crate::decide::regions::merge_stuck;
use crate::decide::triage::{self, Triage};
use crate::exit::ExitCode;
use crate::model::fleet::FleetList;
use crate::model::region::RegionStatus;
use crate::model::stuck::{StuckReport, StuckScanInfo};
use crate::ui::openmetrics::{Metrics, Scan};
use crate::ui::{self, OutputFormat};

pub fn run(ctx: &Context, args: &StuckArgs) -> Result<ExitCode> {
    if args.write.is_some() || ctx.output.format == OutputFormat::Openmetrics {
        return metrics(ctx, args);
    }
    if let Some(interval) = args.watch.watch {
        return watching(ctx, args, interval);
    }
    let triage = args.triage();
    let Regional { value, statuses } = Regions::requested(ctx, args.regions.all_services)?.read(
        ctx,
        &|session| scan(ctx, session, args),
        merge_stuck,
    )?;
    let scanned = value.unwrap_or_else(|| nothing_read(args, statuses.clone()));
    let (report, actionable) = triage::triage_for_action(scanned, &triage);
    ctx.emit(&report)?;
    let found = args.exit_code && actionable;
    let code = if found {
        ExitCode::StuckFound
    } else {
        ExitCode::Done
    };
    Ok(regions::finish(ctx, &statuses, code))
}

/// `--watch`: the triaged scan, redrawn every `interval`.
fn watching(ctx: &Context, args: &StuckArgs, interval: std::time::Duration) -> Result<ExitCode> {
    let triage = args.triage();
    let read = &mut |session: &mut Session| Ok(triage::triage(scan(ctx, session, args)?, &triage));
    watch::watch(ctx, interval, args.watch.count, read)
}

/// Regions were asked for and none answered: an empty report that says so.
fn nothing_read(args: &StuckArgs, statuses: Vec<RegionStatus>) -> StuckReport {
    StuckReport {
        deployments_stuck: Vec::new(),
        leases_orphaned: Vec::new(),
        snapshot: StuckScanInfo {
            at: chrono::Utc::now(),
            stuck_after_seconds: args.for_.as_secs(),
            grace_seconds: args.grace.as_secs(),
            in_recovery: false,
            replay_lag_seconds: None,
            row_security: Vec::new(),
            row_security_policies: Vec::new(),
            role: String::new(),
        },
        groups: None,
        left_out: None,
        regions: Some(statuses),
        warnings: Vec::new(),
        clock_skew: Vec::new(),
        cannot_vouch: None,
        cannot_tell: Vec::new(),
    }
}

fn scan(ctx: &Context, client: &mut Session, args: &StuckArgs) -> Result<StuckReport> {
    let report = stuck::scan(client, ctx.schema(), args.thresholds())?;
    ui::warn_row_security(&report.snapshot.row_security, "the scan");
    Ok(blind::stuck_scan(report))
}

/// `-o openmetrics` / `--write FILE`: the scan and the fleet as metrics.
/// The filters apply; `--limit` and `--group-by` do not (metrics count
/// everything). A failed scan still produces metrics (`scan_success 0`,
/// the last success carried over from the file) and then fails.
fn metrics(ctx: &Context, args: &StuckArgs) -> Result<ExitCode> {
    let at = chrono::Utc::now();
    let read = || -> Result<(StuckReport, FleetList)> {
        let mut client = ctx.connect_for_reading()?;
        let triage = Triage {
            limit: None,
            group_by: None,
            ..args.triage()
        };
        let report = triage::triage(scan(ctx, &mut client, args)?, &triage);
        let all_nodes = FleetFilter::default();
        let fleet = fleet::list(
            &mut client,
            ctx.schema(),
            &all_nodes,
            Policy::default().stale_after,
        )?;
        Ok((report, fleet))
    };
    let result = read();
    let previous = args
        .write
        .as_ref()
        .and_then(|path| std::fs::read_to_string(path).ok());
    let metrics = match &result {
        Ok((report, fleet)) => Metrics {
            scan: Scan::Done { report, fleet },
            at,
            last_success: Some(at),
        },
        Err(_) => Metrics {
            scan: Scan::Failed {
                previous: previous.as_deref(),
            },
            at,
            last_success: previous
                .as_deref()
                .and_then(ui::openmetrics::last_success_in),
        },
    };
    match &args.write {
        Some(path) => ui::report::write_metrics(path, &metrics)?,
        None => ctx.emit(&metrics)?,
    }
    let (report, _) = result?;
    Ok(if args.exit_code && report.actionable() {
        ExitCode::StuckFound
    } else {
        ExitCode::Done
    })
}
