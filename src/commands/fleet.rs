//! `fleet list`: every node, its heartbeat age and the capacity in use. How
//! the operator sees capacity drop after a teardown (the runbook's
//! Verification).

use anyhow::Result;

use crate::db::session::Session;
use crate::model::fleet::FleetList;

use super::Context;
use super::regions;
use super::watch::{self, Watched};
use crate::cli::{FleetCommand, NodeStatusFilter};
use crate::db::fleet::{self, FleetFilter};
use crate::decide::regions::merge_fleet;
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
    let stale_after = args.staleness.stale_after;
    if let Some(interval) = args.watch.watch {
        return watch::watch(
            ctx,
            interval,
            args.watch.count,
            Watched {
                read: &mut |client| list(ctx, client, &filter, stale_after),
                text: &|list| {
                    let mut text = format!(
                        "{}\n{}",
                        ui::fleet::render(list, &ctx.output)
                            .unwrap_or_else(|| "No node matches the filters.".to_string()),
                        ui::fleet::summary(list, &ctx.output)
                    );
                    for line in ctx.output.warning_lines(&list.warnings) {
                        text.push('\n');
                        text.push_str(&line);
                    }
                    text
                },
            },
        );
    }
    let (list, statuses) = match regions::requested(ctx, args.regions.all_services)? {
        None => {
            let mut client = ctx.connect_for_reading()?;
            let list = list(ctx, &mut client, &filter, stale_after)?;
            (list, Vec::new())
        }
        Some(names) => {
            let results = regions::read_all(ctx, &names, &|client| {
                list(ctx, client, &filter, stale_after)
            });
            let (statuses, parts) = regions::split(results);
            let Some(list) = merge_fleet(parts, statuses.clone()) else {
                return Ok(regions::finish(ctx, &statuses, ExitCode::Done));
            };
            (list, statuses)
        }
    };
    if ctx.output.json() {
        ui::print_json(&list)?;
    } else {
        match ui::fleet::render(&list, &ctx.output) {
            Some(table) => {
                ctx.output.print(&table)?;
                ctx.output.note(&ui::fleet::summary(&list, &ctx.output));
            }
            None => ctx.output.note("No node matches the filters."),
        }
        ctx.output.warnings(&list.warnings);
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
