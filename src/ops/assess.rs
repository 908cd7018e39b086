//! One consistent read of a deployment and the verdict on it: what
//! `diagnose` shows, what `wait` looks at every interval, and what
//! `fail-safely` reads again after a replay.

use anyhow::Result;

use crate::db;
use crate::db::session::Session;
use crate::db::sql::Schema;
use crate::decide::{self, Policy, Verdict};
use crate::model::DeploymentSnapshot;
use crate::ui;

/// One consistent read of a deployment and the verdict on it.
pub struct Assessed {
    pub snapshot: DeploymentSnapshot,
    pub verdict: Verdict,
    pub fingerprint: String,
}

/// Reads `deployment` (id or prefix) inside one REPEATABLE READ READ ONLY
/// transaction, in one round trip, and assesses it; the transaction has
/// ended when it returns. Warns (stderr) when row-level security may hide
/// rows from it.
pub fn assess(
    session: &mut Session,
    schema: &Schema,
    deployment: &str,
    events_limit: Option<usize>,
    policy: &Policy,
) -> Result<Assessed> {
    let snapshot = db::reading::read(session, schema, deployment, events_limit)?;
    let assessed = assessed(snapshot, policy);
    warn_row_security(&assessed);
    Ok(assessed)
}

/// The verdict on a snapshot read (no warning: the caller gives it,
/// [`warn_row_security`]).
pub fn assessed(snapshot: DeploymentSnapshot, policy: &Policy) -> Assessed {
    Assessed {
        verdict: decide::assess(&snapshot, policy),
        fingerprint: decide::fingerprint(&snapshot),
        snapshot,
    }
}

/// The warning when row-level security may hide rows from the read.
pub fn warn_row_security(assessed: &Assessed) {
    ui::warn_row_security(&assessed.snapshot.snapshot.row_security, "this diagnosis");
}
