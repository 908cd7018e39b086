//! `history` against the scenarios (three break-glass events typed by hand,
//! without an audit) plus actions fail-safely writes during the test.

use serde_json::Value;

use crate::clock::rebase_to_now;
use crate::support::{TestDb, scenario};

fn history(db: &TestDb, extra: &[&str]) -> Value {
    let mut args = vec!["history", "--output", "json"];
    args.extend_from_slice(extra);
    db.run(&args).assert_code(0).json()
}

fn deployments(doc: &Value) -> Vec<String> {
    doc["actions"]
        .as_array()
        .unwrap_or_else(|| panic!("actions is an array: {doc:#}"))
        .iter()
        .map(|a| a["deployment_id"].as_str().unwrap().to_string())
        .collect()
}

/// The scenarios, rebased, with two actions written by the tool: an
/// operator_failed on d0000001, then a teardown on d0000002.
fn db_with_actions() -> TestDb {
    let db = TestDb::scenarios();
    rebase_to_now(&mut db.client());
    for (n, reason) in [(1, "INC-101 stuck queued"), (2, "INC-202 orphaned lease")] {
        db.run(&["fail-safely", &scenario(n), "--reason", reason, "--yes"])
            .assert_code(0);
    }
    db
}

#[test]
fn history_shows_every_action_newest_first_with_its_audit() {
    let db = db_with_actions();
    let doc = history(&db, &[]);
    let ids = deployments(&doc);
    assert_eq!(
        ids.len(),
        5,
        "two by the tool, three typed by hand: {doc:#}"
    );
    assert_eq!(ids[0], scenario(2), "newest first");
    assert_eq!(ids[1], scenario(1));
    let newest = &doc["actions"][0];
    assert_eq!(newest["path"], "teardown_requested");
    assert_eq!(newest["reason"], "INC-202 orphaned lease");
    assert_eq!(newest["status_now"], "teardown_queued");
    assert_eq!(newest["audit"]["previous_status"], "building");
    assert!(newest["audit"]["os_user"].is_string(), "{newest:#}");
    assert!(
        newest["audit"]["tool"]
            .as_str()
            .is_some_and(|t| t.starts_with("pushleft-controller/")),
        "{newest:#}"
    );
    assert!(
        newest["idempotency_key"]
            .as_str()
            .is_some_and(|k| k.starts_with("pl1-"))
    );
    assert_eq!(doc["actions"][1]["status_now"], "failed");
    // The scenarios' events were typed by hand: no audit, said as nulls.
    let by_hand = &doc["actions"][4];
    assert!(by_hand["audit"]["os_user"].is_null(), "{by_hand:#}");
    assert_eq!(doc["snapshot"]["truncated"], false);
    let times: Vec<&str> = doc["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["occurred_at"].as_str().unwrap())
        .collect();
    let mut sorted = times.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(times, sorted, "newest first");
}

#[test]
fn history_filters_by_time_operator_reason_and_deployment() {
    let db = db_with_actions();
    // A prefix, as everywhere.
    assert_eq!(
        deployments(&history(&db, &["--deployment", "d0000001"])),
        [scenario(1)]
    );
    // Case-insensitive text in the reason.
    assert_eq!(
        deployments(&history(&db, &["--reason-contains", "inc-202"])),
        [scenario(2)]
    );
    // The two written just now, and none of them before an hour ago.
    assert_eq!(deployments(&history(&db, &["--since", "5m"])).len(), 2);
    // Before an hour ago: d0000006's (a day ago) and d0000009's, not
    // d0000007's recent teardown nor today's two.
    assert_eq!(
        deployments(&history(&db, &["--until", "1h"])),
        [scenario(6), scenario(9)]
    );
    // By whoever ran the tool: the audit's OS user.
    let me = history(&db, &["--limit", "1"])["actions"][0]["audit"]["os_user"]
        .as_str()
        .expect("an OS user")
        .to_string();
    assert_eq!(deployments(&history(&db, &["--operator", &me])).len(), 2);
    assert!(deployments(&history(&db, &["--operator", "nobody-at-all"])).is_empty());
    // An absolute time: everything since the start of 1970.
    assert_eq!(
        deployments(&history(&db, &["--since", "1970-01-01"])).len(),
        5
    );
}

#[test]
fn history_says_when_the_limit_cut_the_list() {
    let db = db_with_actions();
    let doc = history(&db, &["--limit", "1"]);
    assert_eq!(deployments(&doc), [scenario(2)]);
    assert_eq!(doc["snapshot"]["truncated"], true);
    let table = db.run(&["history", "--output", "table", "--limit", "1"]);
    table.assert_code(0);
    assert!(
        table.stdout.contains("INC-202 orphaned lease"),
        "{}",
        table.stdout
    );
    assert!(table.stdout.contains("d0000002"), "{}", table.stdout);
    assert!(
        table.stderr.contains("--limit N shows more"),
        "{}",
        table.stderr
    );
}

#[test]
fn history_rejects_a_time_it_cannot_read() {
    let db = TestDb::scenarios();
    let run = db.run(&["history", "--since", "yesterday-ish"]);
    run.assert_code(2);
    assert!(run.stderr.contains("expected a time"), "{}", run.stderr);
}
