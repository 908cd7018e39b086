//! Steps 10 and 12 (pushleft-controller-fail-safely(1), STEP BY STEP): the runbook's
//! UPDATE and the event with the audit, in one statement, and after the
//! guard, just before COMMIT, what the database holds (read in step 11's
//! message). `decide::transition::written` checks each against what was
//! written.

use crate::db::columns::{Columns, JsonRow};
use crate::db::session::Pinned;
use anyhow::{Context, Result};
use serde_json::{Map, Value, json};

use super::{EventOut, Request};
use crate::db::sql;
use crate::decide::Stuck;
use crate::decide::transition::written::{self, Reread, RereadEvent, Returned, Stored, Written};
use crate::decide::transition::{Change, Decision, trail_has_room};
use crate::model::{BreakGlassPath, DeploymentSnapshot};

/// The event's payload: the runbook's keys (`reason`, `operator` for a
/// teardown) and the audit.
#[allow(clippy::too_many_arguments)]
fn payload(
    request: &Request,
    snapshot: &DeploymentSnapshot,
    path: BreakGlassPath,
    key: &str,
    stuck: &Stuck,
    fingerprint: &str,
    session_user: String,
    current_user: String,
) -> Value {
    let mut payload = Map::new();
    payload.insert("reason".into(), json!(request.reason));
    if path == BreakGlassPath::TeardownRequested {
        payload.insert("operator".into(), json!(true));
    }
    payload.insert("idempotency_key".into(), json!(key));
    payload.insert(
        "audit".into(),
        json!({
            "previous_status": snapshot.deployment.status.as_str(),
            "os_user": request.audit.os_user,
            "session_user": session_user,
            "current_user": current_user,
            "host": request.audit.host,
            "tool": request.audit.tool,
            "fingerprint": fingerprint,
            "stuck": stuck.stuck,
            "stuck_for_seconds": stuck.stuck_for_seconds,
            "even_if_not_stuck": request.even_if_not_stuck,
        }),
    );
    if let (Some(region), Some(Value::Object(audit))) =
        (&request.audit.region, payload.get_mut("audit"))
    {
        audit.insert("region".into(), json!(region));
    }
    if let (Some(approval), Some(Value::Object(audit))) =
        (&request.audit.approval, payload.get_mut("audit"))
    {
        approve(audit, approval);
    }
    Value::Object(payload)
}

/// The audit's approval keys (README, "Two-person break-glass"): the
/// plan, who asked, who approved, whether that was the same person.
fn approve(audit: &mut Map<String, Value>, approval: &crate::model::plan::Approval) {
    audit.insert("plan_id".into(), json!(approval.plan_id));
    audit.insert("requester".into(), json!(approval.requester));
    audit.insert("approver".into(), json!(approval.approver));
    audit.insert("self_approved".into(), json!(approval.self_approved));
    audit.insert(
        "break_glass_alone".into(),
        json!(approval.break_glass_alone),
    );
}

/// Who writes (step 4's `04_who.sql`): the login role and the role in
/// effect.
pub(super) struct Who {
    pub(super) session_user: String,
    pub(super) current_user: String,
}

/// Step 10: the runbook's UPDATE, exactly one row, then the event with
/// sequence = max + 1, the runbook's payload keys and the audit, in one
/// statement, for the change step 9 decided (and the idempotency key).
/// Both checked against what the database returns.
pub(super) fn write(
    tx: &mut Pinned<'_>,
    request: &Request,
    snapshot: &DeploymentSnapshot,
    (decision, key): (&Decision, &str),
    who: &Who,
) -> Result<Written> {
    let change = decision.change;
    let id = snapshot.deployment.id;
    trail_has_room(snapshot)?;
    let update = match change {
        Change::MarkFailed => &sql::fail_safely::MARK_FAILED,
        Change::RequestTeardown => &sql::fail_safely::REQUEST_TEARDOWN,
    };
    let path = change.path();
    let payload = payload(
        request,
        snapshot,
        path,
        key,
        &decision.stuck,
        &decision.fingerprint,
        who.session_user.clone(),
        who.current_user.clone(),
    );
    let row = update.query_one(tx, &request.schema, &[&id, &path.as_str(), &payload])?;
    let returned = returned(&row).context("reading what the runbook's UPDATE returned")?;
    written::check_returned(id, change, payload, returned)
}

/// Step 10's row: each column as the database holds it (NULL where the
/// UPDATE touched no row or appended no event).
fn returned(row: &postgres::Row) -> Result<Returned> {
    let event = match (
        row.col("event_id")?,
        row.col("event_deployment_id")?,
        row.col("sequence")?,
        row.col("kind")?,
        row.col("payload")?,
        row.col("occurred_at")?,
    ) {
        (Some(id), Some(deployment_id), Some(sequence), Some(kind), Some(payload), Some(at)) => {
            Some(Stored {
                deployment_id,
                event: EventOut {
                    id,
                    sequence,
                    kind,
                    payload,
                    occurred_at: at,
                },
            })
        }
        _ => None,
    };
    Ok(Returned {
        updated: row.col("updated")?,
        id: row.col("id")?,
        status: row.col("status")?,
        event,
    })
}

/// Step 12's read-back (`14_reread.sql`, read in step 11's message), as
/// read: `None` when no row came back (the deployment row is gone); the
/// event's columns only when it was found.
pub(super) fn read_back(reread: &Value) -> Result<Option<Reread>> {
    let Value::Object(map) = reread else {
        return Ok(None);
    };
    let row = JsonRow(map);
    let event = match row.col::<bool>("event_found")? {
        true => Some(RereadEvent {
            deployment_id: row.col("deployment_id")?,
            sequence: row.col("sequence")?,
            kind: row.col("kind")?,
            payload: row.col("payload")?,
            occurred_at: row.col("occurred_at")?,
        }),
        false => None,
    };
    Ok(Some(Reread {
        written: row.col("written")?,
        status: row.col("status")?,
        event,
    }))
}
