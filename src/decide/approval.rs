//! The two-person rule and a plan's holds (README, "Two-person
//! break-glass"): a plan is applied only on the cluster and database it
//! was made on, only before it expires, and — with
//! `PUSHLEFT_REQUIRE_APPROVAL=1` — only by someone else than its
//! requester: another OS user or another `session_user`. That is a
//! discipline the audit makes visible (each side says who it is), not
//! authentication.

use anyhow::{Context as _, Result};
use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::exit;
use crate::model::approvals::{Approvals, StoredPlan};
use crate::model::plan::{Approval, Person, Plan};
use crate::model::target::WriteTarget;
use crate::model::text::escaped;

/// The variable that turns the two-person rule on.
pub const REQUIRE_APPROVAL: &str = "PUSHLEFT_REQUIRE_APPROVAL";

/// A plan's content as the server records it: the document without what
/// the server stamps (its id, when, the expiry, the record itself).
pub fn content(plan: &Plan) -> Result<Value> {
    let mut value = serde_json::to_value(plan).context("serializing the plan")?;
    if let Value::Object(map) = &mut value {
        for stamped in STAMPED {
            map.remove(*stamped);
        }
    }
    Ok(value)
}

/// The fields of a plan the server stamps rather than stores as content.
const STAMPED: &[&str] = &["plan_id", "created_at", "expires_at", "record"];

/// The server's copy as a plan document: its content with what the
/// server stamped put back ([`content`] undone).
fn stored_document(stored: &StoredPlan) -> Result<Value> {
    let mut value = stored.content.clone();
    let Value::Object(map) = &mut value else {
        return Err(exit::refused(
            "the server's copy of the plan is not a JSON object; nothing was written",
        ));
    };
    let stamped = [
        serde_json::to_value(&stored.plan_id),
        serde_json::to_value(stored.created_at),
        serde_json::to_value(stored.expires_at),
        serde_json::to_value(&stored.record),
    ];
    for (name, value) in STAMPED.iter().zip(stamped) {
        map.insert(
            (*name).to_string(),
            value.context("serializing the record")?,
        );
    }
    Ok(value)
}

/// The plan to apply: the server's copy.
pub fn stored_plan(stored: &StoredPlan) -> Result<Plan> {
    serde_json::from_value(stored_document(stored)?).map_err(|err| {
        exit::refused(format!(
            "the server's copy of the plan does not read as a plan ({err}); nothing was written"
        ))
    })
}

/// Where the plan file differs from the server's copy, field by field
/// (`deployments[2].fingerprint`, `expires_at`); empty when it does not.
pub fn differences(file: &Plan, stored: &StoredPlan) -> Result<Vec<String>> {
    let mut out = Vec::new();
    let file = serde_json::to_value(file).context("serializing the plan")?;
    diff("", &file, &stored_document(stored)?, &mut out);
    Ok(out)
}

/// The paths under `at` where `a` and `b` differ.
fn diff(at: &str, a: &Value, b: &Value, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for key in keys {
                let path = if at.is_empty() {
                    key.clone()
                } else {
                    format!("{at}.{key}")
                };
                match (x.get(key), y.get(key)) {
                    (Some(v), Some(w)) => diff(&path, v, w, out),
                    _ => out.push(path),
                }
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (v, w)) in x.iter().zip(y).enumerate() {
                diff(&format!("{at}[{i}]"), v, w, out);
            }
        }
        _ if a == b => {}
        _ => out.push(at.to_string()),
    }
}

/// Refuses (4) a plan file that is not the server's copy, naming the
/// fields that differ.
pub fn check_unchanged(file: &Plan, stored: &StoredPlan) -> Result<()> {
    let fields = differences(file, stored)?;
    if fields.is_empty() {
        return Ok(());
    }
    let shown: Vec<String> = fields
        .iter()
        .take(12)
        .map(|f| escaped(f).into_owned())
        .collect();
    let more = fields.len().saturating_sub(shown.len());
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    Err(exit::refused(format!(
        "the plan file {} is not the plan the server recorded: {}{more} differ. Nothing was \
         written. Apply the plan as it was reviewed (the ticket's copy), or make a new plan",
        escaped(&stored.plan_id),
        shown.join(", ")
    )))
}

/// A file-only plan's id: `plan-` and the first 16 hex digits of the
/// SHA-256 of its document with the id left empty (the same plan, the
/// same id).
pub fn file_plan_id(plan: &Plan) -> Result<String> {
    use sha2::{Digest, Sha256};
    let unnamed = Plan {
        plan_id: String::new(),
        ..plan.clone()
    };
    let bytes = serde_json::to_vec(&unnamed).context("serializing the plan")?;
    Ok(format!(
        "plan-{}",
        hex::encode(&Sha256::digest(&bytes)[..8])
    ))
}

/// Refuses (4) a file-only plan (no server record) whose id is not the
/// hash of its content: it was edited after it was made. (An editor who
/// recomputes the hash is not caught: README, "Two-person break-glass".)
pub fn check_file_id(plan: &Plan) -> Result<()> {
    let recomputed = file_plan_id(plan)?;
    if plan.plan_id == recomputed {
        return Ok(());
    }
    Err(exit::refused(format!(
        "the plan file was changed after it was made: its content hashes to {recomputed}, not \
         to its plan_id {}. Nothing was written. Apply the plan as it was reviewed, or make a \
         new one",
        escaped(&plan.plan_id)
    )))
}

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
    } else if planned.database_oid != here.database_oid {
        format!(
            "another database of the same cluster: OID {} here, {} in the plan",
            here.database_oid, planned.database_oid
        )
    } else {
        format!(
            "a database named {} (the plan's is named {}): renamed, or a copy restored under \
             another name",
            escaped(&here.database),
            escaped(&planned.database)
        )
    };
    Err(exit::refused(format!(
        "this plan was made on database {} (OID {}) of cluster {}, and this session reached \
         {what}. A plan is applied only where it was made: the same cluster, database OID and \
         name; nothing was written. Connect to the plan's database, or make a new plan here",
        escaped(&planned.database),
        planned.database_oid,
        escaped(&planned.system_identifier)
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

/// Refuses (4) `--break-glass-alone` where the database's policy does
/// not allow it.
pub fn check_alone_allowed(approvals: &Approvals, alone: bool) -> Result<()> {
    if !alone || approvals.allows_alone() {
        return Ok(());
    }
    Err(exit::refused(
        "the policy of this database (approvals install --forbid-break-glass-alone) does not \
         allow --break-glass-alone: nothing was written. Make a plan (--plan-out FILE) and have \
         another operator apply it",
    ))
}

#[cfg(test)]
#[path = "approval_tests.rs"]
mod tests;
