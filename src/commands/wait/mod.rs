//! `wait <deployment>`: the runbook's Verification step. Follows the
//! deployment until it is `failed` (and, unless a network attachment keeps
//! them, its reservations are released), or `teardown_queued`/`destroyed`
//! with every instance removed and its allocations released.
//!
//! It only reads (each look is one read-only snapshot, as `diagnose`), and
//! it says early when progress is impossible: a teardown waiting for a dead
//! node, or a network attachment that keeps reservations.

mod many;
mod one;

use anyhow::Result;

use super::Context;
use crate::cli::WaitArgs;
use crate::db::errors::Doing;
use crate::exit::{self, ExitCode};
use crate::model::NextCommand;

/// One deployment as before; several (or `--from`) together.
pub fn run(ctx: &Context, args: &WaitArgs) -> Result<ExitCode> {
    match (&args.from, args.deployments.as_slice()) {
        (None, [one]) => one::run(ctx, args, one),
        _ => many::run(ctx, args),
    }
}

/// A look failed. Bad input and a missing deployment say so themselves; a
/// lost connection or anything unexpected says how to pick up again.
fn lost_track(err: anyhow::Error, deployment: &str) -> anyhow::Error {
    let err = crate::db::errors::explain(err, &Doing::Waiting { deployment });
    if err.chain().any(|cause| cause.is::<exit::Failure>()) {
        return err;
    }
    err.context(format!(
        "lost track of deployment {deployment} while waiting; rerun `{}` when the database is reachable",
        NextCommand::wait(deployment)
    ))
}
