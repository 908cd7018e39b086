//! `diagnose`: the whole runbook in one read-only snapshot, with a verdict.

use postgres::error::SqlState;
use pushleft_controller::db::session::{self, Session};
use pushleft_controller::db::sql::Conn;
use pushleft_controller::db::sql::Schema;
use pushleft_controller::decide::Policy;
use pushleft_controller::ops::assess;
use uuid::Uuid;

use crate::support::{TestDb, scenario};

/// Strings that only occur inside `log` keys of the noisy scenario.
const SECRETS: &[&str] = &[
    "FAKE-SECRET",
    "not-a-real",
    "AWS_SECRET_ACCESS_KEY",
    "GITHUB_TOKEN",
];

fn assert_no_secrets(text: &str) {
    for secret in SECRETS {
        assert!(!text.contains(secret), "`{secret}` leaked:\n{text}");
    }
}

fn codes(json: &serde_json::Value) -> Vec<String> {
    json["verdict"]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap().to_string())
        .collect()
}

/// (scenario, path, findings that must be there)
const EXPECTED: &[(u8, &str, &[&str])] = &[
    (1, "operator_failed", &["stuck", "last_event"]),
    (
        2,
        "teardown_requested",
        &["stuck", "lease_orphaned", "node_stale"],
    ),
    (
        3,
        "teardown_requested",
        &[
            "stuck",
            "out_of_attempts",
            "node_offline",
            "teardown_waits_for_node",
        ],
    ),
    (
        4,
        "operator_failed",
        &["stuck", "reservations_blocked", "waiting_available_at"],
    ),
    // Healthy, but dispatched: if it had to go, it would be a teardown.
    (5, "teardown_requested", &["last_event", "allocations_held"]),
    (6, "none", &["last_event"]),
    (7, "none", &["allocations_held"]),
    (
        8,
        "teardown_requested",
        &["stuck", "source_unverified", "node_stale"],
    ),
    (9, "none", &["last_event"]),
];

#[test]
fn every_scenario_in_json() {
    let db = TestDb::scenarios();
    for (n, path, findings) in EXPECTED {
        let run = db.run(&["diagnose", &scenario(*n), "--output", "json"]);
        run.assert_code(0);
        assert_no_secrets(&run.stdout);
        assert_no_secrets(&run.stderr);
        let json = run.json();
        assert_eq!(json["verdict"]["path"], *path, "scenario {n}");
        let codes = codes(&json);
        for code in *findings {
            assert!(
                codes.iter().any(|c| c == code),
                "scenario {n}: no {code} in {codes:?}"
            );
        }
        // The fields the man page documents (JSON OUTPUT of
        // pushleft-controller-diagnose(1), man/src/json/diagnose.roff).
        for field in [
            "deployment",
            "events",
            "jobs",
            "results",
            "source_snapshots",
            "release_artifacts",
            "instances",
            "allocations",
            "routes",
            "nodes",
            "verdict",
            "fingerprint",
            "snapshot",
            "events_total",
        ] {
            assert!(json.get(field).is_some(), "scenario {n}: no `{field}`");
        }
        for field in ["id", "org_id", "status", "created_at", "updated_at"] {
            assert!(
                json["deployment"].get(field).is_some(),
                "deployment.{field}"
            );
        }
        for field in ["path", "dispatched", "evidence", "findings"] {
            assert!(json["verdict"].get(field).is_some(), "verdict.{field}");
        }
        assert!(
            json["snapshot"]["at"].as_str().unwrap().contains('T'),
            "RFC 3339"
        );
        assert_eq!(json["deployment"]["id"], scenario(*n));
    }
}

#[test]
fn evidence_names_what_was_dispatched() {
    let db = TestDb::scenarios();
    let json = db.run(&["diagnose", "d0000002", "-o", "json"]).json();
    let evidence = json["verdict"]["evidence"].as_array().unwrap();
    assert_eq!(evidence.len(), 1);
    assert_eq!(evidence[0]["kind"], "job");
    assert_eq!(evidence[0]["id"], "b0000002-0000-4000-8000-000000000002");
    assert!(evidence[0]["detail"].as_str().unwrap().contains("build-03"));
    let json = db.run(&["diagnose", "d0000001", "-o", "json"]).json();
    assert_eq!(json["verdict"]["dispatched"], false);
    assert!(json["verdict"]["evidence"].as_array().unwrap().is_empty());
}

#[test]
fn jobs_and_nodes_keep_the_runbook_columns() {
    let db = TestDb::scenarios();
    let json = db.run(&["diagnose", "d0000003", "-o", "json"]).json();
    let job = &json["jobs"][1];
    for field in [
        "id",
        "kind",
        "status",
        "target_node_id",
        "attempt",
        "max_attempts",
        "available_at",
        "lease_expires_at",
        "last_error",
    ] {
        assert!(job.get(field).is_some(), "jobs[].{field}");
    }
    assert_eq!(job["last_error"], "agent on edge-07 stopped answering");
    let edge07 = json["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["name"] == "edge-07")
        .expect("edge-07 is involved");
    for field in [
        "id",
        "name",
        "pool",
        "status",
        "schedulable",
        "last_seen_at",
        "heartbeat_age_seconds",
    ] {
        assert!(edge07.get(field).is_some(), "nodes[].{field}");
    }
    assert_eq!(edge07["stale"], true);
    assert!(edge07["heartbeat_age_seconds"].as_f64().unwrap() > 3.0 * 3600.0);
}

#[test]
fn the_table_says_what_is_wrong_and_what_to_do_first() {
    let db = TestDb::scenarios();
    for (n, path, _) in EXPECTED {
        let run = db.run(&["diagnose", &scenario(*n), "--output", "table"]);
        run.assert_code(0);
        assert_no_secrets(&run.stdout);
        assert_no_secrets(&run.stderr);
        let head: Vec<&str> = run.stdout.lines().take(8).collect();
        let head = head.join("\n");
        let expected_headline = match (n, *path) {
            (5, _) => "not stuck: running",
            (_, "none") => "nothing to do",
            (_, path) => path,
        };
        assert!(head.contains(expected_headline), "scenario {n}:\n{head}");
        if *path != "none" && *n != 5 {
            // The command to copy stands alone on its line.
            assert!(
                head.contains("  next:\n    pushleft-controller fail-safely"),
                "scenario {n}:\n{head}"
            );
        }
        // No colour codes when stdout is not a terminal.
        assert!(
            !run.stdout.contains('\x1b'),
            "scenario {n} has escape codes"
        );
    }
}

#[test]
fn long_trails_show_the_last_events_in_the_table_and_all_in_json() {
    let db = TestDb::scenarios();
    let run = db.run(&["diagnose", "d0000008", "-o", "table"]);
    assert!(
        run.stdout.contains("40 earlier events hidden"),
        "{}",
        run.stdout
    );
    // Plain aligned rows (no markdown): the last event is shown, the
    // earlier ones are not.
    assert!(
        run.stdout.lines().any(|l| l.starts_with("60 ")),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.lines().any(|l| l.starts_with("40 ")));
    let run = db.run(&["diagnose", "d0000008", "-o", "table", "--events", "5"]);
    assert!(run.stdout.contains("55 earlier events hidden"));
    let json = db.run(&["diagnose", "d0000008", "-o", "json"]).json();
    assert_eq!(json["events"].as_array().unwrap().len(), 60);
    assert_eq!(json["events_total"], 60);
    assert_eq!(json["events"][0]["sequence"], 1);
    assert!(json["events"][0]["payload"].get("log").is_none());
    assert!(
        json["jobs"][1]["last_error"]
            .as_str()
            .unwrap()
            .contains("health check")
    );
    assert!(json["results"][0]["output"].get("log").is_none());
}

#[test]
fn exit_codes_for_ids() {
    let db = TestDb::scenarios();
    db.run(&["diagnose", "d0000001"]).assert_code(0);
    db.run(&["diagnose", "D0000001-0000-4000-8000-000000000001"])
        .assert_code(0);
    let run = db.run(&["diagnose", "not-an-id"]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("is not a deployment id"),
        "{}",
        run.stderr
    );
    let run = db.run(&["diagnose", "d00"]);
    run.assert_code(2);
    assert!(run.stderr.contains("too short"), "{}", run.stderr);
    // Every scenario starts with d0000...: ambiguous, and the candidates are listed.
    let run = db.run(&["diagnose", "d000"]);
    run.assert_code(2);
    assert!(run.stderr.contains("ambiguous"), "{}", run.stderr);
    assert!(run.stderr.contains(&scenario(1)) && run.stderr.contains(&scenario(9)));
    let run = db.run(&["diagnose", "beef"]);
    run.assert_code(3);
    assert!(
        run.stderr.contains("no deployment id starts with `beef`"),
        "{}",
        run.stderr
    );
    let run = db.run(&["diagnose", &Uuid::from_u128(7).to_string(), "-o", "json"]);
    run.assert_code(3);
    assert!(run.stderr.contains("does not exist"), "{}", run.stderr);
    // With -o json the failure is the error document.
    let error = &run.json()["error"];
    assert_eq!(error["exit_code"], 3);
    assert_eq!(error["kind"], "not_found");
}

#[test]
fn the_snapshot_is_one_read_only_statement() {
    let db = TestDb::scenarios();
    // The binary reads in a transaction that states REPEATABLE READ, READ
    // ONLY itself; through the library the same, with the same result.
    let fast = db.run(&["diagnose", &scenario(1), "-o", "json"]);
    fast.assert_code(0);
    let fast = fast.json();
    assert_eq!(fast["snapshot"]["isolation"], "repeatable read");
    assert_eq!(fast["snapshot"]["read_only"], true);
    let mut client = Session::from(db.client());
    let read = |client: &mut Session| {
        assess::assess(
            client,
            &Schema::public(),
            &scenario(1),
            None,
            &Policy::default(),
        )
        .unwrap()
    };
    let before = read(&mut client);
    assert_eq!(before.snapshot.snapshot.isolation, "repeatable read");
    assert!(before.snapshot.snapshot.read_only);
    assert_eq!(before.fingerprint, fast["fingerprint"].as_str().unwrap());
    let id = Uuid::parse_str(&scenario(1)).unwrap();
    let in_a_transaction: String = client
        .unpinned_connection()
        .query_one("SELECT current_setting('transaction_read_only')", &[])
        .unwrap()
        .get(0);
    assert_eq!(in_a_transaction, "off", "the read's transaction ended");
    let mut other = db.client();
    other
        .batch_execute(&format!(
            "BEGIN;
             UPDATE jobs SET target_node_id = 'a0000001-0000-4000-8000-000000000001' WHERE deployment_id = '{id}';
             UPDATE deployments SET status = 'building' WHERE id = '{id}';
             INSERT INTO deployment_events (sequence, id, org_id, deployment_id, kind)
               SELECT 4, gen_random_uuid(), org_id, id, 'build_started' FROM deployments WHERE id = '{id}';
             COMMIT;"
        ))
        .unwrap();
    // ...and wholly visible to the next diagnosis.
    let after = read(&mut client);
    assert_eq!(after.snapshot.deployment.status, "building");
    assert_eq!(after.snapshot.events_total, 4);
    assert!(after.snapshot.jobs[0].target_node_id.is_some());
    assert_eq!(after.verdict.path.as_str(), "teardown_requested");
}

#[test]
fn the_diagnosis_transaction_refuses_writes() {
    let db = TestDb::scenarios();
    let mut client = Session::from(db.client());
    let mut tx = session::read_only(&mut client).unwrap();
    let err = tx
        .client()
        // Qualified: the transaction's search path holds no user schema.
        .execute("UPDATE public.deployments SET status = 'failed'", &[])
        .expect_err("a write inside diagnose's transaction");
    assert_eq!(err.code(), Some(&SqlState::READ_ONLY_SQL_TRANSACTION));
}

#[test]
fn diagnose_writes_nothing() {
    let db = TestDb::scenarios();
    let before = db.dump();
    for n in 1..=9 {
        db.run(&["diagnose", &scenario(n), "-o", "json"])
            .assert_code(0);
    }
    assert_eq!(db.dump(), before);
}

#[test]
fn colour_only_on_a_terminal_and_never_with_no_color() {
    let db = TestDb::scenarios();
    let spawn = |no_color: bool| {
        let mut cmd = crate::support::bin();
        cmd.env("DATABASE_URL", &db.conninfo)
            .stdin(std::process::Stdio::inherit())
            .env("TERM", "xterm")
            // The whole byte stream, not a pager's first page.
            .env("PAGER", "cat")
            .args(["diagnose", "d0000003"]);
        if no_color {
            cmd.env("NO_COLOR", "1");
        }
        let mut session = rexpect::session::spawn_command(cmd, Some(20_000)).unwrap();
        session.exp_eof().unwrap()
    };
    let coloured = spawn(false);
    assert!(
        coloured.contains("VERDICT"),
        "a table on a terminal: {coloured}"
    );
    assert!(coloured.contains("\x1b["), "colour on a terminal");
    let plain = spawn(true);
    assert!(plain.contains("VERDICT"), "{plain}");
    assert!(!plain.contains("\x1b["), "NO_COLOR: {plain:?}");
}
