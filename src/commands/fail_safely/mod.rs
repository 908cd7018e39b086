//! `fail-safely`: the two guarded transitions of the runbook (the
//! transaction itself is `db::transition`), for one deployment (`single`)
//! or a batch of them (`batch`), each made of the same request
//! (`request`); a plan written for review (`plan`, `--plan-out`) and
//! applied by someone else (`apply`, `--apply`); a batch's writes paced
//! (`pace`, `--rate`).

mod apply;
mod batch;
mod pace;
mod plan;
mod plan_file;
mod request;
mod single;

use anyhow::Result;

use crate::cli::FailSafelyArgs;
use crate::commands::Context;
use crate::decide::approval;
use crate::exit::{self, ExitCode};

pub fn run(ctx: &Context, args: &FailSafelyArgs) -> Result<ExitCode> {
    if let Some(file) = &args.apply {
        return apply::run(ctx, args, file);
    }
    let writes = !args.dry_run && args.plan_out.is_none();
    approval::check_direct_write(args.require_approval, writes, args.break_glass_alone)?;
    if let Some(file) = &args.plan_out {
        return plan::run(ctx, args, file);
    }
    match (&args.from, &args.deployment) {
        (Some(from), _) => batch::run(ctx, args, from),
        (None, Some(deployment)) => single::run(ctx, args, deployment),
        (None, None) => Err(exit::usage("give a deployment id, or --from FILE")),
    }
}
