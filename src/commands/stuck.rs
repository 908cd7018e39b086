//! `stuck`: the fleet-wide scan the alerts describe, `deployment_stuck` and
//! `job_lease_orphaned`, with the triage a big incident needs (filters,
//! order, groups, a limit). Reports, never acts.

use anyhow::Result;

use super::Context;
use crate::cli::{DeploymentStatusArg, GroupByArg, PathArg, SortArg, StuckArgs};
use crate::db::stuck::{self, StuckThresholds};
use crate::decide::triage::{self, GroupBy, SortBy, Triage, TriageFilter};
use crate::exit::ExitCode;
use crate::model::{BreakGlassPath, DeploymentStatus};
use crate::ui;

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
    let mut client = ctx.connect_for_reading()?;
    let scan = stuck::scan(
        &mut client,
        StuckThresholds {
            stuck_after: args.for_,
            grace: args.grace,
        },
    )?;
    let report = triage::triage(scan, &triage_of(args));
    if ctx.output.json() {
        ui::print_json(&report)?;
    } else {
        ui::stuck::render(&report, &ctx.output)?;
    }
    // The filters narrow what counts: a monitor for one pool pages for it.
    let found = report.found_anything()
        || report
            .left_out
            .is_some_and(|l| l.deployments_stuck + l.leases_orphaned > 0);
    Ok(if args.exit_code && found {
        ExitCode::StuckFound
    } else {
        ExitCode::Done
    })
}
