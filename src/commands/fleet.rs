//! `fleet list`: every node, its heartbeat age and the capacity in use
//! (`ops::fleet`). How the operator sees capacity drop after a teardown
//! (the runbook's Verification).

use anyhow::Result;

use super::watch::{self, Watched};
use crate::cli::FleetCommand;
use crate::exit::ExitCode;
use crate::ops::regions::{self, Regional};
use crate::ops::{Context, fleet};
use crate::ui;

pub fn run(ctx: &Context, command: &FleetCommand) -> Result<ExitCode> {
    let FleetCommand::List(args) = command;
    if let Some(interval) = args.watch.watch {
        let watched = Watched {
            read: &mut |session| fleet::list(ctx, session, args),
            text: &|list| ui::fleet::watch_text(list, &ctx.output),
        };
        return watch::watch(ctx, interval, args.watch.count, watched);
    }
    let Regional { value, statuses } = fleet::list_all(ctx, args)?;
    if let Some(list) = value {
        ctx.emit(&list)?;
    }
    Ok(regions::finish(ctx, &statuses, ExitCode::Done))
}
