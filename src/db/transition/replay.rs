//! Step 6: an event with this idempotency key exists. The same deployment
//! and reason is a replay that writes nothing; anything else is a conflict.

use anyhow::Result;
use serde_json::Value;
use uuid::Uuid;

use super::{EventOut, Outcome, Request, new_status};
use crate::exit;
use crate::model::{BreakGlassPath, DeploymentStatus};

pub fn replay(request: &Request, id: Uuid, key: &str, row: &postgres::Row) -> Result<Outcome> {
    let event_deployment: Uuid = row.get("deployment_id");
    let payload: Value = row.get("payload");
    let reason = payload.get("reason").and_then(Value::as_str).unwrap_or("");
    if event_deployment != id || reason != request.reason {
        return Err(exit::conflict(format!(
            "idempotency key {key} was already used for {} with {}; nothing was written. \
             Use a new --idempotency-key, or the original deployment and reason",
            if event_deployment == id {
                "this deployment".to_string()
            } else {
                format!("deployment {event_deployment}")
            },
            if reason == request.reason {
                "the same reason"
            } else {
                "a different reason"
            }
        )));
    }
    let kind: String = row.get("kind");
    let path = BreakGlassPath::of_event_kind(&kind);
    let previous = payload
        .pointer("/audit/previous_status")
        .and_then(Value::as_str)
        .unwrap_or("unknown");
    Ok(Outcome {
        deployment_id: id,
        path,
        applied: true,
        replayed: true,
        dry_run: request.dry_run,
        previous_status: DeploymentStatus::parse(previous),
        new_status: new_status(path),
        event: EventOut {
            id: row.get("id"),
            sequence: row.get("sequence"),
            kind,
            payload,
            occurred_at: row.get("occurred_at"),
        },
        idempotency_key: key.to_string(),
        fingerprint: None,
        evidence: Vec::new(),
        findings: Vec::new(),
        next_command: format!("pushleft-controller wait {id}"),
    })
}
