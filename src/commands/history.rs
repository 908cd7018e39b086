//! `history`: what operators did (every `operator_failed` and
//! `teardown_requested` with its audit), newest first — the review after
//! an incident. Read-only.

use anyhow::Result;

use super::Context;
use crate::cli::{HistoryArgs, WhenArg};
use crate::db::history::{self, HistoryFilter, When};
use crate::db::{resolve, session};
use crate::exit::ExitCode;
use crate::ui;

fn when(arg: Option<WhenArg>) -> Option<When> {
    arg.map(|w| match w {
        WhenArg::At(at) => When::At(at),
        WhenArg::Ago(ago) => When::Ago(ago),
    })
}

pub fn run(ctx: &Context, args: &HistoryArgs) -> Result<ExitCode> {
    let mut client = ctx.connect_for_reading()?;
    // A prefix names exactly one deployment, as everywhere else.
    let deployment = match &args.deployment {
        Some(text) => {
            let mut tx = session::read_only(&mut client)?;
            let id = resolve::resolve(&mut tx, ctx.schema(), text)?;
            tx.commit()?;
            Some(id)
        }
        None => None,
    };
    let filter = HistoryFilter {
        since: when(args.since),
        until: when(args.until),
        operator: args.operator.clone(),
        reason_contains: args.reason_contains.clone(),
        deployment,
    };
    let list = history::list(&mut client, ctx.schema(), &filter, args.limit)?;
    if ctx.output.markdown() {
        ctx.output.print(&ui::markdown::history(&list))?;
    } else if ctx.output.json() {
        ui::print_json(&list)?;
    } else {
        match ui::history::render(&list, &ctx.output) {
            Some(table) => ctx.output.print(&table)?,
            None => ctx.output.note("No operator action matches the filters."),
        }
        ctx.output.note(&ui::history::summary(&list, &ctx.output));
    }
    Ok(ExitCode::Done)
}
