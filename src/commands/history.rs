//! `history`: what operators did (every `operator_failed` and
//! `teardown_requested` with its audit), newest first — the review after
//! an incident. Read-only.

use anyhow::Result;

use super::Context;
use super::regions;
use crate::cli::{HistoryArgs, WhenArg};
use crate::db::deployment_id::IdQuery;
use crate::db::history::{self, HistoryFilter, When};
use crate::db::{deployment_id, session};
use crate::decide::regions::merge_history;
use crate::exit::{self, ExitCode};
use crate::ui;

fn when(arg: Option<WhenArg>) -> Option<When> {
    arg.map(|w| match w {
        WhenArg::At(at) => When::At(at),
        WhenArg::Ago(ago) => When::Ago(ago),
    })
}

pub fn run(ctx: &Context, args: &HistoryArgs) -> Result<ExitCode> {
    let filter = |deployment| HistoryFilter {
        since: when(args.since),
        until: when(args.until),
        operator: args.operator.clone(),
        reason_contains: args.reason_contains.clone(),
        deployment,
    };
    let (list, statuses) = match regions::requested(ctx, args.regions.all_services)? {
        None => {
            let mut client = ctx.connect_for_reading()?;
            // A prefix names exactly one deployment, as everywhere else.
            let deployment = match &args.deployment {
                Some(text) => {
                    let mut tx = session::read_only(&mut client)?;
                    let id = deployment_id::resolve(&mut tx, ctx.schema(), text)?;
                    tx.commit()?;
                    Some(id)
                }
                None => None,
            };
            let list = history::list(&mut client, ctx.schema(), &filter(deployment), args.limit)?;
            (list, Vec::new())
        }
        Some(names) => {
            // A prefix is resolved in one database; across regions the id
            // must be whole.
            let deployment = match args
                .deployment
                .as_deref()
                .map(deployment_id::parse)
                .transpose()?
            {
                None => None,
                Some(IdQuery::Full(id)) => Some(id),
                Some(IdQuery::Prefix { .. }) => {
                    return Err(exit::usage(
                        "--deployment: with several regions give the full id (a prefix is \
                         resolved in one database)",
                    ));
                }
            };
            let filter = filter(deployment);
            let results = regions::read_all(ctx, &names, &|client| {
                history::list(client, ctx.schema(), &filter, args.limit)
            });
            let (statuses, parts) = regions::split(results);
            let Some(list) = merge_history(parts, statuses.clone(), args.limit) else {
                return Ok(regions::finish(ctx, &statuses, ExitCode::Done));
            };
            (list, statuses)
        }
    };
    if ctx.output.markdown() {
        ctx.output.print(&ui::markdown::history(&list))?;
        ctx.output.warnings(&list.warnings);
    } else if ctx.output.json() {
        ui::print_json(&list)?;
    } else {
        match ui::history::render(&list, &ctx.output) {
            Some(table) => ctx.output.print(&table)?,
            None => ctx.output.note("No operator action matches the filters."),
        }
        ctx.output.note(&ui::history::summary(&list, &ctx.output));
        ctx.output.warnings(&list.warnings);
    }
    Ok(regions::finish(ctx, &statuses, ExitCode::Done))
}
