//! `fail-safely`: the two guarded transitions of the runbook (the
//! transaction itself is `db::transition`), for one deployment (`single`)
//! or a batch of them (`batch`), each made of the same request
//! (`request`).

mod batch;
mod request;
mod single;

use anyhow::Result;

use crate::cli::FailSafelyArgs;
use crate::commands::Context;
use crate::exit::{self, ExitCode};

pub fn run(ctx: &Context, args: &FailSafelyArgs) -> Result<ExitCode> {
    match (&args.from, &args.deployment) {
        (Some(from), _) => batch::run(ctx, args, from),
        (None, Some(deployment)) => single::run(ctx, args, deployment),
        (None, None) => Err(exit::usage("give a deployment id, or --from FILE")),
    }
}
