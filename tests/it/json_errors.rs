//! The JSON error document, per command: with `-o json` a failure is
//! `{"schema_version": 1, "error": {"exit_code", "kind", "message",
//! "next"}}` on stdout, `exit_code` equal to the process's exit status, so
//! a script tells a missing deployment from a refusal, a conflict or a
//! lost connection without reading English. (The connection lost in the
//! middle of a command is checked for diagnose, fail-safely and wait in
//! `faults::connection_loss`; here, a server nobody listens on.)

use std::process::Command;

use serde_json::Value;

use crate::support::{Run, TestDb};

/// Nothing listens there: the connection cannot be opened.
const NOWHERE: &str = "postgresql://ops@127.0.0.1:1/control?connect_timeout=2&sslmode=disable";

#[track_caller]
fn assert_error_document(label: &str, run: &Run, code: i32, kind: &str) {
    assert_eq!(
        run.code, code,
        "{label}: exit status\n{}\n{}",
        run.stdout, run.stderr
    );
    let doc: Value = serde_json::from_str(&run.stdout).unwrap_or_else(|e| {
        panic!(
            "{label}: stdout is not one JSON document ({e}):\n{}",
            run.stdout
        )
    });
    assert_eq!(doc["schema_version"], 1, "{label}: {doc:#}");
    let error = &doc["error"];
    assert_eq!(
        error["exit_code"], run.code,
        "{label}: exit_code is the status: {doc:#}"
    );
    assert_eq!(error["kind"], kind, "{label}: {doc:#}");
    assert!(
        error["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{label}: {doc:#}"
    );
    assert!(
        error.get("next").is_some(),
        "{label}: next is always there (maybe null)"
    );
    // The words are on stderr too, for the human.
    assert!(run.stderr.contains("error: "), "{label}: {}", run.stderr);
}

fn run(db: &TestDb, args: &[&str]) -> Run {
    let mut args = args.to_vec();
    args.extend(["-o", "json"]);
    db.run(&args)
}

fn run_nowhere(db: &TestDb, args: &[&str]) -> Run {
    let mut cmd: Command = db.cmd();
    cmd.env("DATABASE_URL", NOWHERE)
        .args(args)
        .args(["-o", "json"]);
    Run::from(cmd.output().expect("running pushleft-controller"))
}

/// (command line, exit status, kind) for every command and every class of
/// failure it can have.
const CASES: &[(&[&str], i32, &str)] = &[
    // diagnose
    (&["diagnose", "beefbeef"], 3, "not_found"),
    (&["diagnose", "xyz!"], 2, "bad_input"),
    (&["diagnose", "d000"], 2, "bad_input"),
    (
        &["diagnose", "d0000001", "--events", "many"],
        2,
        "bad_input",
    ),
    // fail-safely
    (
        &["fail-safely", "beefbeef", "--reason", "INC-1", "--yes"],
        3,
        "not_found",
    ),
    (
        &["fail-safely", "d0000001", "--reason", " ", "--yes"],
        2,
        "bad_input",
    ),
    (
        &[
            "fail-safely",
            "d0000001",
            "--reason",
            "INC-1",
            "--yes",
            "--expect-fingerprint",
            "nothex",
        ],
        2,
        "bad_input",
    ),
    (
        &["fail-safely", "d0000006", "--reason", "INC-1", "--yes"],
        4,
        "refused",
    ),
    (
        &["fail-safely", "d0000001", "--reason", "INC-1"],
        4,
        "refused",
    ),
    (
        &[
            "fail-safely",
            "d0000001",
            "--reason",
            "INC-1",
            "--yes",
            "--expect-fingerprint",
            "0000000000000000",
        ],
        5,
        "conflict",
    ),
    (
        &[
            "fail-safely",
            "d0000001",
            "--reason",
            "INC-1",
            "--yes",
            "--expect-path",
            "teardown_requested",
        ],
        5,
        "conflict",
    ),
    // wait
    (&["wait", "beefbeef"], 3, "not_found"),
    (&["wait", "d0000001", "--timeout", "0s"], 2, "bad_input"),
    (&["wait", "d0000005"], 4, "refused"),
    // stuck
    (&["stuck", "--for", "-5m"], 2, "bad_input"),
    (&["stuck", "--grace", "5parsecs"], 2, "bad_input"),
    // fleet list
    (&["fleet", "list", "--status", "gone"], 2, "bad_input"),
    (&["fleet", "list", "--stale-after", "1.5h"], 2, "bad_input"),
    // doctor, and no command at all
    (&["doctor", "--bogus"], 2, "bad_input"),
    (&["bogus"], 2, "bad_input"),
];

#[test]
fn every_failure_is_one_json_document_with_its_exit_code() {
    let db = TestDb::scenarios();
    let before = db.dump();
    for (args, code, kind) in CASES {
        let label = args.join(" ");
        assert_error_document(&label, &run(&db, args), *code, kind);
    }
    assert_eq!(db.dump(), before, "a failure wrote something");
}

#[test]
fn a_lock_timeout_is_a_conflict_document() {
    let db = TestDb::scenarios();
    let lock = db.lock_deployment(&crate::support::scenario(1));
    let args = [
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-2 lock",
        "--yes",
        "--lock-timeout",
        "500ms",
    ];
    let run = run(&db, &args);
    assert_error_document("lock timeout", &run, 5, "conflict");
    // It names the session that holds the lock.
    let message = run.json()["error"]["message"].as_str().unwrap().to_string();
    assert!(message.contains("Held by session "), "{message}");
    assert!(message.contains("idle in transaction"), "{message}");
    lock.release();
}

#[test]
fn no_connection_is_a_connection_failed_document() {
    let db = TestDb::scenarios();
    for args in [
        &["diagnose", "d0000001"][..],
        &["fail-safely", "d0000001", "--reason", "INC-3", "--yes"],
        &["wait", "d0000001"],
        &["stuck"],
        &["fleet", "list"],
    ] {
        let label = format!("{} (nothing listens)", args.join(" "));
        assert_error_document(&label, &run_nowhere(&db, args), 1, "connection_failed");
    }
}

#[test]
fn a_success_is_never_an_error_document_and_has_a_schema_version() {
    let db = TestDb::scenarios();
    for args in [
        &["diagnose", "d0000001"][..],
        &["stuck"],
        &["fleet", "list"],
        &["wait", "d0000006", "--timeout", "5s"],
        &["fail-safely", "d0000001", "--reason", "INC-4", "--dry-run"],
        &["doctor"],
    ] {
        let doc = run(&db, args).assert_code(0).json();
        assert_eq!(doc["schema_version"], 1, "{args:?}");
        assert!(doc.get("error").is_none(), "{args:?}: {doc:#}");
    }
}

#[test]
fn an_id_is_echoed_as_typed() {
    let db = TestDb::scenarios();
    let typed = "d00'0";
    let run = run(&db, &["diagnose", typed]);
    assert_error_document("quoted id", &run, 2, "bad_input");
    assert!(
        run.stderr.contains("`d00'0` is not a deployment id"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("\\'"), "{}", run.stderr);
}
