use super::*;

#[test]
fn log_keys_are_dropped_at_every_depth() {
    let payload = serde_json::json!({
        "reason": "INC-1", "log": "secret",
        "audit": {"log": ["secret"], "host": "h"},
        "list": [{"log": 1, "keep": 2}]
    });
    assert_eq!(
        without_log(payload),
        serde_json::json!({"reason": "INC-1", "audit": {"host": "h"}, "list": [{"keep": 2}]})
    );
}

use crate::exit::{ExitCode, code_for};

const KEY: &str = "k-1";

fn deployment() -> Uuid {
    Uuid::from_u128(0xD1)
}

fn asked() -> Asked<'static> {
    Asked {
        reason: "INC-1 stuck queued",
        dry_run: false,
        even_if_not_stuck: false,
        expect_path: None,
        expect_fingerprint: None,
    }
}

/// The event an earlier run with the same deployment and reason wrote.
fn recorded() -> Recorded {
    Recorded {
        deployment_id: Some(deployment()),
        payload: Some(serde_json::json!({
            "reason": "INC-1 stuck queued",
            "log": "secret",
            "audit": {
                "previous_status": "queued",
                "fingerprint": "aaaaaaaaaaaa",
                "stuck": true,
                "stuck_for_seconds": 2700,
            },
        })),
        kind: Some("operator_failed".into()),
        id: Some(Uuid::from_u128(0xE4)),
        sequence: Some(4),
        occurred_at: chrono::DateTime::from_timestamp(1_790_000_000, 0),
    }
}

fn refused(asked: &Asked, recorded: Recorded, now: Option<&str>) -> (ExitCode, String) {
    match replay(asked, deployment(), KEY, recorded, now) {
        Ok(outcome) => panic!("replayed: {outcome:?}"),
        Err(err) => (code_for(&err), err.to_string()),
    }
}

#[test]
fn the_same_deployment_and_reason_replay_the_earlier_outcome() {
    let outcome = replay(&asked(), deployment(), KEY, recorded(), None).expect("a replay");
    assert!(outcome.replayed && outcome.applied);
    assert_eq!(outcome.path, BreakGlassPath::OperatorFailed);
    assert_eq!(outcome.previous_status, DeploymentStatus::parse("queued"));
    assert_eq!(outcome.new_status, DeploymentStatus::Failed);
    assert!(outcome.stuck);
    assert_eq!(outcome.stuck_for_seconds, Some(2700));
    assert_eq!(outcome.event.sequence, 4);
    assert!(outcome.event.payload.get("log").is_none(), "never shown");
    assert_eq!(outcome.idempotency_key, KEY);
}

#[test]
fn the_key_used_for_another_deployment_or_reason_is_a_conflict() {
    let other = Recorded {
        deployment_id: Some(Uuid::from_u128(0xD2)),
        ..recorded()
    };
    let (code, message) = refused(&asked(), other, None);
    assert_eq!(code, ExitCode::Conflict);
    assert!(
        message.contains(&format!("for deployment {}", Uuid::from_u128(0xD2))),
        "{message}"
    );
    let asked = Asked {
        reason: "INC-2 another reason",
        ..asked()
    };
    let (code, message) = refused(&asked, recorded(), None);
    assert_eq!(code, ExitCode::Conflict);
    assert!(
        message.contains("for this deployment with a different reason"),
        "{message}"
    );
}

#[test]
fn an_unreadable_column_is_refused_naming_it() {
    let unreadable = Recorded {
        kind: None,
        ..recorded()
    };
    let (code, message) = refused(&asked(), unreadable, None);
    assert_eq!(code, ExitCode::Refused);
    assert!(message.contains("deployment_events.kind"), "{message}");
}

#[test]
fn a_replay_is_held_to_the_expected_path() {
    let asked = Asked {
        expect_path: Some(BreakGlassPath::TeardownRequested),
        ..asked()
    };
    let (code, message) = refused(&asked, recorded(), None);
    assert_eq!(code, ExitCode::Refused);
    assert!(
        message.contains("already applied operator_failed"),
        "{message}"
    );
}

#[test]
fn a_replay_is_held_to_the_fingerprint_recorded_or_now() {
    let asked = Asked {
        expect_fingerprint: Some(" aaaaaaaaaaaa "),
        ..asked()
    };
    assert!(replay(&asked, deployment(), KEY, recorded(), Some("bbbbbbbbbbbb")).is_ok());
    let asked = Asked {
        expect_fingerprint: Some("bbbbbbbbbbbb"),
        ..asked
    };
    assert!(replay(&asked, deployment(), KEY, recorded(), Some("bbbbbbbbbbbb")).is_ok());
    let (code, message) = refused(&asked, recorded(), Some("cccccccccccc"));
    assert_eq!(code, ExitCode::Conflict);
    assert!(
        message.contains("fingerprint aaaaaaaaaaaa and the deployment is at cccccccccccc now"),
        "{message}"
    );
}
