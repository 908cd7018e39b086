//! Cases 5, 9, 10 and 11 of the guard's suite: runs racing on one key, replays,
//! deployments that are not stuck, and reasons that are not reasons.

use std::sync::{Arc, Barrier};

use super::{assert_refused, full_dump, run_with};
use crate::support::{TestDb, scenario};

/// Case 5: 16 runs across two deployments sharing one idempotency key:
/// exactly one deployment changes; the other runs replay it (same
/// deployment) or are a conflict (the other one).
#[test]
fn case_5_one_key_two_deployments_sixteen_runs_one_change() {
    let db = Arc::new(TestDb::scenarios());
    let events_before: i64 = db
        .client()
        .query_one("SELECT count(*) FROM deployment_events", &[])
        .unwrap()
        .get(0);
    let barrier = Arc::new(Barrier::new(16));
    let handles: Vec<_> = (0..16)
        .map(|i| {
            let db = Arc::clone(&db);
            let barrier = Arc::clone(&barrier);
            // Both stuck and queued: both would be operator_failed.
            let deployment = if i % 2 == 0 { "d0000001" } else { "d0000004" };
            std::thread::spawn(move || {
                barrier.wait();
                let run = db.run(&[
                    "fail-safely",
                    deployment,
                    "--reason",
                    "INC-5 shared key",
                    "--idempotency-key",
                    "INC-5-shared",
                    "--yes",
                    "-o",
                    "json",
                ]);
                (deployment, run)
            })
        })
        .collect();
    let mut applied = Vec::new();
    let mut conflicts = 0;
    for handle in handles {
        let (deployment, run) = handle.join().unwrap();
        match run.code {
            0 if run.json()["replayed"] == true => {}
            0 => applied.push(deployment),
            5 => {
                assert!(
                    run.stderr
                        .contains("idempotency key INC-5-shared was already used"),
                    "{}",
                    run.stderr
                );
                conflicts += 1;
            }
            other => panic!("exit {other}: {}", run.stderr),
        }
    }
    assert_eq!(applied.len(), 1, "exactly one run applies: {applied:?}");
    assert_eq!(
        conflicts, 8,
        "every run for the other deployment is a conflict"
    );
    let changed: Vec<String> = db
        .client()
        .query(
            "SELECT id::text FROM deployments WHERE status = 'failed'
             AND id IN ('d0000001-0000-4000-8000-000000000001', 'd0000004-0000-4000-8000-000000000004')",
            &[],
        )
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(
        changed.len(),
        1,
        "exactly one deployment changed: {changed:?}"
    );
    let events_after: i64 = db
        .client()
        .query_one("SELECT count(*) FROM deployment_events", &[])
        .unwrap()
        .get(0);
    assert_eq!(events_after, events_before + 1, "exactly one event");
}

/// Case 9: a replay honours --expect-path and --expect-fingerprint (against
/// what the first run acted on) and never prints a `log` key.
#[test]
fn case_9_a_replay_is_held_to_the_expectations_and_hides_log() {
    let db = TestDb::scenarios();
    let diagnosis = db.run(&["diagnose", "d0000002", "-o", "json"]).json();
    let fingerprint = diagnosis["fingerprint"].as_str().unwrap().to_string();
    let args = |path: &'static str, fingerprint: String| {
        vec![
            "fail-safely".to_string(),
            "d0000002".into(),
            "--reason".into(),
            "INC-9 orphaned lease".into(),
            "--yes".into(),
            "--expect-path".into(),
            path.into(),
            "--expect-fingerprint".into(),
            fingerprint,
            "-o".into(),
            "json".into(),
        ]
    };
    let run_args = |a: Vec<String>| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        db.run(&a)
    };
    let first = run_args(args("teardown_requested", fingerprint.clone()));
    first.assert_code(0);
    let first = first.json();
    assert_eq!(
        first["event"]["payload"]["audit"]["fingerprint"],
        fingerprint.as_str()
    );
    // Someone with the owner's rights slips a log key into the stored event.
    db.client()
        .batch_execute(&format!(
            "ALTER TABLE deployment_events DISABLE TRIGGER deployment_events_refuse_update;
             UPDATE deployment_events
             SET payload = jsonb_set(payload || '{{\"log\": \"FAKE-SECRET-REPLAYED\"}}',
                                     '{{audit,log}}', '\"FAKE-SECRET-NESTED\"')
             WHERE id = '{}';
             ALTER TABLE deployment_events ENABLE TRIGGER deployment_events_refuse_update;",
            first["event"]["id"].as_str().unwrap()
        ))
        .unwrap();
    let before = full_dump(&db, None);

    // The same command again: a replay, without the log.
    let again = run_args(args("teardown_requested", fingerprint.clone()));
    again.assert_code(0);
    assert!(!again.stdout.contains("FAKE-SECRET"), "{}", again.stdout);
    let json = again.json();
    assert_eq!(json["replayed"], true);
    assert_eq!(json["event"]["id"], first["event"]["id"]);
    assert_eq!(
        json["event"]["payload"]["audit"]["fingerprint"],
        fingerprint.as_str()
    );
    let table = db.run(&[
        "fail-safely",
        "d0000002",
        "--reason",
        "INC-9 orphaned lease",
        "--yes",
        "-o",
        "table",
    ]);
    table.assert_code(0);
    assert!(!table.stdout.contains("FAKE-SECRET"), "{}", table.stdout);

    // The expectations still hold a replay to them.
    let run = run_args(args("operator_failed", fingerprint.clone()));
    assert_refused(
        &db,
        &run,
        4,
        &["already applied teardown_requested, not the expected operator_failed"],
        &before,
    );
    let run = run_args(args("teardown_requested", "0123456789abcdef".into()));
    assert_refused(
        &db,
        &run,
        5,
        &[
            "acted on the state with fingerprint",
            "not 0123456789abcdef",
        ],
        &before,
    );
}

/// Case 10: a running, healthy deployment is not stuck: a bare --yes (the
/// README's scripted pattern with a mistyped id) refuses; with
/// --even-if-not-stuck the teardown is applied and the audit says so.
#[test]
fn case_10_a_healthy_deployment_is_not_torn_down_by_a_bare_yes() {
    let db = TestDb::scenarios();
    let id = scenario(5);
    let before = full_dump(&db, None);
    let diagnosis = db.run(&["diagnose", "d0000005", "-o", "json"]).json();
    assert_eq!(diagnosis["verdict"]["stuck"], false);
    let fingerprint = diagnosis["fingerprint"].as_str().unwrap();
    for extra in [
        &["--yes"][..],
        &["--dry-run"][..],
        &[
            "--yes",
            "--expect-path",
            "teardown_requested",
            "--expect-fingerprint",
            fingerprint,
        ][..],
    ] {
        let mut args = vec!["fail-safely", "d0000005", "--reason", "INC-10 mistyped id"];
        args.extend_from_slice(extra);
        let run = db.run(&args);
        assert_refused(
            &db,
            &run,
            4,
            &[
                "is not stuck: it is running, not in flight",
                "tear it down",
                "--even-if-not-stuck",
                "Nothing was written",
            ],
            &before,
        );
    }
    // In flight with recent progress is not stuck either.
    db.client()
        .batch_execute(
            "INSERT INTO deployment_events (sequence, id, org_id, deployment_id, kind)
             SELECT 4, gen_random_uuid(), org_id, id, 'progress' FROM deployments
             WHERE id = 'd0000001-0000-4000-8000-000000000001'",
        )
        .unwrap();
    let fresh = full_dump(&db, None);
    let run = db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-10 fresh",
        "--yes",
    ]);
    assert_refused(
        &db,
        &run,
        4,
        &["is not stuck", "deployment_stuck fires after 30m"],
        &fresh,
    );

    // The plan says so, and with the flag the teardown is applied.
    let plan = db.run(&[
        "fail-safely",
        "d0000005",
        "--reason",
        "INC-10 retire",
        "--dry-run",
        "--even-if-not-stuck",
        "-o",
        "json",
    ]);
    plan.assert_code(0);
    assert_eq!(plan.json()["stuck"], false);
    let plan = db.run(&[
        "fail-safely",
        "d0000005",
        "--reason",
        "INC-10 retire",
        "--dry-run",
        "--even-if-not-stuck",
        "-o",
        "table",
    ]);
    plan.assert_code(0);
    assert!(
        plan.stdout.contains("stuck: NO, not stuck"),
        "{}",
        plan.stdout
    );
    let run = db.run(&[
        "fail-safely",
        "d0000005",
        "--reason",
        "INC-10 retire",
        "--yes",
        "--even-if-not-stuck",
        "-o",
        "json",
    ]);
    run.assert_code(0);
    let json = run.json();
    assert_eq!(json["path"], "teardown_requested");
    assert_eq!(json["stuck"], false);
    assert_eq!(json["new_status"], "teardown_queued");
    let audit = &json["event"]["payload"]["audit"];
    assert_eq!(audit["even_if_not_stuck"], true);
    assert_eq!(audit["stuck"], false);
    let stored: serde_json::Value = db
        .client()
        .query_one(
            "SELECT payload FROM deployment_events WHERE id = $1::text::uuid",
            &[&json["event"]["id"].as_str().unwrap()],
        )
        .unwrap()
        .get(0);
    assert_eq!(stored["audit"]["even_if_not_stuck"], true);
    let _ = id;
    // A stuck one records that the flag was not needed.
    let run = db.run(&[
        "fail-safely",
        "d0000002",
        "--reason",
        "INC-10 stuck",
        "--yes",
        "-o",
        "json",
    ]);
    run.assert_code(0);
    let json = run.json();
    assert_eq!(json["stuck"], true);
    assert!(json["stuck_for_seconds"].as_i64().unwrap() > 30 * 60);
    assert_eq!(
        json["event"]["payload"]["audit"]["even_if_not_stuck"],
        false
    );
}

/// Case 11: the reason is what the audit keeps. Exit 2, naming the rule.
#[test]
fn case_11_reasons_that_are_not_reasons() {
    let db = TestDb::scenarios();
    let before = full_dump(&db, None);
    for (reason, says) in [
        ("x", "is 1 character long; give at least 4"),
        ("<ticket and reason>", "is a placeholder"),
        ("  <INC-123: why>  ", "is a placeholder"),
        ("$TICKET: $WHY", "is a placeholder"),
        (
            "INC-11 \u{1b}[2J\u{1b}[Hall clear",
            "control character U+001B",
        ),
        ("INC-11 ding\u{7}", "control character U+0007"),
        ("INC-11 over\rwritten", "control character U+000D"),
        ("INC-11 \u{202E}desrever", "U+202E"),
        ("INC-11 \u{2066}isolated\u{2069}", "U+2066"),
    ] {
        let run = db.run(&["fail-safely", "d0000001", "--reason", reason, "--yes"]);
        assert_refused(&db, &run, 2, &[says], &before);
        assert!(
            !run.stderr.contains('\u{1b}') && !run.stderr.contains('\u{202E}'),
            "echoed raw: {:?}",
            run.stderr
        );
    }
    // A team's shape for reasons.
    let env = [("PUSHLEFT_REASON_PATTERN", "^[A-Z]+-[0-9]+ ")];
    let run = run_with(
        &db,
        &env,
        &[
            "fail-safely",
            "d0000001",
            "--reason",
            "stuck since 2am",
            "--yes",
        ],
    );
    assert_refused(
        &db,
        &run,
        2,
        &["PUSHLEFT_REASON_PATTERN", "^[A-Z]+-[0-9]+ "],
        &before,
    );
    let run = run_with(
        &db,
        &[("PUSHLEFT_REASON_PATTERN", "(")],
        &[
            "fail-safely",
            "d0000001",
            "--reason",
            "INC-11 fine",
            "--yes",
        ],
    );
    assert_refused(&db, &run, 2, &["not a valid regular expression"], &before);
    run_with(
        &db,
        &env,
        &[
            "fail-safely",
            "d0000001",
            "--reason",
            "INC-11 stuck since 2am\nsee ticket",
            "--yes",
        ],
    )
    .assert_code(0);
}
