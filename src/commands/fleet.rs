//! `fleet list`: every node, its heartbeat age and the capacity in use. How
//! the operator sees capacity drop after a teardown (the runbook's
//! Verification).

use anyhow::Result;

use crate::db::session::Session;
use crate::model::fleet::FleetList;

use super::Context;
use super::regions::{self, Regional, Regions};
use super::watch;
use crate::cli::FleetCommand;
use crate::db::fleet::{self, FleetFilter};
use crate::decide::regions::merge_fleet;
use crate::exit::ExitCode;
use crate::ui;

pub fn run(ctx: &Context, command: &FleetCommand) -> Result<ExitCode> {
    let FleetCommand::List(args) = command;
    let (filter, stale_after) = (args.filter(), args.staleness.stale_after);
    let read = |session: &mut Session| list(ctx, session, &filter, stale_after);
    if let Some(interval) = args.watch.watch {
        return watch::watch(ctx, interval, args.watch.count, &mut |session| {
            read(session)
        });
    }
    let Regional { value, statuses } =
        Regions::requested(ctx, args.regions.all_services)?.read(ctx, &read, merge_fleet)?;
    if let Some(list) = value {
        ctx.emit(&list)?;
    }
    Ok(regions::finish(ctx, &statuses, ExitCode::Done))
}

/// The fleet, warning when row-level security may hide rows from it.
fn list(
    ctx: &Context,
    client: &mut Session,
    filter: &FleetFilter,
    stale_after: std::time::Duration,
) -> Result<FleetList> {
    let list = fleet::list(client, ctx.schema(), filter, stale_after)?;
    ui::warn_row_security(&list.snapshot.row_security, "the list");
    Ok(list)
}
