//! The runbook's two changes, exactly as the runbook writes them, and the
//! reason stored as given.

use super::*;

#[test]
fn operator_failed_writes_exactly_the_runbook_change() {
    let db = TestDb::scenarios();
    let id = scenario(1);
    let others = untouched_tables(&db);
    let before = events_of(&db, &id);
    let run = db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-4711 stuck queued",
        "--yes",
        "-o",
        "json",
    ]);
    run.assert_code(0);
    let json = run.json();
    assert_eq!(json["path"], "operator_failed");
    assert_eq!(json["applied"], true);
    assert_eq!(json["replayed"], false);
    assert_eq!(json["dry_run"], false);
    assert_eq!(json["previous_status"], "queued");
    assert_eq!(json["new_status"], "failed");

    assert_eq!(status_of(&db, &id), "failed");
    let after = events_of(&db, &id);
    assert_eq!(after.len(), before.len() + 1);
    let (sequence, kind, payload) = after.last().unwrap();
    assert_eq!(
        *sequence,
        before.last().unwrap().0 + 1,
        "sequence = previous max + 1"
    );
    assert_eq!(kind, "operator_failed");
    assert_eq!(payload["reason"], "INC-4711 stuck queued");
    assert!(
        payload.get("operator").is_none(),
        "the runbook's operator_failed payload has no `operator`"
    );
    assert!(
        payload["idempotency_key"]
            .as_str()
            .unwrap()
            .starts_with("pl1-")
    );
    for field in [
        "os_user",
        "session_user",
        "current_user",
        "host",
        "tool",
        "previous_status",
    ] {
        assert!(payload["audit"].get(field).is_some(), "audit.{field}");
    }
    assert_eq!(payload["audit"]["previous_status"], "queued");
    assert_eq!(json["event"]["sequence"], *sequence);
    assert_eq!(json["event"]["payload"], *payload);
    assert_eq!(untouched_tables(&db), others, "nothing else changed");
}

#[test]
fn teardown_requested_on_each_dispatched_scenario() {
    let db = TestDb::scenarios();
    let others = untouched_tables(&db);
    for (n, previous) in [(2, "building"), (3, "deploying"), (8, "deploying")] {
        let id = scenario(n);
        let before = events_of(&db, &id);
        let run = db.run(&[
            "fail-safely",
            &id,
            "--reason",
            "INC-9 dispatched",
            "--yes",
            "-o",
            "json",
        ]);
        run.assert_code(0);
        let json = run.json();
        assert_eq!(json["path"], "teardown_requested", "scenario {n}");
        assert_eq!(json["previous_status"], previous);
        assert_eq!(status_of(&db, &id), "teardown_queued");
        let after = events_of(&db, &id);
        assert_eq!(after.len(), before.len() + 1);
        let (sequence, kind, payload) = after.last().unwrap();
        assert_eq!(*sequence, before.last().unwrap().0 + 1);
        assert_eq!(kind, "teardown_requested");
        assert_eq!(payload["operator"], true);
        assert_eq!(payload["reason"], "INC-9 dispatched");
        // The secrets of the noisy scenario are not echoed back.
        assert!(!run.stdout.contains("FAKE-SECRET"));
    }
    assert_eq!(untouched_tables(&db), others);
}

#[test]
fn the_reason_is_stored_verbatim_as_a_parameter() {
    let db = TestDb::scenarios();
    let nasty = "INC-1 it's \"stuck\"; DROP TABLE jobs; -- $1 \\ ünïcode";
    db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        nasty,
        "--yes",
        "-o",
        "json",
    ])
    .assert_code(0);
    let events = events_of(&db, &scenario(1));
    assert_eq!(events.last().unwrap().2["reason"], nasty);
    let jobs: i64 = db
        .client()
        .query_one("SELECT count(*) FROM jobs", &[])
        .unwrap()
        .get(0);
    assert!(jobs > 0);
}
