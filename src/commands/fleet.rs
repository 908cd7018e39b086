//! `fleet list`: every node, its heartbeat age and the capacity in use
//! (`ops::fleet`). How the operator sees capacity drop after a teardown
//! (the runbook's Verification).

use anyhow::Result;

use super::watch;
use crate::cli::FleetCommand;
use crate::exit::ExitCode;
use crate::ops::regions::{self, Regional};
use crate::ops::{Context, fleet};

pub fn run(ctx: &Context, command: &FleetCommand) -> Result<ExitCode> {
    let FleetCommand::List(args) = command;
    if let Some(interval) = args.watch.watch {
        return watch::watch(ctx, interval, args.watch.count, &mut |session| {
            fleet::list(ctx, session, args)
        });
    }
    let Regional { value, statuses } = fleet::list_all(ctx, args)?;
    if let Some(list) = value {
        ctx.emit(&list)?;
    }
    Ok(regions::finish(ctx, &statuses, ExitCode::Done))
}
