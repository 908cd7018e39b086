//! `stuck` against the scenarios. Last events, computed from scenarios.sql:
//!
//! | deployment | status    | last event                         | stuck for | path               |
//! |------------|-----------|------------------------------------|-----------|--------------------|
//! | d0000003   | deploying | -4h + 5 * 9m       = 3h15m ago      | 11700 s   | teardown_requested |
//! | d0000004   | queued    | -1h20m + 3 * 3m    = 1h11m ago      |  4260 s   | operator_failed    |
//! | d0000001   | queued    | -47m + 2 * 1m      = 45m ago        |  2700 s   | operator_failed    |
//! | d0000002   | building  | -55m + 3 * 4m40s   = 41m ago        |  2460 s   | teardown_requested |
//! | d0000008   | deploying | -2h + 60 * 1.4m    = 36m ago        |  2160 s   | teardown_requested |
//!
//! Orphaned: d0000002's build job b0000002, lease expired 38m ago (2280 s) on
//! build-03. d0000007's teardown lease expires in 4m: not orphaned.

use serde_json::Value;

use crate::clock::rebase_to_now;
use crate::support::{TestDb, scenario, strand_on_edge_07};

fn scenario_db() -> TestDb {
    let db = TestDb::scenarios();
    rebase_to_now(&mut db.client());
    db
}

fn stuck_json(db: &TestDb, extra: &[&str]) -> Value {
    let mut args = vec!["stuck", "--output", "json"];
    args.extend_from_slice(extra);
    db.run(&args).assert_code(0).json()
}

fn ids(doc: &Value, list: &str, key: &str) -> Vec<String> {
    doc[list]
        .as_array()
        .unwrap_or_else(|| panic!("{list} is an array: {doc:#}"))
        .iter()
        .map(|row| row[key].as_str().unwrap().to_string())
        .collect()
}

fn fail_safely(n: u8) -> String {
    format!(
        "pushleft-controller fail-safely {} --reason \"<ticket and reason>\"",
        scenario(n)
    )
}

#[test]
fn stuck_finds_exactly_the_stuck_scenarios_and_the_orphaned_lease() {
    let db = scenario_db();
    let doc = stuck_json(&db, &[]);
    let expected = [
        (3, "deploying", 11_700, "teardown_requested", true),
        (4, "queued", 4_260, "operator_failed", false),
        (1, "queued", 2_700, "operator_failed", false),
        (2, "building", 2_460, "teardown_requested", true),
        (8, "deploying", 2_160, "teardown_requested", true),
    ];
    let rows = doc["deployments_stuck"].as_array().unwrap();
    assert_eq!(
        ids(&doc, "deployments_stuck", "deployment_id"),
        expected.map(|e| scenario(e.0)),
        "longest stuck first"
    );
    for (row, (n, status, stuck_for, path, dispatched)) in rows.iter().zip(expected) {
        assert_eq!(row["status"], status, "d{n}");
        let got = row["stuck_for_seconds"].as_i64().unwrap();
        assert!(
            (stuck_for..stuck_for + 30).contains(&got),
            "d{n}: stuck for {got}, expected about {stuck_for}"
        );
        assert_eq!(row["path"], path, "d{n}");
        assert_eq!(row["dispatched"], dispatched, "d{n}");
        assert_eq!(row["next_command"], fail_safely(n), "d{n}");
        assert!(row["last_event_at"].is_string(), "d{n}");
        assert!(row["org_id"].as_str().unwrap().starts_with("c000000"));
    }
    assert_eq!(rows[0]["nodes"], serde_json::json!(["edge-07"]));
    assert_eq!(rows[3]["nodes"], serde_json::json!(["build-03"]));

    let leases = doc["leases_orphaned"].as_array().unwrap();
    assert_eq!(leases.len(), 1, "{doc:#}");
    let lease = &leases[0];
    assert_eq!(lease["job_id"], "b0000002-0000-4000-8000-000000000002");
    assert_eq!(lease["deployment_id"], scenario(2));
    assert_eq!(lease["org_id"], "c0000001-0000-4000-8000-000000000001");
    assert_eq!(lease["deployment_status"], "building");
    assert_eq!(lease["kind"], "build");
    assert_eq!(lease["node_id"], "a0000003-0000-4000-8000-000000000003");
    assert_eq!(lease["node_name"], "build-03");
    let expired = lease["expired_for_seconds"].as_i64().unwrap();
    assert!((2_280..2_310).contains(&expired), "expired for {expired}");
    assert_eq!(lease["path"], "teardown_requested");
    assert_eq!(lease["next_command"], fail_safely(2));
    let at = chrono::DateTime::parse_from_rfc3339(doc["snapshot"]["at"].as_str().unwrap())
        .expect("snapshot.at is RFC 3339");
    let expires =
        chrono::DateTime::parse_from_rfc3339(lease["lease_expires_at"].as_str().unwrap()).unwrap();
    assert_eq!(
        (at - expires).num_seconds(),
        expired,
        "one now() for all ages"
    );
}

#[test]
fn stuck_respects_for_and_grace() {
    let db = scenario_db();
    let stuck_ids = |extra: &[&str]| {
        ids(
            &stuck_json(&db, extra),
            "deployments_stuck",
            "deployment_id",
        )
    };
    // 40m: d0000008 (36m) drops out; d0000002 (41m) stays.
    assert_eq!(
        stuck_ids(&["--for", "40m"]),
        [3, 4, 1, 2].map(scenario),
        "--for 40m"
    );
    assert_eq!(
        stuck_ids(&["--for", "1h"]),
        [3, 4].map(scenario),
        "--for 1h"
    );
    assert!(stuck_ids(&["--for", "5h"]).is_empty(), "--for 5h");
    // --for does not touch the lease scan, --grace does not touch the other.
    let doc = stuck_json(&db, &["--for", "5h"]);
    assert_eq!(ids(&doc, "leases_orphaned", "job_id").len(), 1);
    let doc = stuck_json(&db, &["--grace", "30m"]);
    assert_eq!(ids(&doc, "leases_orphaned", "job_id").len(), 1, "38m > 30m");
    assert_eq!(ids(&doc, "deployments_stuck", "deployment_id").len(), 5);
    let doc = stuck_json(&db, &["--grace", "40m"]);
    assert!(
        ids(&doc, "leases_orphaned", "job_id").is_empty(),
        "38m < 40m"
    );
    assert_eq!(doc["snapshot"]["grace_seconds"], 2400);
}

#[test]
fn stuck_exit_code_says_whether_anything_was_found() {
    let db = scenario_db();
    db.run(&["stuck", "--output", "json", "--exit-code"])
        .assert_code(10);
    db.run(&["stuck", "--output", "json"]).assert_code(0);
    db.run(&[
        "stuck",
        "--output",
        "json",
        "--exit-code",
        "--for",
        "5h",
        "--grace",
        "1h",
    ])
    .assert_code(0);
    // Only the orphaned lease is enough.
    db.run(&["stuck", "--output", "json", "--exit-code", "--for", "5h"])
        .assert_code(10);
}

#[test]
fn stuck_exit_code_clears_when_only_the_lease_reclaimer_can_act() {
    let db = scenario_db();
    // d0000002's build lease goes away (its deployment failed by hand and
    // the lease released); d0000007's teardown lease runs out: orphaned,
    // but its deployment is already teardown_queued.
    db.client()
        .batch_execute(
            "UPDATE jobs SET status = 'failed', lease_expires_at = NULL
              WHERE deployment_id = 'd0000002-0000-4000-8000-000000000002';
             UPDATE jobs SET lease_expires_at = now() - interval '10 minutes'
              WHERE id = 'b0000072-0000-4000-8000-000000000072'",
        )
        .unwrap();
    let args = ["stuck", "--exit-code", "--for", "5h"];
    let run = db.run(&[&args[..], &["-o", "json"]].concat());
    run.assert_code(0);
    let json = run.json();
    let leases = json["leases_orphaned"].as_array().unwrap();
    assert_eq!(leases.len(), 1, "{json:#}");
    assert_eq!(leases[0]["responsible"], "lease_reclaimer");
    // The table says whose job it is.
    let run = db.run(&[&args[..], &["-o", "table"]].concat());
    run.assert_code(0);
    assert!(run.stdout.contains("lease reclaimer"), "{}", run.stdout);
}

#[test]
fn stuck_counts_from_creation_without_events_and_clears_on_a_new_event() {
    let db = scenario_db();
    let mut client = db.client();
    client
        .batch_execute(
            "INSERT INTO deployments (id, org_id, status, created_at, updated_at) VALUES
                ('d00000a1-0000-4000-8000-0000000000a1', 'c00000a1-0000-4000-8000-0000000000a1',
                 'building', now() - interval '31 minutes', now() - interval '31 minutes'),
                ('d00000a2-0000-4000-8000-0000000000a2', 'c00000a1-0000-4000-8000-0000000000a1',
                 'queued', now() - interval '29 minutes', now() - interval '29 minutes'),
                ('d00000a3-0000-4000-8000-0000000000a3', 'c00000a1-0000-4000-8000-0000000000a1',
                 'running', now() - interval '5 hours', now() - interval '5 hours');
             -- d0000001 makes progress now: no longer stuck.
             INSERT INTO deployment_events (sequence, id, org_id, deployment_id, kind)
             VALUES (4, gen_random_uuid(), 'c0000001-0000-4000-8000-000000000001',
                     'd0000001-0000-4000-8000-000000000001', 'build_started');",
        )
        .unwrap();
    let doc = stuck_json(&db, &[]);
    assert_eq!(
        ids(&doc, "deployments_stuck", "deployment_id"),
        [
            scenario(3),
            scenario(4),
            scenario(2),
            scenario(8),
            "d00000a1-0000-4000-8000-0000000000a1".to_string()
        ]
    );
    let fresh = &doc["deployments_stuck"][4];
    assert!(fresh["last_event_at"].is_null());
    let stuck_for = fresh["stuck_for_seconds"].as_i64().unwrap();
    assert!((1_860..1_890).contains(&stuck_for), "{stuck_for}");
    assert_eq!(fresh["path"], "operator_failed");
}

#[test]
fn stuck_offers_diagnose_when_no_break_glass_path_applies() {
    let db = scenario_db();
    // d0000007's teardown lease runs out: orphaned, but the deployment is
    // already teardown_queued, so the path is none and the next step is a
    // closer look, not fail-safely.
    db.client()
        .batch_execute(
            "UPDATE jobs SET lease_expires_at = now() - interval '10 minutes'
              WHERE id = 'b0000072-0000-4000-8000-000000000072'",
        )
        .unwrap();
    let doc = stuck_json(&db, &[]);
    let leases = doc["leases_orphaned"].as_array().unwrap();
    assert_eq!(leases.len(), 2, "{doc:#}");
    let teardown = &leases[1];
    assert_eq!(teardown["deployment_id"], scenario(7));
    assert_eq!(teardown["deployment_status"], "teardown_queued");
    assert_eq!(teardown["kind"], "teardown");
    assert_eq!(teardown["node_name"], "edge-02");
    assert_eq!(teardown["path"], "none");
    // Nothing the operator can do on the deployment: the lease is the
    // reclaimer's to release, and --exit-code does not count it.
    assert_eq!(teardown["responsible"], "lease_reclaimer");
    assert_eq!(teardown["next_command"], serde_json::Value::Null);
    assert!(
        teardown["next_step"]
            .as_str()
            .unwrap()
            .contains("lease reclaimer"),
        "{teardown:#}"
    );
}

#[test]
fn stuck_table_lists_both_scans_and_never_prints_logs() {
    let db = scenario_db();
    // Every column and full ids: -o wide (the 80-column table is the
    // terminal test's, tests/it/screen.rs).
    let run = db.run(&["stuck", "--output", "wide"]);
    run.assert_code(0);
    let out = &run.stdout;
    assert!(
        out.contains("Stuck deployments (in flight, no event for 30m or more): 5"),
        "{out}"
    );
    assert!(
        out.contains("Orphaned leases (expired more than 1m ago, not reclaimed): 1"),
        "{out}"
    );
    for n in [1, 2, 3, 4, 8] {
        assert!(out.contains(&fail_safely(n)), "d{n} in {out}");
    }
    for n in [5, 6, 7, 9] {
        assert!(!out.contains(&scenario(n)), "d{n} is not stuck: {out}");
    }
    assert!(out.contains("build-03 (seen 52m ago)"), "{out}");
    let json = db
        .run(&["stuck", "--output", "json"])
        .assert_code(0)
        .stdout
        .clone();
    for text in [out.as_str(), run.stderr.as_str(), json.as_str()] {
        assert!(!text.contains("FAKE-SECRET"), "{text}");
    }
    let none = db
        .run(&["stuck", "--output", "table", "--for", "5h", "--grace", "1h"])
        .assert_code(0)
        .stdout
        .clone();
    assert!(none.contains("no event for 5h or more): 0"), "{none}");
    assert!(none.contains("not reclaimed): 0"), "{none}");
}

#[test]
fn a_dead_node_with_200_stuck_deployments_is_one_group_of_200() {
    let db = scenario_db();
    strand_on_edge_07(&db, 200);
    let doc = stuck_json(&db, &["--group-by", "node"]);
    let groups = doc["groups"].as_array().expect("groups");
    assert_eq!(groups[0]["key"], "edge-07", "{:#}", groups[0]);
    // d0000003's instance is on edge-07 as well.
    assert_eq!(groups[0]["count"], 201);
    assert_eq!(groups[0]["teardown_requested"], 201);
    assert_eq!(
        groups[0]["next_command"],
        "pushleft-controller stuck --node edge-07"
    );
    // Without --limit the JSON is complete.
    assert_eq!(doc["deployments_stuck"].as_array().unwrap().len(), 205);
    assert!(doc.get("left_out").is_none());
}

#[test]
fn filters_and_limit_narrow_the_scan_and_say_what_was_left_out() {
    let db = scenario_db();
    strand_on_edge_07(&db, 30);
    let doc = stuck_json(&db, &["--node", "edge-07", "--limit", "10"]);
    assert_eq!(doc["deployments_stuck"].as_array().unwrap().len(), 10);
    assert_eq!(doc["left_out"]["deployments_stuck"], 21);
    // The orphaned lease is on build-03, not edge-07.
    assert_eq!(doc["leases_orphaned"].as_array().unwrap().len(), 0);
    let queued = stuck_json(&db, &["--status", "queued"]);
    assert_eq!(
        ids(&queued, "deployments_stuck", "deployment_id"),
        [scenario(4), scenario(1)]
    );
    let failing = stuck_json(&db, &["--path", "operator_failed"]);
    assert_eq!(
        ids(&failing, "deployments_stuck", "deployment_id"),
        [scenario(4), scenario(1)]
    );
    let table = db.run(&[
        "stuck", "--output", "table", "--pool", "edge", "--limit", "5",
    ]);
    table.assert_code(0);
    assert!(table.stdout.contains("… and 27 more"), "{}", table.stdout);
    // --exit-code still pages when only the limit hid the rows.
    db.run(&["stuck", "--limit", "0", "--exit-code"])
        .assert_code(10);
    db.run(&["stuck", "--node", "no-such-node", "--exit-code"])
        .assert_code(0);
}

#[test]
fn a_grouped_scan_suggests_the_batch_workflow_for_its_largest_group() {
    let db = TestDb::scenarios();
    crate::clock::rebase_to_now(&mut db.client());
    crate::support::strand_on_edge_07(&db, 3);
    let run = db.run(&["stuck", "--group-by", "node", "-o", "table"]);
    run.assert_code(0);
    // A command too long for the screen goes on with ` \` on the next
    // line: as the shell reads it.
    let joined = run.stderr.replace(" \\\n", " ");
    let lines: Vec<String> = joined
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    assert!(
        lines.contains(&"pushleft-controller stuck --node edge-07 -o json > edge-07.json"),
        "{}",
        run.stderr
    );
    assert!(
        lines.contains(
            &"pushleft-controller fail-safely --from edge-07.json --reason \"<ticket and reason>\" --dry-run"
        ),
        "{}",
        run.stderr
    );
}
