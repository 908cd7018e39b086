//! Steps 10 and 12 (README, "fail-safely, step by step"): the runbook's
//! UPDATE and the event with the audit, each checked against what the
//! database returns, and after the guard, just before COMMIT, what the
//! database holds checked against what was written.

use crate::db::session::Pinned;
use anyhow::{Context, Result};
use serde_json::{Map, Value, json};
use uuid::Uuid;

use super::{EventOut, Request};
use crate::db::sql;
use crate::decide::Stuck;
use crate::decide::triggers::visible;
use crate::exit;
use crate::model::{BreakGlassPath, DeploymentSnapshot, DeploymentStatus};

/// What the transaction wrote, to check the database against.
pub(super) struct Written {
    pub(super) status: DeploymentStatus,
    event: EventOut,
}

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

/// Step 10: the runbook's UPDATE, exactly one row, then the event with
/// sequence = max + 1, the runbook's payload keys and the audit. Both
/// checked against what the database returns.
pub(super) fn write(
    tx: &mut Pinned<'_>,
    request: &Request,
    snapshot: &DeploymentSnapshot,
    path: BreakGlassPath,
    key: &str,
    stuck: &Stuck,
    fingerprint: &str,
) -> Result<Written> {
    let id = snapshot.deployment.id;
    refuse_full_trail(snapshot)?;
    let schema = &request.schema;
    let update = match path {
        BreakGlassPath::OperatorFailed => &sql::fail_safely::MARK_FAILED,
        BreakGlassPath::TeardownRequested => &sql::fail_safely::REQUEST_TEARDOWN,
        BreakGlassPath::None => {
            return Err(exit::refused(format!(
                "nothing to do for deployment {id}; nothing was written"
            )));
        }
    };
    let Some(status) = path.new_status() else {
        return Err(exit::refused(format!(
            "nothing to do for deployment {id}; nothing was written"
        )));
    };
    let rows = update.query(tx, schema, &[&id])?;
    if rows.len() != 1 {
        return Err(exit::refused(format!(
            "deployment {id}: the runbook's UPDATE matched {} rows instead of 1; rolled back, nothing was written. Re-diagnose",
            rows.len()
        )));
    }
    let holds: String = rows[0].get("status");
    if holds != status.as_str() || rows[0].get::<_, Uuid>("id") != id {
        return Err(values_differ(
            id,
            &format!(
                "the runbook's UPDATE set status {status}, but the row holds `{}`",
                visible(&holds)
            ),
        ));
    }
    let who = sql::fail_safely::WHO.query_catalog_one(tx, &[])?;
    let payload = payload(
        request,
        snapshot,
        path,
        key,
        stuck,
        fingerprint,
        who.get("session_user"),
        who.get("current_user"),
    );
    let row =
        sql::fail_safely::APPEND_EVENT.query_one(tx, schema, &[&id, &path.as_str(), &payload])?;
    let event = EventOut {
        id: row.get("id"),
        sequence: row.get("sequence"),
        kind: row.get("kind"),
        payload: row.get("payload"),
        occurred_at: row.get("occurred_at"),
    };
    let event_deployment: Uuid = row.get("deployment_id");
    check_event(id, &event, event_deployment, path, &payload)?;
    Ok(Written {
        status,
        event: EventOut { payload, ..event },
    })
}

/// Before anything is written: the event (`sequence = max + 1`) must fit
/// in a bigint. A trail at its largest value is refused, with what to do,
/// instead of the INSERT failing with "bigint out of range".
fn refuse_full_trail(snapshot: &DeploymentSnapshot) -> Result<()> {
    let Some(last) = crate::decide::edges::trail_full(snapshot) else {
        return Ok(());
    };
    Err(exit::refused(format!(
        "fail-safely refuses to change deployment {}: its event trail is at the largest \
         sequence number a bigint holds (event {} has sequence {}); no event can be appended, \
         and the runbook's change is only ever made together with its event and audit. \
         Nothing was written. No control plane counts that far: the sequence was set by hand \
         or by a bug. Find out who wrote event {} (the runbook forbids deleting or renumbering \
         events) and escalate to the control plane's owners",
        snapshot.deployment.id, last.id, last.sequence, last.id
    )))
}

/// The event as stored must be the one written: for this deployment, of
/// this kind, with this payload.
fn check_event(
    id: Uuid,
    stored: &EventOut,
    stored_deployment: Uuid,
    path: BreakGlassPath,
    payload: &Value,
) -> Result<()> {
    if stored_deployment != id {
        return Err(values_differ(
            id,
            &format!("the event was written for deployment {stored_deployment}"),
        ));
    }
    if stored.kind != path.as_str() {
        return Err(values_differ(
            id,
            &format!(
                "the event was written as {}, but the database holds kind `{}`",
                path.as_str(),
                visible(&stored.kind)
            ),
        ));
    }
    if &stored.payload != payload {
        return Err(values_differ(
            id,
            "the event's payload the database holds is not the one written",
        ));
    }
    Ok(())
}

/// The database holds other values than those written: a trigger (or
/// something else in the database) changed them.
fn values_differ(id: Uuid, what: &str) -> anyhow::Error {
    exit::refused(format!(
        "guard: the transaction for deployment {id} does not hold what it wrote: {what}. \
         Something in the database (a trigger) changed it; everything was rolled back and \
         nothing was written. Find out what changed it before retrying (`pushleft-controller \
         doctor` lists the triggers)"
    ))
}

/// Step 12: just before COMMIT, what the database holds must still be
/// exactly what was written. Returns the event as stored.
pub(super) fn reread(
    tx: &mut Pinned<'_>,
    request: &Request,
    id: Uuid,
    written: &Written,
) -> Result<EventOut> {
    let row = sql::fail_safely::REREAD
        .query(tx, &request.schema, &[&id, &written.event.id])
        .context("reading back what the transaction wrote")?
        .into_iter()
        .next();
    let Some(row) = row else {
        return Err(values_differ(id, "the deployment row is gone"));
    };
    let status: String = row.get("status");
    if status != written.status.as_str() {
        return Err(values_differ(
            id,
            &format!(
                "the deployment holds status `{}` before COMMIT, not {}",
                visible(&status),
                written.status
            ),
        ));
    }
    if !row.get::<_, bool>("event_found") {
        return Err(values_differ(id, "the event written is gone"));
    }
    let stored = EventOut {
        id: written.event.id,
        sequence: row.get("sequence"),
        kind: row.get("kind"),
        payload: row.get("payload"),
        occurred_at: row.get("occurred_at"),
    };
    let path = BreakGlassPath::of_event_kind(&written.event.kind);
    check_event(
        id,
        &stored,
        row.get("deployment_id"),
        path,
        &written.event.payload,
    )?;
    if stored.sequence != written.event.sequence {
        return Err(values_differ(id, "the event's sequence changed"));
    }
    Ok(stored)
}
