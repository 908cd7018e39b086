//! doctor's `approvals` line (README, "Two-person break-glass"): whether
//! this database records plans, its policy, and whether the enforcing
//! trigger is in place. The policy is read only where the schema is.

use anyhow::Result;

use super::facts::Facts;
use super::{Checks, Status};
use crate::db::columns::Columns;
use crate::db::session::Session;
use crate::model::text::escaped;

/// Where the schema is, its policy is read in a transaction of its own
/// (round trips more, in such a database only).
pub(super) fn approvals(session: &mut Session, facts: &Facts, checks: &mut Checks) -> Result<()> {
    let row = facts.row("approvals")?;
    let (installed, enforcing, owner): (bool, bool, Option<String>) = (
        row.col("installed")?,
        row.col("enforcing")?,
        row.col("owner")?,
    );
    if !installed {
        checks.push(
            "approvals",
            Status::Ok,
            "plans are files only (no `approvals install` here): --apply holds a file to its \
             hash, which an editor can recompute; the two-person rule is \
             PUSHLEFT_REQUIRE_APPROVAL's",
        );
        return Ok(());
    }
    let words = match session.read(crate::db::approvals::policy_in)? {
        None => "no policy row (rerun approvals install)".to_string(),
        Some(policy) => policy.words(),
    };
    let enforce = if enforcing {
        "the enforcing trigger is on deployment_events (psql writes without a plan are refused)"
    } else {
        "no enforcing trigger (approvals install --enforce adds it)"
    };
    checks.push(
        "approvals",
        Status::Ok,
        format!(
            "plans are recorded by the server (schema pushleft_approvals, owner {}): {words}; \
             {enforce}",
            escaped(owner.as_deref().unwrap_or("?"))
        ),
    );
    Ok(())
}
