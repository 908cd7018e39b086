//! `stuck`: the fleet-wide scan the alerts describe, `deployment_stuck` and
//! `job_lease_orphaned`, with the triage a big incident needs (filters,
//! order, groups, a limit). Reports, never acts.

use crate::db::session::Session;
use anyhow::Result;

use super::Context;
use super::regions;
use super::watch::{self, Watched};
use crate::cli::{DeploymentStatusArg, GroupByArg, PathArg, SortArg, StuckArgs};
use crate::db::fleet::{self, FleetFilter};
use crate::db::stuck::{self, StuckThresholds};
use crate::decide::Policy;
use crate::decide::regions::merge_stuck;
use crate::decide::triage::{self, GroupBy, SortBy, Triage, TriageFilter};
use crate::exit::ExitCode;
use crate::model::fleet::FleetList;
use crate::model::region::RegionStatus;
use crate::model::stuck::{StuckReport, StuckScanInfo};
use crate::model::{BreakGlassPath, DeploymentStatus};
use crate::ui::openmetrics::Scan;
use crate::ui::{self, OutputFormat};

fn triage_of(args: &StuckArgs) -> Triage {
    Triage {
        filter: TriageFilter {
            status: args.status.map(|s| match s {
                DeploymentStatusArg::Queued => DeploymentStatus::Queued,
                DeploymentStatusArg::Building => DeploymentStatus::Building,
                DeploymentStatusArg::Deploying => DeploymentStatus::Deploying,
                DeploymentStatusArg::Running => DeploymentStatus::Running,
                DeploymentStatusArg::Failed => DeploymentStatus::Failed,
                DeploymentStatusArg::TeardownQueued => DeploymentStatus::TeardownQueued,
                DeploymentStatusArg::Destroyed => DeploymentStatus::Destroyed,
            }),
            org: args.org.clone(),
            node: args.node.clone(),
            pool: args.pool.clone(),
            path: args.path.map(|p| match p {
                PathArg::OperatorFailed => BreakGlassPath::OperatorFailed,
                PathArg::TeardownRequested => BreakGlassPath::TeardownRequested,
                PathArg::None => BreakGlassPath::None,
            }),
        },
        sort: match args.sort {
            None | Some(SortArg::StuckFor) => SortBy::StuckFor,
            Some(SortArg::Status) => SortBy::Status,
            Some(SortArg::Org) => SortBy::Org,
            Some(SortArg::Node) => SortBy::Node,
        },
        limit: args.limit,
        group_by: args.group_by.map(|g| match g {
            GroupByArg::Node => GroupBy::Node,
            GroupByArg::Pool => GroupBy::Pool,
            GroupByArg::Status => GroupBy::Status,
            GroupByArg::Path => GroupBy::Path,
            GroupByArg::Org => GroupBy::Org,
        }),
    }
}

pub fn run(ctx: &Context, args: &StuckArgs) -> Result<ExitCode> {
    if args.write.is_some() || ctx.output.format == OutputFormat::Openmetrics {
        return metrics(ctx, args);
    }
    if let Some(interval) = args.watch.watch {
        let triage = triage_of(args);
        return watch::watch(
            ctx,
            interval,
            args.watch.count,
            Watched {
                read: &mut |client| Ok(triage::triage(scan(ctx, client, args)?, &triage)),
                text: &|report| {
                    let mut text = ui::stuck::render(report, &ctx.output);
                    for line in ctx.output.warning_lines(&report.warnings) {
                        text.push('\n');
                        text.push_str(&line);
                    }
                    text
                },
            },
        );
    }
    let (scanned, statuses) = match regions::requested(ctx, args.regions.all_services)? {
        None => {
            let mut client = ctx.connect_for_reading()?;
            (scan(ctx, &mut client, args)?, Vec::new())
        }
        Some(names) => {
            let results = regions::read_all(ctx, &names, &|client| scan(ctx, client, args));
            let (statuses, parts) = regions::split(results);
            let merged = merge_stuck(parts, statuses.clone())
                .unwrap_or_else(|| nothing_read(args, statuses.clone()));
            (merged, statuses)
        }
    };
    let triage = triage_of(args);
    let full = triage::triage(
        scanned,
        &Triage {
            limit: None,
            ..triage.clone()
        },
    );
    // The rule (README, man page): 10 only for what an operator can act
    // on, among what passed the filters (a monitor for one pool pages for
    // that pool, also for rows --limit hides); a lease only the reclaimer
    // can release is reported, not counted.
    let actionable = full.actionable();
    let report = triage::apply_limit(full, triage.limit);
    if ctx.output.markdown() {
        ctx.output.print(&ui::markdown::stuck(&report))?;
        ctx.output.warnings(&report.warnings);
    } else if ctx.output.json() {
        ui::print_json(&report)?;
    } else {
        ctx.output.print(&ui::stuck::render(&report, &ctx.output))?;
        ctx.output.warnings(&report.warnings);
        if let Some(hint) = ui::stuck::hint(&report) {
            ctx.output
                .note(&ui::text::wrapped(&hint, ctx.output.width, "", "  "));
        }
    }
    let code = if args.exit_code && actionable {
        ExitCode::StuckFound
    } else {
        ExitCode::Done
    };
    Ok(regions::finish(ctx, &statuses, code))
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
        },
        groups: None,
        left_out: None,
        regions: Some(statuses),
        warnings: Vec::new(),
        clock_skew: Vec::new(),
    }
}

fn scan(ctx: &Context, client: &mut Session, args: &StuckArgs) -> Result<StuckReport> {
    let report = stuck::scan(
        client,
        ctx.schema(),
        StuckThresholds {
            stuck_after: args.for_,
            grace: args.grace,
        },
    )?;
    ui::warn_row_security(&report.snapshot.row_security, "the scan");
    Ok(report)
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
            ..triage_of(args)
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
    let text = match &result {
        Ok((report, fleet)) => ui::openmetrics::render(&Scan::Done { report, fleet }, at, Some(at)),
        Err(_) => ui::openmetrics::render(
            &Scan::Failed,
            at,
            previous
                .as_deref()
                .and_then(ui::openmetrics::last_success_in),
        ),
    };
    match &args.write {
        Some(path) => ui::output::write_atomically(path, &text)?,
        None => ui::print(&text)?,
    }
    let (report, _) = result?;
    Ok(if args.exit_code && report.actionable() {
        ExitCode::StuckFound
    } else {
        ExitCode::Done
    })
}
