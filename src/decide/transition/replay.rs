//! Step 8 (pushleft-controller-fail-safely(1), STEP BY STEP): an event with this
//! idempotency key exists. The same deployment and reason is a replay that
//! writes nothing, and still honours `--expect-path` and
//! `--expect-fingerprint` (against what the earlier run recorded — the
//! state it acted on — or the state it left, which is what a fresh
//! `diagnose` returns: a script run twice replays the second time);
//! anything else is a conflict. A `log` key of the stored payload is never
//! shown.

use anyhow::Result;
use chrono::{DateTime, Utc};
use serde_json::Value;
use uuid::Uuid;

use super::{Asked, new_status};
use crate::exit;
use crate::model::outcome::{EventOut, Outcome};
use crate::model::{BreakGlassPath, DeploymentStatus, NextCommand};

/// The event an earlier run wrote with the key, as read: each column, or
/// `None` when it is NULL or of another type (a live schema may allow it).
#[derive(Debug, Clone, Default)]
pub struct Recorded {
    pub deployment_id: Option<Uuid>,
    pub payload: Option<Value>,
    pub kind: Option<String>,
    pub id: Option<Uuid>,
    pub sequence: Option<i64>,
    pub occurred_at: Option<DateTime<Utc>>,
}

/// `value` without any `log` key, at any depth.
fn without_log(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(key, _)| key != "log")
                .map(|(key, inner)| (key, without_log(inner)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(without_log).collect()),
        other => other,
    }
}

/// A column of the recorded event the replay needs; without it, what the
/// earlier run did cannot be told: a refusal naming
/// `deployment_events.column`.
fn column<T>(value: Option<T>, name: &str, key: &str) -> Result<T> {
    value.ok_or_else(|| {
        exit::refused(format!(
            "the event an earlier run wrote with idempotency key {key} has no readable \
             deployment_events.{name} (NULL or of another type), so what it did cannot be told; \
             nothing was written now. Look at that event (`pushleft-controller history`) before \
             deciding again"
        ))
    })
}

/// `--expect-path` and `--expect-fingerprint` hold a replay too: the path
/// the earlier run applied; the state it acted on (`recorded`) or the one
/// the deployment is in `now`.
fn held_to_expectations(
    asked: &Asked,
    id: Uuid,
    key: &str,
    path: BreakGlassPath,
    recorded: Option<&str>,
    now: Option<&str>,
) -> Result<()> {
    if let Some(expected) = asked.expect_path
        && expected != path
    {
        return Err(exit::refused(format!(
            "deployment {id}: an earlier run with idempotency key {key} already applied {}, not \
             the expected {}; nothing was written now. Re-diagnose before deciding again",
            path.as_str(),
            expected.as_str()
        )));
    }
    if let Some(expected) = asked.expect_fingerprint
        && recorded != Some(expected.trim())
        && now != Some(expected.trim())
    {
        return Err(exit::conflict(format!(
            "deployment {id}: an earlier run with idempotency key {key} acted on the state with \
             fingerprint {} and the deployment is at {} now, not {}; nothing was written now. \
             It changed since: `{}` shows it as it is now",
            recorded.unwrap_or("(not recorded)"),
            now.unwrap_or("(not read)"),
            expected.trim(),
            NextCommand::diagnose(id)
        )));
    }
    Ok(())
}

/// The key was used for another deployment or another reason.
fn key_used_otherwise(
    key: &str,
    id: Uuid,
    event_deployment: Uuid,
    same_reason: bool,
) -> anyhow::Error {
    exit::conflict(format!(
        "idempotency key {key} was already used for {} with {}; nothing was written. \
         Use a new --idempotency-key, or the original deployment and reason",
        if event_deployment == id {
            "this deployment".to_string()
        } else {
            format!("deployment {event_deployment}")
        },
        if same_reason {
            "the same reason"
        } else {
            "a different reason"
        }
    ))
}

/// The earlier run's outcome, or why it is not this run's. `now`: the
/// fingerprint of the state now, read under the locks (only when the run
/// is held to a fingerprint).
pub fn replay(
    asked: &Asked,
    id: Uuid,
    key: &str,
    recorded: Recorded,
    now: Option<&str>,
) -> Result<Outcome> {
    let event_deployment = column(recorded.deployment_id, "deployment_id", key)?;
    let payload = without_log(column(recorded.payload, "payload", key)?);
    let reason = payload.get("reason").and_then(Value::as_str).unwrap_or("");
    if event_deployment != id || reason != asked.reason {
        let same_reason = reason == asked.reason;
        return Err(key_used_otherwise(key, id, event_deployment, same_reason));
    }
    let kind = column(recorded.kind, "kind", key)?;
    let path = BreakGlassPath::of_event_kind(&kind);
    let fingerprint = payload
        .pointer("/audit/fingerprint")
        .and_then(Value::as_str);
    held_to_expectations(asked, id, key, path, fingerprint, now)?;
    let previous = payload
        .pointer("/audit/previous_status")
        .and_then(Value::as_str)
        .unwrap_or("unknown");
    Ok(Outcome {
        deployment_id: id,
        target: None,
        path,
        applied: true,
        replayed: true,
        dry_run: asked.dry_run,
        previous_status: DeploymentStatus::parse(previous),
        new_status: new_status(path),
        stuck: payload
            .pointer("/audit/stuck")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        stuck_for_seconds: payload
            .pointer("/audit/stuck_for_seconds")
            .and_then(Value::as_i64),
        event: EventOut {
            id: column(recorded.id, "id", key)?,
            sequence: column(recorded.sequence, "sequence", key)?,
            kind,
            payload,
            occurred_at: column(recorded.occurred_at, "occurred_at", key)?,
        },
        idempotency_key: key.to_string(),
        fingerprint: None,
        evidence: Vec::new(),
        findings: Vec::new(),
        next_command: NextCommand::wait(id),
        rerun: None,
        replication: None,
    })
}

#[cfg(test)]
#[path = "replay_tests.rs"]
mod tests;
