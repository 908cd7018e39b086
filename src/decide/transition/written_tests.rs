//! Steps 10 and 12 on hand-made returns and read-backs: what the database
//! holds against what was written.

use super::*;
use crate::exit::{ExitCode, code_for};

fn deployment() -> Uuid {
    Uuid::from_u128(0xD1)
}

fn payload() -> Value {
    serde_json::json!({"reason": "INC-1 stuck queued", "audit": {"stuck": true}})
}

fn event() -> EventOut {
    EventOut {
        id: Uuid::from_u128(0xE4),
        sequence: 4,
        kind: "operator_failed".into(),
        payload: payload(),
        occurred_at: DateTime::from_timestamp(1_790_000_000, 0).expect("a time"),
    }
}

/// What the UPDATE and the INSERT return when nothing acted behind them.
fn returned() -> Returned {
    Returned {
        updated: 1,
        id: Some(deployment()),
        status: Some("failed".into()),
        event: Some(Stored {
            deployment_id: deployment(),
            event: event(),
        }),
    }
}

fn refusal(result: Result<impl std::fmt::Debug>) -> String {
    let err = result.expect_err("refused");
    assert_eq!(code_for(&err), ExitCode::Refused, "{err}");
    err.to_string()
}

#[test]
fn the_runbooks_write_as_returned_is_what_was_written() {
    let written = check_returned(deployment(), Change::MarkFailed, payload(), returned())
        .expect("as written");
    assert_eq!(written.status, DeploymentStatus::Failed);
    assert_eq!(written.event.id, event().id);
    assert_eq!(written.event.payload, payload());
}

#[test]
fn an_update_of_other_than_one_row_is_refused() {
    let none = Returned {
        updated: 0,
        id: None,
        status: None,
        event: None,
    };
    let message = refusal(check_returned(
        deployment(),
        Change::MarkFailed,
        payload(),
        none,
    ));
    assert!(message.contains("matched 0 rows instead of 1"), "{message}");
}

#[test]
fn a_row_or_an_event_changed_behind_the_write_is_refused() {
    let id = deployment();
    let other_status = Returned {
        status: Some("running".into()),
        ..returned()
    };
    let message = refusal(check_returned(
        id,
        Change::MarkFailed,
        payload(),
        other_status,
    ));
    assert!(message.contains("the row holds `running`"), "{message}");
    let message = refusal(check_returned(
        id,
        Change::RequestTeardown,
        payload(),
        returned(),
    ));
    assert!(message.contains("set status teardown_queued"), "{message}");
    let no_event = Returned {
        event: None,
        ..returned()
    };
    let message = refusal(check_returned(id, Change::MarkFailed, payload(), no_event));
    assert!(message.contains("the event was not appended"), "{message}");
    let other_payload = serde_json::json!({"reason": "changed by a trigger"});
    let message = refusal(check_returned(
        id,
        Change::MarkFailed,
        other_payload,
        returned(),
    ));
    assert!(message.contains("payload the database holds"), "{message}");
}

fn written() -> Written {
    Written {
        status: DeploymentStatus::Failed,
        event: event(),
    }
}

/// What the read-back finds when nothing changed since the write.
fn reread() -> Reread {
    Reread {
        written: Some(format!("{} {}", deployment(), event().id)),
        status: "failed".into(),
        event: Some(RereadEvent {
            deployment_id: deployment(),
            sequence: 4,
            kind: "operator_failed".into(),
            payload: payload(),
            occurred_at: event().occurred_at,
        }),
    }
}

#[test]
fn the_read_back_holds_what_was_written() {
    let stored = check_reread(deployment(), Some(reread()), &written()).expect("held");
    assert_eq!(stored.id, event().id);
    assert_eq!(stored.sequence, 4);
}

#[test]
fn a_read_back_that_differs_is_refused() {
    let id = deployment();
    let message = refusal(check_reread(id, None, &written()));
    assert!(message.contains("the deployment row is gone"), "{message}");
    let elsewhere = Reread {
        written: Some(format!("{id} {}", Uuid::from_u128(0xE5))),
        ..reread()
    };
    let message = refusal(check_reread(id, Some(elsewhere), &written()));
    assert!(message.contains("pointed at other rows"), "{message}");
    let status = Reread {
        status: "queued".into(),
        ..reread()
    };
    let message = refusal(check_reread(id, Some(status), &written()));
    assert!(
        message.contains("holds status `queued` before COMMIT"),
        "{message}"
    );
    let gone = Reread {
        event: None,
        ..reread()
    };
    let message = refusal(check_reread(id, Some(gone), &written()));
    assert!(message.contains("the event written is gone"), "{message}");
    let mut renumbered = reread();
    if let Some(event) = renumbered.event.as_mut() {
        event.sequence = 5;
    }
    let message = refusal(check_reread(id, Some(renumbered), &written()));
    assert!(message.contains("sequence changed"), "{message}");
}
