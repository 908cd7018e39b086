//! What fail-safely refuses, writing nothing: the states it has nothing to
//! do for, a database without its protecting triggers, a changed
//! fingerprint, a role without the privileges.

use super::*;

#[test]
fn refusals_write_nothing() {
    let db = TestDb::scenarios();
    // A running deployment with nothing dispatched: the runbook's SQL would
    // append an operator_failed event although its UPDATE matches no row.
    db.client()
        .batch_execute(
            "INSERT INTO deployments VALUES ('e0000000-0000-4000-8000-00000000000e',
               'c0000001-0000-4000-8000-000000000001', 'running', now(), now())",
        )
        .unwrap();
    let before = db.dump();
    let cases: Vec<(Vec<&str>, i32, &str)> = vec![
        (vec!["e0000000"], 4, "nothing to do"),
        (vec!["d0000007"], 4, "teardown is already queued"),
        (vec!["d0000009"], 4, "already destroyed"),
        (vec!["d0000006"], 4, "already failed"),
        (vec!["beefbeef"], 3, "no deployment id starts with"),
        (
            // README, "Output and exit codes": an --expect-path that no
            // longer holds is a conflict (5).
            vec!["d0000001", "--expect-path", "teardown_requested"],
            5,
            "not the expected teardown_requested",
        ),
        (
            vec!["d0000001", "--expect-fingerprint", "0000000000000000"],
            5,
            "changed since it was diagnosed",
        ),
        // A malformed fingerprint is bad input (2), not a changed state.
        (
            vec!["d0000001", "--expect-fingerprint", "nothex"],
            2,
            "is not a fingerprint",
        ),
    ];
    for (args, code, message) in cases {
        let mut argv = vec!["fail-safely"];
        argv.extend(&args);
        argv.extend(["--reason", "INC-5 refusal", "--yes"]);
        let run = db.run(&argv);
        run.assert_code(code);
        assert!(run.stderr.contains(message), "{args:?}: {}", run.stderr);
        assert!(
            run.stderr.contains("nothing was written") || code == 3 || code == 2,
            "{args:?}: {}",
            run.stderr
        );
        assert_eq!(db.dump(), before, "{args:?} wrote something");
    }
    // No terminal and no --yes: refused before connecting.
    let run = db.run(&["fail-safely", "d0000001", "--reason", "INC-5"]);
    run.assert_code(4);
    assert!(run.stderr.contains("no terminal"), "{}", run.stderr);
    assert_eq!(db.dump(), before);
    // A dry run checks everything and writes nothing.
    let run = db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-5",
        "--dry-run",
        "-o",
        "json",
    ]);
    run.assert_code(0);
    let json = run.json();
    assert_eq!(json["dry_run"], true);
    assert_eq!(json["applied"], false);
    assert_eq!(json["path"], "operator_failed");
    assert_eq!(db.dump(), before);
}

#[test]
fn missing_protecting_triggers_refuse_before_writing() {
    let db = TestDb::scenarios();
    db.client()
        .batch_execute("DROP TRIGGER deployment_events_refuse_delete ON deployment_events")
        .unwrap();
    let before = db.dump();
    let run = db.run(&["fail-safely", "d0000001", "--reason", "INC-14", "--yes"]);
    run.assert_code(4);
    assert!(run.stderr.contains("deployment_events"), "{}", run.stderr);
    assert!(run.stderr.contains("doctor"), "{}", run.stderr);
    assert_eq!(db.dump(), before);
    // A disabled trigger protects nothing either.
    let db = TestDb::scenarios();
    db.client()
        .batch_execute("ALTER TABLE jobs DISABLE TRIGGER jobs_refuse_delete")
        .unwrap();
    db.run(&["fail-safely", "d0000001", "--reason", "INC-14", "--yes"])
        .assert_code(4);
    assert_eq!(status_of(&db, &scenario(1)), "queued");
}

#[test]
fn the_fingerprint_from_diagnose_is_honoured() {
    let db = TestDb::scenarios();
    let diagnosis = db.run(&["diagnose", "d0000001", "-o", "json"]).json();
    let fingerprint = diagnosis["fingerprint"].as_str().unwrap().to_string();
    // The state changes after the diagnosis: a dispatch.
    db.client()
        .batch_execute(
            "UPDATE jobs SET target_node_id = 'a0000001-0000-4000-8000-000000000001'
             WHERE deployment_id = 'd0000001-0000-4000-8000-000000000001'",
        )
        .unwrap();
    let before = db.dump();
    let run = db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-6",
        "--yes",
        "--expect-path",
        "operator_failed",
        "--expect-fingerprint",
        &fingerprint,
    ]);
    // The path decided under the locks changed first: teardown, not failed.
    run.assert_code(5);
    assert!(run.stderr.contains("teardown_requested"), "{}", run.stderr);
    let run = db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-6",
        "--yes",
        "--expect-fingerprint",
        &fingerprint,
    ]);
    run.assert_code(5);
    assert_eq!(db.dump(), before);
    // With the current fingerprint it goes through.
    let fresh = db.run(&["diagnose", "d0000001", "-o", "json"]).json();
    db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-6",
        "--yes",
        "--expect-path",
        "teardown_requested",
        "--expect-fingerprint",
        fresh["fingerprint"].as_str().unwrap(),
    ])
    .assert_code(0);
    assert_eq!(status_of(&db, &scenario(1)), "teardown_queued");
}

#[test]
fn role_with_privileges_works_and_without_fails_clearly() {
    let db = TestDb::scenarios();
    let suffix = &db.name;
    let owner = format!("owner_{suffix}");
    let reader = format!("reader_{suffix}");
    db.client()
        .batch_execute(&format!(
            "CREATE ROLE {owner} NOLOGIN;
             GRANT SELECT, UPDATE ON ALL TABLES IN SCHEMA public TO {owner};
             GRANT INSERT ON deployment_events TO {owner};
             CREATE ROLE {reader} NOLOGIN;
             GRANT SELECT ON ALL TABLES IN SCHEMA public TO {reader};"
        ))
        .unwrap();
    let before = db.dump();
    let run = db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-12",
        "--yes",
        "--role",
        &reader,
    ]);
    // A permission the role lacks is a refusal (4), never "unexpected".
    run.assert_code(4);
    assert!(run.stderr.contains("permission denied"), "{}", run.stderr);
    assert!(run.stderr.contains(&reader), "{}", run.stderr);
    assert_eq!(db.dump(), before);
    let run = db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-12",
        "--yes",
        "--role",
        "no_such_role_x",
    ]);
    run.assert_code(4);
    assert!(run.stderr.contains("no_such_role_x"), "{}", run.stderr);
    let run = db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-12",
        "--yes",
        "--role",
        &owner,
        "-o",
        "json",
    ]);
    run.assert_code(0);
    let json = run.json();
    assert_eq!(
        json["event"]["payload"]["audit"]["current_user"],
        owner.as_str()
    );
    assert_eq!(
        json["event"]["payload"]["audit"]["session_user"],
        "postgres"
    );
    let mut client = db.client();
    client
        .batch_execute(&format!(
            "DROP OWNED BY {owner}, {reader}; DROP ROLE {owner}; DROP ROLE {reader};"
        ))
        .unwrap();
}
