//! `fleet list`: every node, its heartbeat age and the capacity in use. How
//! the operator sees capacity drop after a teardown (the runbook's
//! Verification).

use anyhow::Result;

use super::Context;
use crate::cli::{FleetCommand, NodeStatusFilter};
use crate::db::fleet::{self, FleetFilter};
use crate::exit::ExitCode;
use crate::model::NodeStatus;
use crate::ui;

pub fn run(ctx: &Context, command: &FleetCommand) -> Result<ExitCode> {
    let FleetCommand::List(args) = command;
    let filter = FleetFilter {
        pool: args.pool.clone(),
        status: args.status.map(|s| match s {
            NodeStatusFilter::Online => NodeStatus::Online,
            NodeStatusFilter::Draining => NodeStatus::Draining,
            NodeStatusFilter::Offline => NodeStatus::Offline,
        }),
        stale_only: args.stale,
    };
    let mut client = ctx.connect_for_reading()?;
    let list = fleet::list(
        &mut client,
        ctx.schema(),
        &filter,
        args.staleness.stale_after,
    )?;
    if ctx.output.json() {
        ui::print_json(&list)?;
    } else {
        ui::fleet::render(&list, &ctx.output)?;
    }
    Ok(ExitCode::Done)
}
