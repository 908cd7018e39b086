//! `wait <deployment>`: the runbook's Verification step. Follows the
//! deployment until it is `failed` (and, unless a network attachment keeps
//! them, its reservations are released), or `teardown_queued`/`destroyed`
//! with every instance removed and its allocations released.
//!
//! It only reads (each look is one read-only snapshot, `ops::assess`),
//! and it says early when progress is impossible: a teardown waiting for
//! a dead node, or a network attachment that keeps reservations. One
//! deployment (`one`) shows a progress bar; several (`many`) a line each
//! as it is done. Both return the report, emitted by the command once the
//! last look has ended.

mod many;
mod one;

pub use many::{AllFollowed, all};
pub use one::{Followed, one};

use crate::db::errors::Doing;
use crate::exit;
use crate::model::NextCommand;

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
