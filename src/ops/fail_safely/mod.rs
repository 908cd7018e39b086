//! `fail-safely`: the two guarded transitions of the runbook (the
//! transaction itself is `db::transition`), for one deployment (`single`)
//! or a batch of them (`batch`), each made of the same request
//! (`request`); a plan written for review (`plan`, `--plan-out`) and
//! applied by someone else (`apply`, `--apply`, the file read within
//! limits by `plan_file`); a batch's writes paced (`pace`, `--rate`).
//!
//! Plan → confirm → apply: the plan is decided under the locks in
//! transactions that are rolled back before it is shown, the prompt waits
//! with no transaction open, and the writes are then held to the plan's
//! paths and fingerprints. What the run did is returned as its report
//! ([`Finished`]), which the command emits once every transaction ended.

mod apply;
mod batch;
mod pace;
mod plan;
mod plan_file;
mod request;
mod single;

use anyhow::Result;

use super::Context;
use crate::cli::FailSafelyArgs;
use crate::db::transition::Outcome;
use crate::decide::approval;
use crate::exit;
use crate::model::batch::BatchReport;
use crate::model::plan::Plan;

/// What a fail-safely run reports.
pub enum Finished {
    /// One deployment's outcome (applied, planned by --dry-run, replayed).
    One(Outcome),
    /// A batch's (`--from`, `--apply`, or a plan refused): each
    /// deployment's result, and the process's exit code.
    Batch(BatchReport),
    /// The plan written to `--plan-out`'s file.
    Plan(Plan),
}

/// Runs what the arguments ask for: `--apply`, `--plan-out`, a batch
/// (`--from`) or one deployment.
pub fn perform(ctx: &Context, args: &FailSafelyArgs) -> Result<Finished> {
    if let Some(file) = &args.apply {
        return apply::apply(ctx, args, file).map(Finished::Batch);
    }
    let writes = !args.dry_run && args.plan_out.is_none();
    approval::check_direct_write(args.require_approval, writes, args.break_glass_alone)?;
    if let Some(file) = &args.plan_out {
        return plan::write_plan(ctx, args, file);
    }
    match (&args.from, &args.deployment) {
        (Some(from), _) => batch::fail_all(ctx, args, from).map(Finished::Batch),
        (None, Some(deployment)) => single::fail_one(ctx, args, deployment).map(Finished::One),
        (None, None) => Err(exit::usage("give a deployment id, or --from FILE")),
    }
}
