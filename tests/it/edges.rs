//! Edge values (pushleft-controller(1), THE DATABASE IT TALKS TO), through the real binary against a real PostgreSQL:
//! a trail at the bigint maximum is a refusal, with nothing written; times
//! ahead of the server's clock are clock skew (a finding, a warning),
//! never a negative age, and never make a deployment look stuck.

use serde_json::Value;

use crate::guard::full_dump;
use crate::support::{TestDb, scenario};

const REASON: &str = "INC-22 edges";

/// Appends an event to scenario `n` with `sequence` (an SQL expression,
/// over `last`, the current maximum) at `occurred_at` (an SQL expression).
fn append_event(db: &TestDb, n: u8, sequence: &str, occurred_at: &str) {
    db.client()
        .batch_execute(&format!(
            "INSERT INTO deployment_events (sequence, id, org_id, deployment_id, kind, occurred_at)
             SELECT {sequence}, gen_random_uuid(), d.org_id, d.id, 'queued', {occurred_at}
             FROM deployments d,
                  LATERAL (SELECT max(sequence) AS last FROM deployment_events
                           WHERE deployment_id = d.id) t
             WHERE d.id = '{}'",
            scenario(n)
        ))
        .expect("appending an event");
}

/// Every number under a key ending in `seconds`, anywhere in `doc`, is
/// at least 0.
#[track_caller]
fn no_negative_seconds(doc: &Value) {
    fn walk(value: &Value, path: &str, bad: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                for (key, inner) in map {
                    let here = format!("{path}.{key}");
                    if key.ends_with("seconds") && inner.as_i64().is_some_and(|n| n < 0) {
                        bad.push(format!("{here} = {inner}"));
                    }
                    walk(inner, &here, bad);
                }
            }
            Value::Array(items) => items
                .iter()
                .for_each(|i| walk(i, &format!("{path}[]"), bad)),
            _ => {}
        }
    }
    let mut bad = Vec::new();
    walk(doc, "", &mut bad);
    assert!(bad.is_empty(), "negative ages: {bad:?}\n{doc:#}");
}

fn codes(diagnosis: &Value) -> Vec<String> {
    diagnosis["verdict"]["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| f["code"].as_str().unwrap_or_default().to_string())
        .collect()
}

fn message_of<'a>(diagnosis: &'a Value, code: &str) -> &'a str {
    diagnosis["verdict"]["findings"]
        .as_array()
        .and_then(|f| f.iter().find(|f| f["code"] == code))
        .and_then(|f| f["message"].as_str())
        .unwrap_or_else(|| panic!("no {code} finding: {diagnosis:#}"))
}

#[test]
fn the_bigint_maximum_is_a_refusal_that_writes_nothing() {
    let db = TestDb::scenarios();
    // d0000001 stays stuck: its new last event is 40 minutes old.
    append_event(
        &db,
        1,
        "9223372036854775807",
        "now() - interval '40 minutes'",
    );
    let before = full_dump(&db, None);
    for flag in ["--dry-run", "--yes"] {
        let run = db.run(&["fail-safely", "d0000001", "--reason", REASON, flag]);
        run.assert_code(4);
        for text in [
            "deployment d0000001-0000-4000-8000-000000000001",
            "its event trail is at the largest sequence number a bigint holds",
            "no event can be appended",
            "Nothing was written",
        ] {
            assert!(run.stderr.contains(text), "{flag}: {text}\n{}", run.stderr);
        }
        assert!(!run.stderr.contains("out of range"), "{}", run.stderr);
        assert_eq!(full_dump(&db, None), before, "{flag} wrote something");
    }
    let json = db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        REASON,
        "--yes",
        "-o",
        "json",
    ]);
    json.assert_code(4);
    assert_eq!(json.json()["error"]["kind"], "refused");
    let diagnosis = db.run(&["diagnose", "d0000001", "-o", "json"]);
    diagnosis.assert_code(0);
    assert!(message_of(&diagnosis.json(), "event_trail_full").contains("fail-safely will refuse"));
    assert_eq!(full_dump(&db, None), before);
}

#[test]
fn an_event_ahead_of_the_clock_is_a_finding_never_a_negative_age() {
    let db = TestDb::scenarios();
    append_event(&db, 1, "last + 1", "now() + interval '2 hours'");
    let diagnosis = db.run(&["diagnose", "d0000001", "-o", "json"]);
    diagnosis.assert_code(0);
    let doc = diagnosis.json();
    no_negative_seconds(&doc);
    assert_eq!(doc["verdict"]["stuck"], false);
    assert_eq!(doc["verdict"]["stuck_for_seconds"], 0);
    assert_eq!(doc["verdict"]["last_event"]["age_seconds"], 0);
    assert!(codes(&doc).contains(&"clock_skew".to_string()));
    let skew = message_of(&doc, "clock_skew");
    assert!(
        skew.starts_with("clock skew: event ")
            && skew.contains("in the future of the database server's clock"),
        "{skew}"
    );
    let table = db.run(&["diagnose", "d0000001", "-o", "table"]);
    table.assert_code(0);
    assert!(!table.stdout.contains("for in "), "{}", table.stdout);
    assert!(
        table.stdout.contains("clock skew: event"),
        "{}",
        table.stdout
    );
}

#[test]
fn fail_safely_does_not_count_a_future_event_as_stuck() {
    let db = TestDb::scenarios();
    append_event(&db, 1, "last + 1", "now() + interval '2 hours'");
    let before = full_dump(&db, None);
    for flag in ["--dry-run", "--yes"] {
        let run = db.run(&["fail-safely", "d0000001", "--reason", REASON, flag]);
        run.assert_code(4);
        for text in [
            "is not stuck",
            "in the future of the database server's clock",
            "clock skew",
            "--even-if-not-stuck",
        ] {
            assert!(run.stderr.contains(text), "{flag}: {text}\n{}", run.stderr);
        }
        assert_eq!(full_dump(&db, None), before, "{flag} wrote something");
    }
    // Told to anyway, it acts, and the audit's age is not negative.
    let run = db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        REASON,
        "--yes",
        "--even-if-not-stuck",
        "-o",
        "json",
    ]);
    run.assert_code(0);
    let doc = run.json();
    no_negative_seconds(&doc);
    assert_eq!(doc["stuck"], false, "{doc:#}");
}

#[test]
fn stuck_and_fleet_list_warn_about_times_ahead_of_the_clock() {
    let db = TestDb::scenarios();
    append_event(&db, 3, "last + 1", "now() + interval '2 hours'");
    db.client()
        .batch_execute(
            "UPDATE fleet_nodes SET last_seen_at = now() + interval '3 hours' WHERE name = 'edge-01'",
        )
        .unwrap();
    let stuck = db.run(&["stuck", "-o", "json"]);
    stuck.assert_code(0);
    let doc = stuck.json();
    no_negative_seconds(&doc);
    let stuck_ids: Vec<&str> = doc["deployments_stuck"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["deployment_id"].as_str())
        .collect();
    assert!(!stuck_ids.contains(&scenario(3).as_str()), "{doc:#}");
    let skews = doc["clock_skew"].as_array().expect("clock_skew");
    assert!(
        skews.iter().any(|k| k["of"] == "event"
            && k["deployment_id"] == scenario(3)
            && k["ahead_seconds"].as_i64().is_some_and(|s| s > 7000)),
        "{doc:#}"
    );
    assert!(
        skews
            .iter()
            .any(|k| k["of"] == "heartbeat" && k["node"] == "edge-01"),
        "{doc:#}"
    );
    let table = db.run(&["stuck", "-o", "table"]);
    assert!(
        table
            .stdout
            .contains("! clock skew: node edge-01's heartbeat is"),
        "{}",
        table.stdout
    );
    assert!(
        table.stdout.contains("! clock skew: event"),
        "{}",
        table.stdout
    );

    let fleet = db.run(&["fleet", "list", "-o", "json"]);
    fleet.assert_code(0);
    let doc = fleet.json();
    no_negative_seconds(&doc);
    let edge01 = doc["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["name"] == "edge-01")
        .expect("edge-01");
    assert_eq!(edge01["heartbeat_age_seconds"], 0);
    assert_eq!(doc["clock_skew"][0]["node"], "edge-01", "{doc:#}");
    let table = db.run(&["fleet", "list", "-o", "table"]);
    assert!(
        table
            .stdout
            .contains("! clock skew: node edge-01's heartbeat is"),
        "{}",
        table.stdout
    );
    assert!(!table.stdout.contains(" in 2h"), "{}", table.stdout);
    // d0000005 runs on edge-01: its diagnosis has the finding too.
    let diagnosis = db.run(&["diagnose", "d0000005", "-o", "json"]).json();
    no_negative_seconds(&diagnosis);
    assert!(message_of(&diagnosis, "clock_skew").contains("node edge-01's heartbeat"));
}

#[test]
fn history_and_wait_show_no_negative_age() {
    let db = TestDb::scenarios();
    // d0000006 is already failed; an operator's event stamped 2h ahead.
    db.client()
        .batch_execute(&format!(
            "INSERT INTO deployment_events (sequence, id, org_id, deployment_id, kind, payload, occurred_at)
             SELECT max(e.sequence) + 1, gen_random_uuid(), d.org_id, d.id, 'operator_failed',
                    '{{\"reason\": \"INC-22 from a fast clock\"}}', now() + interval '2 hours'
             FROM deployments d JOIN deployment_events e ON e.deployment_id = d.id
             WHERE d.id = '{}' GROUP BY d.id, d.org_id",
            scenario(6)
        ))
        .unwrap();
    let history = db.run(&["history", "-o", "wide"]);
    history.assert_code(0);
    let line = history
        .stdout
        .lines()
        .find(|l| l.contains("INC-22 from a fast clock"))
        .unwrap_or_else(|| panic!("{}", history.stdout));
    assert!(line.contains("0s ago") && !line.contains(" in "), "{line}");
    let wait = db.run(&["wait", "d0000006", "--timeout", "5s", "-o", "json"]);
    wait.assert_code(0);
    let doc = wait.json();
    no_negative_seconds(&doc);
    assert_eq!(doc["last_event"]["age_seconds"], 0, "{doc:#}");
}
