//! Every command through PgBouncer gives what it gives directly: the same
//! exit code and the same document (less what depends on the moment).

use pushleft_controller::testing::pgbouncer::PoolMode;
use serde_json::Value;

use super::{
    REASON, doctor_statuses, normalized, normalized_text, operator_events, pooler, run_direct,
    run_via, status_of, without_written_tables,
};
use crate::support::{Run, TestDb, scenario};

/// Twins cloned from one template hold the very same rows.
fn scenario_db() -> TestDb {
    TestDb::scenarios()
}

/// The same exit code and document, directly and through the pooler.
#[track_caller]
fn assert_same_json(what: &str, direct: &Run, pooled: &Run) {
    assert_eq!(
        pooled.code, direct.code,
        "{what}: exit code through the pooler\nstdout:\n{}\nstderr:\n{}",
        pooled.stdout, pooled.stderr
    );
    assert_eq!(
        normalized(&pooled.json()),
        normalized(&direct.json()),
        "{what}: the document through the pooler differs from the direct one"
    );
}

fn reads_match(mode: PoolMode) {
    let db = scenario_db();
    let Some(pooler) = pooler(mode, &[], &[]) else {
        return;
    };
    let before = db.dump();
    let d3 = scenario(3);
    let read_commands: [&[&str]; 6] = [
        &["diagnose", &d3, "-o", "json"],
        &["diagnose", "d0000008", "-o", "json", "--events", "5"],
        &["stuck", "-o", "json"],
        &["stuck", "-o", "json", "--group-by", "node"],
        &["fleet", "list", "-o", "json"],
        &["history", "-o", "json"],
    ];
    for args in read_commands {
        let direct = run_direct(&db, "postgres", &[], args);
        direct.assert_code(0);
        let pooled = run_via(&pooler, &db, "postgres", &[], args);
        assert_same_json(&format!("{args:?} ({mode:?})"), &direct, &pooled);
    }
    // The table of diagnose, as an operator reads it.
    let table = ["diagnose", "d0000003", "-o", "table"];
    let direct = run_direct(&db, "postgres", &[], &table);
    let pooled = run_via(&pooler, &db, "postgres", &[], &table);
    pooled.assert_code(0);
    assert_eq!(
        normalized_text(&pooled.stdout),
        normalized_text(&direct.stdout),
        "diagnose's table through the pooler ({mode:?})"
    );
    // wait on a deployment failed yesterday: verified at once.
    let wait = ["wait", "d0000006", "--timeout", "5s", "-o", "json"];
    let direct = run_direct(&db, "postgres", &[], &wait);
    direct.assert_code(0);
    assert_same_json(
        &format!("wait ({mode:?})"),
        &direct,
        &run_via(&pooler, &db, "postgres", &[], &wait),
    );
    assert_eq!(db.dump(), before, "reading through the pooler wrote");
}

/// doctor's checks of where and how it connected: TCP to the pooler has
/// no TLS (a warning), a unix socket needs none.
const TRANSPORT: [&str; 3] = ["settings", "connection", "tls"];

fn doctor_matches(mode: PoolMode) {
    let db = TestDb::scenarios();
    let Some(pooler) = pooler(mode, &[], &[]) else {
        return;
    };
    let before = db.dump();
    let direct = run_direct(&db, "postgres", &[], &["doctor", "-o", "json"]);
    direct.assert_code(0);
    let pooled = run_via(&pooler, &db, "postgres", &[], &["doctor", "-o", "json"]);
    pooled.assert_code(0);
    let json = pooled.json();
    assert_eq!(json["ok"], true, "{}", pooled.stdout);
    assert_eq!(json["target"]["port"], u64::from(pooler.port()));
    assert_eq!(json["target"]["database"], db.name.as_str());
    let (direct, pooled) = (doctor_statuses(&direct), doctor_statuses(&pooled));
    for (name, status) in &direct {
        if TRANSPORT.contains(&name.as_str()) {
            assert_ne!(pooled.get(name).map(String::as_str), Some("fail"), "{name}");
            continue;
        }
        assert_eq!(
            pooled.get(name),
            Some(status),
            "doctor's check {name} through the pooler ({mode:?}): {pooled:?}"
        );
    }
    assert_eq!(db.dump(), before, "doctor wrote");
}

/// A fail-safely document without the event's id (a new UUID each run)
/// and its target (each run names the database and address it reached:
/// the twin's, or the pooler's).
fn without_event_id(run: &Run) -> Value {
    run.assert_code(0);
    let mut json = run.json();
    json["event"]["id"] = Value::Null;
    json["target"] = Value::Null;
    normalized(&json)
}

/// The dry run, then the real run, then its replay: each as directly (the
/// direct runs go to a twin database cloned from the same template).
fn fail_safely_matches(mode: PoolMode) {
    let (db, twin) = (scenario_db(), scenario_db());
    let Some(pooler) = pooler(mode, &[], &[]) else {
        return;
    };
    let d3 = scenario(3);
    let dry = [
        "fail-safely",
        &d3,
        "--reason",
        REASON,
        "--dry-run",
        "-o",
        "json",
    ];
    let before = db.dump();
    assert_eq!(
        without_event_id(&run_via(&pooler, &db, "postgres", &[], &dry)),
        without_event_id(&run_direct(&twin, "postgres", &[], &dry)),
        "--dry-run through {mode:?} pooling"
    );
    assert_eq!(db.dump(), before, "--dry-run through the pooler wrote");

    let yes = [
        "fail-safely",
        &d3,
        "--reason",
        REASON,
        "--yes",
        "-o",
        "json",
    ];
    let pooled = run_via(&pooler, &db, "postgres", &[], &yes);
    assert_eq!(
        without_event_id(&pooled),
        without_event_id(&run_direct(&twin, "postgres", &[], &yes)),
        "--yes through {mode:?} pooling"
    );
    assert_eq!(pooled.json()["replayed"], false);
    assert_eq!(status_of(&db, &d3), "teardown_queued");
    assert_eq!(
        without_written_tables(&db.dump()),
        without_written_tables(&before),
        "fail-safely through the pooler wrote elsewhere"
    );

    let replay = run_via(&pooler, &db, "postgres", &[], &yes);
    replay.assert_code(0);
    let replay = replay.json();
    assert_eq!(replay["replayed"], true, "{replay:#}");
    assert_eq!(replay["path"], "teardown_requested");
    let events = operator_events(&db, &d3);
    assert_eq!(events.len(), 1, "exactly one event: {events:?}");
    assert_eq!(events[0].0, "teardown_requested");
    assert_eq!(events[0].1, REASON);
}

#[test]
fn reads_through_session_pooling_match_the_direct_ones() {
    reads_match(PoolMode::Session);
}

#[test]
fn reads_through_transaction_pooling_match_the_direct_ones() {
    reads_match(PoolMode::Transaction);
}

#[test]
fn doctor_through_session_pooling_is_ok() {
    doctor_matches(PoolMode::Session);
}

#[test]
fn doctor_through_transaction_pooling_is_ok() {
    doctor_matches(PoolMode::Transaction);
}

#[test]
fn the_break_glass_write_and_its_replay_through_session_pooling() {
    fail_safely_matches(PoolMode::Session);
}

#[test]
fn the_break_glass_write_and_its_replay_through_transaction_pooling() {
    fail_safely_matches(PoolMode::Transaction);
}
