//! Steps 10 and 12 (README, "fail-safely, step by step"): the runbook's
//! UPDATE and the event with the audit, in one statement, each checked
//! against what the database returns, and after the guard, just before
//! COMMIT, what the database holds (read in step 11's message) checked
//! against what was written.

use crate::db::columns::{Columns, JsonRow};
use crate::db::session::Pinned;
use anyhow::Result;
use serde_json::{Map, Value, json};
use uuid::Uuid;

use super::{EventOut, Request};
use crate::db::sql;
use crate::decide::Stuck;
use crate::exit;
use crate::model::text::escaped;
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

/// Who writes (step 4's `04_who.sql`): the login role and the role in
/// effect.
pub(super) struct Who {
    pub(super) session_user: String,
    pub(super) current_user: String,
}

/// What the decision of step 9 wrote into the event.
pub(super) struct Decided<'a> {
    pub(super) path: BreakGlassPath,
    pub(super) key: &'a str,
    pub(super) stuck: &'a Stuck,
    pub(super) fingerprint: &'a str,
}

/// Step 10: the runbook's UPDATE, exactly one row, then the event with
/// sequence = max + 1, the runbook's payload keys and the audit, in one
/// statement. Both checked against what the database returns.
pub(super) fn write(
    tx: &mut Pinned<'_>,
    request: &Request,
    snapshot: &DeploymentSnapshot,
    decided: &Decided<'_>,
    who: &Who,
) -> Result<Written> {
    let Decided {
        path,
        key,
        stuck,
        fingerprint,
    } = *decided;
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
    let payload = payload(
        request,
        snapshot,
        path,
        key,
        stuck,
        fingerprint,
        who.session_user.clone(),
        who.current_user.clone(),
    );
    let row = update.query_one(tx, schema, &[&id, &path.as_str(), &payload])?;
    let updated: i64 = row.get("updated");
    if updated != 1 {
        return Err(exit::refused(format!(
            "deployment {id}: the runbook's UPDATE matched {updated} rows instead of 1; rolled back, nothing was written. Re-diagnose"
        )));
    }
    let holds: String = row.get("status");
    if holds != status.as_str() || row.get::<_, Uuid>("id") != id {
        return Err(values_differ(
            id,
            &format!(
                "the runbook's UPDATE set status {status}, but the row holds `{}`",
                escaped(&holds)
            ),
        ));
    }
    let event = EventOut {
        id: row.get("event_id"),
        sequence: row.get("sequence"),
        kind: row.get("kind"),
        payload: row.get("payload"),
        occurred_at: row.get("occurred_at"),
    };
    let event_deployment: Uuid = row.get("event_deployment_id");
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
                escaped(&stored.kind)
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

/// Step 12: just before COMMIT, what the database holds (`reread`, read
/// in step 11's message) must still be exactly what was written, for the
/// ids written. Returns the event as stored.
pub(super) fn reread(id: Uuid, reread: &Value, written: &Written) -> Result<EventOut> {
    let Value::Object(map) = reread else {
        return Err(values_differ(id, "the deployment row is gone"));
    };
    let row = JsonRow(map);
    let ids: Option<String> = row.col("written")?;
    if ids.as_deref() != Some(format!("{id} {}", written.event.id).as_str()) {
        return Err(values_differ(
            id,
            "the read-back was pointed at other rows than those written",
        ));
    }
    let status: String = row.col("status")?;
    if status != written.status.as_str() {
        return Err(values_differ(
            id,
            &format!(
                "the deployment holds status `{}` before COMMIT, not {}",
                escaped(&status),
                written.status
            ),
        ));
    }
    if !row.col::<bool>("event_found")? {
        return Err(values_differ(id, "the event written is gone"));
    }
    let stored = EventOut {
        id: written.event.id,
        sequence: row.col("sequence")?,
        kind: row.col("kind")?,
        payload: row.col("payload")?,
        occurred_at: row.col("occurred_at")?,
    };
    let path = BreakGlassPath::of_event_kind(&written.event.kind);
    check_event(
        id,
        &stored,
        row.col("deployment_id")?,
        path,
        &written.event.payload,
    )?;
    if stored.sequence != written.event.sequence {
        return Err(values_differ(id, "the event's sequence changed"));
    }
    Ok(stored)
}
