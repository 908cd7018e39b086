//! The two-person rule and a plan's holds (README, "Two-person
//! break-glass"): a plan is applied only on the cluster and database it
//! was made on, only before it expires, and — with
//! `PUSHLEFT_REQUIRE_APPROVAL=1` — only by someone else than its
//! requester: another OS user or another `session_user`. That is a
//! discipline the audit makes visible (each side says who it is), not
//! authentication.

use anyhow::Result;
use chrono::{DateTime, Utc};

use crate::exit;
use crate::model::plan::{Approval, Person};
use crate::model::target::WriteTarget;

/// The variable that turns the two-person rule on.
pub const REQUIRE_APPROVAL: &str = "PUSHLEFT_REQUIRE_APPROVAL";

/// Refuses (4) a plan applied anywhere but where it was made: another
/// cluster (system identifier) or another database of it (OID).
pub fn check_target(planned: &WriteTarget, here: &WriteTarget) -> Result<()> {
    if planned.same_database(here) {
        return Ok(());
    }
    let what = if planned.system_identifier != here.system_identifier {
        format!(
            "another cluster: system identifier {} here, {} in the plan",
            here.system_identifier, planned.system_identifier
        )
    } else {
        format!(
            "another database of the same cluster: OID {} here, {} in the plan",
            here.database_oid, planned.database_oid
        )
    };
    Err(exit::refused(format!(
        "this plan was made on database {} (OID {}) of cluster {}, and this session reached \
         {what}. A plan is applied only where it was made, even on a copy restored from the \
         same backup; nothing was written. Connect to the plan's database, or make a new plan \
         here",
        planned.database, planned.database_oid, planned.system_identifier
    )))
}

/// Refuses (4) a plan at or after its expiry (by the server's clock).
pub fn check_expiry(expires_at: DateTime<Utc>, now: DateTime<Utc>) -> Result<()> {
    if now < expires_at {
        return Ok(());
    }
    Err(exit::refused(format!(
        "this plan expired at {} (it is {} on the server): nothing was written. Make a new \
         plan with --plan-out, and have it reviewed again",
        expires_at.format("%Y-%m-%d %H:%M:%SZ"),
        now.format("%Y-%m-%d %H:%M:%SZ")
    )))
}

/// The approval of a plan's requester by `approver`, or a refusal (4)
/// when the rule is on (`require`), they are the same person and
/// `--break-glass-alone` was not given.
pub fn approve(
    plan_id: Option<String>,
    requester: &Person,
    approver: &Person,
    require: bool,
    alone: bool,
) -> Result<Approval> {
    let self_approved = requester.same_as(approver);
    if require && self_approved && !alone {
        return Err(exit::refused(format!(
            "{REQUIRE_APPROVAL}=1: this plan was made by {} (session_user {}), who is applying \
             it; someone else (another OS user or another session_user) must apply it. Nothing \
             was written. Alone, on the night nobody else answers: rerun with \
             --break-glass-alone, which the audit and history mark self_approved",
            requester.os_user, requester.session_user
        )));
    }
    Ok(Approval {
        plan_id,
        requester: requester.clone(),
        approver: approver.clone(),
        self_approved,
        break_glass_alone: alone,
    })
}

/// Refuses (4), before anything is connected to, a write without a plan
/// when the rule is on, unless `--break-glass-alone`.
pub fn check_direct_write(require: bool, writes: bool, alone: bool) -> Result<()> {
    if !require || !writes || alone {
        return Ok(());
    }
    Err(exit::refused(format!(
        "{REQUIRE_APPROVAL}=1: a write needs a plan approved by someone else. Nothing was \
         written. Make the plan (--plan-out FILE, which writes nothing), put it in the ticket, \
         and have another operator apply it (fail-safely --apply FILE); alone, rerun with \
         --break-glass-alone, which the audit and history mark self_approved"
    )))
}

#[cfg(test)]
mod tests;
