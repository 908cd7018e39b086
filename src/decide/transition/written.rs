//! Steps 10 and 12 (pushleft-controller-fail-safely(1), STEP BY STEP): what the
//! database returned for the runbook's UPDATE and the event, and what it
//! holds just before COMMIT, against what was written. Any difference is
//! something in the database (a trigger) acting behind the guard's back:
//! refused, everything rolled back.

use anyhow::Result;
use chrono::{DateTime, Utc};
use serde_json::Value;
use uuid::Uuid;

use super::Change;
use crate::exit;
use crate::model::outcome::EventOut;
use crate::model::text::escaped;
use crate::model::{BreakGlassPath, DeploymentStatus};

/// An event as the database holds it, with the deployment it is for.
#[derive(Debug, Clone)]
pub struct Stored {
    pub deployment_id: Uuid,
    pub event: EventOut,
}

/// What step 10's statement returned (`sql/fail_safely/10_mark_failed.sql`
/// and `11_request_teardown.sql`): the rows the UPDATE touched and, as the
/// database holds them, the row and the event (`None`: NULL, as when the
/// UPDATE touched no row).
#[derive(Debug, Clone)]
pub struct Returned {
    pub updated: i64,
    pub id: Option<Uuid>,
    pub status: Option<String>,
    pub event: Option<Stored>,
}

/// What the transaction wrote, to check the database against.
#[derive(Debug, Clone)]
pub struct Written {
    pub status: DeploymentStatus,
    pub event: EventOut,
}

/// The event as step 12's read-back found it (`14_reread.sql`).
#[derive(Debug, Clone)]
pub struct RereadEvent {
    pub deployment_id: Uuid,
    pub sequence: i64,
    pub kind: String,
    pub payload: Value,
    pub occurred_at: DateTime<Utc>,
}

/// What step 12's read-back found, just before COMMIT.
#[derive(Debug, Clone)]
pub struct Reread {
    /// The ids the read-back was pointed at (`deployment event`).
    pub written: Option<String>,
    pub status: String,
    /// `None`: the event written is gone.
    pub event: Option<RereadEvent>,
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

/// Step 10: the UPDATE touched exactly the one row and set the change's
/// status; the event is stored for this deployment, of this kind, with
/// `payload`. Returns what was written.
pub fn check_returned(
    id: Uuid,
    change: Change,
    payload: Value,
    returned: Returned,
) -> Result<Written> {
    let updated = returned.updated;
    if updated != 1 {
        return Err(exit::refused(format!(
            "deployment {id}: the runbook's UPDATE matched {updated} rows instead of 1; rolled back, nothing was written. Re-diagnose"
        )));
    }
    let status = change.new_status();
    if returned.status.as_deref() != Some(status.as_str()) || returned.id != Some(id) {
        let holds = returned.status.as_deref().map_or("NULL".into(), escaped);
        return Err(values_differ(
            id,
            &format!("the runbook's UPDATE set status {status}, but the row holds `{holds}`"),
        ));
    }
    let Some(stored) = returned.event else {
        return Err(values_differ(id, "the event was not appended"));
    };
    check_event(id, &stored, change.path(), &payload)?;
    Ok(Written {
        status,
        event: EventOut {
            payload,
            ..stored.event
        },
    })
}

/// The event as stored must be the one written: for this deployment, of
/// this kind, with this payload.
fn check_event(id: Uuid, stored: &Stored, path: BreakGlassPath, payload: &Value) -> Result<()> {
    if stored.deployment_id != id {
        return Err(values_differ(
            id,
            &format!(
                "the event was written for deployment {}",
                stored.deployment_id
            ),
        ));
    }
    if stored.event.kind != path.as_str() {
        return Err(values_differ(
            id,
            &format!(
                "the event was written as {}, but the database holds kind `{}`",
                path.as_str(),
                escaped(&stored.event.kind)
            ),
        ));
    }
    if &stored.event.payload != payload {
        return Err(values_differ(
            id,
            "the event's payload the database holds is not the one written",
        ));
    }
    Ok(())
}

/// Step 12: just before COMMIT, what the database holds (`None`: the
/// deployment row is gone) must still be exactly what was written, for
/// the ids written. Returns the event as stored.
pub fn check_reread(id: Uuid, reread: Option<Reread>, written: &Written) -> Result<EventOut> {
    let Some(reread) = reread else {
        return Err(values_differ(id, "the deployment row is gone"));
    };
    if reread.written.as_deref() != Some(format!("{id} {}", written.event.id).as_str()) {
        return Err(values_differ(
            id,
            "the read-back was pointed at other rows than those written",
        ));
    }
    if reread.status != written.status.as_str() {
        return Err(values_differ(
            id,
            &format!(
                "the deployment holds status `{}` before COMMIT, not {}",
                escaped(&reread.status),
                written.status
            ),
        ));
    }
    let Some(found) = reread.event else {
        return Err(values_differ(id, "the event written is gone"));
    };
    let stored = Stored {
        deployment_id: found.deployment_id,
        event: EventOut {
            id: written.event.id,
            sequence: found.sequence,
            kind: found.kind,
            payload: found.payload,
            occurred_at: found.occurred_at,
        },
    };
    let path = BreakGlassPath::of_event_kind(&written.event.kind);
    check_event(id, &stored, path, &written.event.payload)?;
    if stored.event.sequence != written.event.sequence {
        return Err(values_differ(id, "the event's sequence changed"));
    }
    Ok(stored.event)
}

#[cfg(test)]
#[path = "written_tests.rs"]
mod tests;
