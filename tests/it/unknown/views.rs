//! One bad row never blinds a view: stuck, fleet list and history show
//! every good row, and the bad one with a warning.

use super::*;

fn stuck_ids(doc: &Value) -> Vec<String> {
    doc["deployments_stuck"]
        .as_array()
        .map(|rows| {
            rows.iter()
                .filter_map(|r| r["deployment_id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn stuck_shows_every_row_with_one_bad_one() {
    let db = TestDb::scenarios();
    let good = stuck_ids(&db.run(&["stuck", "-o", "json"]).json());
    let d2 = scenario_full(2);
    sql(
        &db,
        &format!(
            "ALTER TABLE deployments ALTER COLUMN org_id DROP NOT NULL;
             UPDATE deployments SET org_id = NULL WHERE id = '{d2}';
             ALTER TABLE fleet_nodes ALTER COLUMN pool DROP NOT NULL;
             UPDATE fleet_nodes SET pool = NULL WHERE name = 'edge-07';
             ALTER TABLE jobs DROP CONSTRAINT jobs_status_check;
             UPDATE jobs SET status = 'blocked' WHERE id = '{JOB_1}'"
        ),
    );
    let doc = view_warns(&db, &["stuck"], 0, "deployments.org_id", &d2);
    assert_eq!(stuck_ids(&doc), good, "every row is still reported");
    let edge_07 = "a0000012-0000-4000-8000-000000000012";
    view_warns(
        &db,
        &["stuck", "--exit-code"],
        10,
        "fleet_nodes.pool",
        edge_07,
    );
    let warned = view_warns(&db, &["stuck"], 0, "jobs.status", JOB_1);
    let d1 = warned["deployments_stuck"]
        .as_array()
        .and_then(|rows| {
            rows.iter()
                .find(|r| r["deployment_id"] == scenario_full(1))
                .cloned()
        })
        .unwrap_or_default();
    assert_eq!(d1["path"], "none", "{d1:#}");
    assert_eq!(
        d1["next_command"],
        format!("pushleft-controller diagnose {}", scenario_full(1))
    );
    let metrics = db.run(&["stuck", "-o", "openmetrics"]);
    metrics.assert_code(0);
    assert!(
        metrics.stdout.contains("pushleft_scan_success 1"),
        "{}",
        metrics.stdout
    );
}

fn node<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["nodes"]
        .as_array()
        .and_then(|nodes| nodes.iter().find(|n| n["name"] == name))
        .unwrap_or_else(|| panic!("no node {name}: {doc:#}"))
}

#[test]
fn fleet_list_shows_every_node_with_one_bad_one() {
    let db = TestDb::scenarios();
    let before = db.run(&["fleet", "list", "-o", "json"]).json();
    let nodes = before["nodes"].as_array().map_or(0, Vec::len);
    let used = node(&before, "edge-01")["slots_used"].clone();
    let allocation = "c2000041-0000-4000-8000-000000000041";
    let build_03 = "a0000003-0000-4000-8000-000000000003";
    let build_04 = "a0000004-0000-4000-8000-000000000004";
    sql(
        &db,
        &format!(
            "ALTER TABLE fleet_nodes ALTER COLUMN pool DROP NOT NULL;
             UPDATE fleet_nodes SET pool = NULL WHERE id = '{build_03}';
             ALTER TABLE fleet_nodes DROP CONSTRAINT fleet_nodes_status_check;
             UPDATE fleet_nodes SET status = 'maintenance' WHERE id = '{build_04}';
             ALTER TABLE fleet_allocations DROP CONSTRAINT fleet_allocations_status_check;
             UPDATE fleet_allocations SET status = 'pending' WHERE id = '{allocation}'"
        ),
    );
    let doc = view_warns(&db, &["fleet", "list"], 0, "fleet_nodes.pool", build_03);
    assert_eq!(doc["nodes"].as_array().map_or(0, Vec::len), nodes);
    assert_eq!(node(&doc, "build-03")["pool"], Value::Null);
    assert_eq!(node(&doc, "build-04")["status"], "maintenance");
    view_warns(&db, &["fleet", "list"], 0, "fleet_nodes.status", build_04);
    // A pending allocation still holds its slot.
    assert_eq!(node(&doc, "edge-01")["slots_used"], used);
    let held = view_warns(
        &db,
        &["fleet", "list"],
        0,
        "fleet_allocations.status",
        allocation,
    );
    let note = held["warnings"]
        .as_array()
        .and_then(|w| w.iter().find(|w| w["row"] == allocation).cloned())
        .unwrap_or_default();
    assert_eq!(note["value"], "pending");
    assert!(
        note["message"]
            .as_str()
            .is_some_and(|m| m.contains("counted as holding a slot")),
        "{note:#}"
    );
}

#[test]
fn history_shows_every_action_with_one_bad_one() {
    let db = TestDb::scenarios();
    let count = |doc: &Value| doc["actions"].as_array().map_or(0, Vec::len);
    let good = count(&db.run(&["history", "-o", "json"]).json());
    let event = "e9000006-0000-4000-8000-000000000006";
    sql(
        &db,
        &format!(
            "ALTER TABLE deployment_events ALTER COLUMN org_id DROP NOT NULL;
             ALTER TABLE deployment_events ALTER COLUMN occurred_at DROP NOT NULL;
             INSERT INTO deployment_events (sequence, id, org_id, deployment_id, kind, payload, occurred_at)
             VALUES (100, '{event}', NULL, '{}', 'operator_failed', '{{}}', NULL)",
            scenario_full(6)
        ),
    );
    let doc = view_warns(&db, &["history"], 0, "deployment_events.org_id", event);
    assert_eq!(count(&doc), good + 1, "the good actions and the odd one");
    view_warns(&db, &["history"], 0, "deployment_events.occurred_at", event);
}
