//! May `fail-safely` write, and did it write what it meant to? Every
//! judgement of the guarded transaction (README, "fail-safely, step by
//! step"), pure: `db::transition` reads, locks and writes, and asks these
//! functions, inside its transaction, over plain structs of what it read.
//! Each refusal is exit 4 (refused) or 5 (conflict: re-diagnose and
//! retry), in the words the operator reads.
//!
//! - `server`: steps 1, 2 and 5, a server or a database unfit for the
//!   write (a standby, a read-only default, no tuple counters, a schema
//!   the guard cannot vouch for);
//! - `locked`: step 9, the decision under the row locks (undecidable,
//!   nothing to do, not stuck, an expectation that no longer holds) and
//!   step 10's full trail;
//! - `replay`: step 8, an earlier run with the same idempotency key;
//! - `written`: steps 10 and 12, what the database returned and holds
//!   against what was written (the guard's counters and locks, step 11,
//!   are judged in `decide::guard`).

pub mod locked;
pub mod replay;
pub mod server;
pub mod written;

use crate::model::{BreakGlassPath, DeploymentStatus};

pub use locked::{Change, Decision, decide, trail_has_room};

/// What the operator asked of this run, as the judgements need it (the
/// rest of `db::transition::Request` is how to read and write).
#[derive(Debug, Clone, Copy)]
pub struct Asked<'a> {
    pub reason: &'a str,
    pub dry_run: bool,
    /// Apply although the deployment is not stuck (recorded in the audit).
    pub even_if_not_stuck: bool,
    pub expect_path: Option<BreakGlassPath>,
    /// As given (it is trimmed where it is compared).
    pub expect_fingerprint: Option<&'a str>,
}

/// The status a path sets, for an outcome (an empty unknown status for no
/// path).
pub fn new_status(path: BreakGlassPath) -> DeploymentStatus {
    path.new_status()
        .unwrap_or_else(|| DeploymentStatus::Unknown(String::new()))
}
