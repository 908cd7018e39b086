//! Fail closed on the unknown, and one bad row never blinds a view: a
//! status or kind the model does not know, or a NULL where the reference
//! schema says NOT NULL (the test database relaxes its CHECK and NOT NULL
//! constraints to hold them). `fail-safely` refuses (exit 4) naming the
//! table, the column or value and the row, with and without `--dry-run`,
//! and a full dump of every table is the same before and after;
//! `diagnose` shows a finding and decides no path; `stuck`, `fleet list`
//! and `history` still show every good row, with a warning for the bad one.

use serde_json::Value;

use crate::guard::{assert_refused, full_dump};
use crate::support::{TestDb, scenario};

/// Words the driver uses that must never reach the operator.
const DRIVER_TEXT: &[&str] = &[
    "expected text",
    "got null",
    "db error",
    "was null",
    "WasNull",
];

fn sql(db: &TestDb, statements: &str) {
    db.client()
        .batch_execute(statements)
        .unwrap_or_else(|e| panic!("{statements}: {e:?}"));
}

#[track_caller]
fn no_driver_text(text: &str) {
    for words in DRIVER_TEXT {
        assert!(!text.contains(words), "driver text {words:?} in:\n{text}");
    }
}

/// `fail-safely` on `deployment`, with `--dry-run` and with `--yes`: both
/// refused with every word of `says`, nothing written.
#[track_caller]
fn refused_both_ways(db: &TestDb, deployment: &str, says: &[&str]) {
    let before = full_dump(db, None);
    for flag in ["--dry-run", "--yes"] {
        let args = [
            "fail-safely",
            deployment,
            "--reason",
            "INC-22 unknown values",
            flag,
            "--even-if-not-stuck",
        ];
        let run = db.run(&args);
        assert_refused(db, &run, 4, says, &before);
        assert!(run.stderr.contains("Nothing was written"), "{}", run.stderr);
        no_driver_text(&run.stderr);
    }
}

/// `diagnose -o json`: exit 0, no path, undecidable, a finding `code`
/// naming `row`.
#[track_caller]
fn diagnosed_undecidable(db: &TestDb, deployment: &str, code: &str, row: &str) -> Value {
    let run = db.run(&["diagnose", deployment, "-o", "json"]);
    run.assert_code(0);
    let doc = run.json();
    let verdict = &doc["verdict"];
    assert_eq!(verdict["path"], "none", "{verdict:#}");
    assert_eq!(verdict["decidable"], false, "{verdict:#}");
    let findings = verdict["findings"].as_array().cloned().unwrap_or_default();
    assert!(
        findings
            .iter()
            .any(|f| f["code"] == code && f["message"].as_str().is_some_and(|m| m.contains(row))),
        "no {code} finding naming {row}: {findings:#?}"
    );
    let table = db.run(&["diagnose", deployment, "-o", "table"]);
    table.assert_code(0);
    assert!(table.stdout.contains(row), "{}", table.stdout);
    no_driver_text(&table.stdout);
    no_driver_text(&table.stderr);
    doc
}

/// Each unknown value, in a database of its own: (deployment, the
/// UPDATE, the row, the value).
fn unknown_cases(relax: &str, cases: &[(u8, String, &str, &str)]) {
    for (n, update, row, value) in cases {
        let db = &TestDb::scenarios();
        sql(db, relax);
        sql(db, update);
        let deployment = scenario(*n);
        let says = [*row, *value, "which pushleft-controller does not know"];
        refused_both_ways(db, &deployment, &says);
        diagnosed_undecidable(db, &deployment, "unknown_value", row);
    }
}

const JOB_1: &str = "b0000001-0000-4000-8000-000000000001";

#[test]
fn unknown_job_status_and_kind_refuse() {
    let relax = "ALTER TABLE jobs DROP CONSTRAINT jobs_status_check;
                 ALTER TABLE jobs DROP CONSTRAINT jobs_kind_check;";
    for (column, value) in [("status", "blocked"), ("kind", "migrate")] {
        let db = TestDb::scenarios();
        sql(&db, relax);
        sql(
            &db,
            &format!("UPDATE jobs SET {column} = '{value}' WHERE id = '{JOB_1}'"),
        );
        let says = [
            "jobs row",
            JOB_1,
            value,
            "cannot tell whether it was dispatched",
        ];
        refused_both_ways(&db, &scenario(1), &says);
        let doc = diagnosed_undecidable(&db, &scenario(1), "unknown_value", JOB_1);
        assert_eq!(doc["jobs"][0][column], value);
    }
}

#[test]
fn unknown_instance_allocation_node_deployment_and_outcome_refuse() {
    let instance = "c1000041-0000-4000-8000-000000000041";
    let allocation = "c2000041-0000-4000-8000-000000000041";
    let node = "a0000003-0000-4000-8000-000000000003";
    let result = "b1000031-0000-4000-8000-000000000031";
    let deployment = "d0000001-0000-4000-8000-000000000001";
    unknown_cases(
        "ALTER TABLE application_instances DROP CONSTRAINT application_instances_status_check;
         ALTER TABLE fleet_allocations DROP CONSTRAINT fleet_allocations_status_check;
         ALTER TABLE fleet_nodes DROP CONSTRAINT fleet_nodes_status_check;
         ALTER TABLE deployments DROP CONSTRAINT deployments_status_check;
         ALTER TABLE agent_job_results DROP CONSTRAINT agent_job_results_outcome_check;",
        &[
            (
                4,
                format!(
                    "UPDATE application_instances SET status = 'migrating' WHERE id = '{instance}'"
                ),
                instance,
                "migrating",
            ),
            (
                4,
                format!(
                    "UPDATE fleet_allocations SET status = 'pending' WHERE id = '{allocation}'"
                ),
                allocation,
                "pending",
            ),
            (
                2,
                format!("UPDATE fleet_nodes SET status = 'maintenance' WHERE id = '{node}'"),
                node,
                "maintenance",
            ),
            (
                3,
                format!(
                    "ALTER TABLE agent_job_results DISABLE TRIGGER agent_job_results_refuse_update;
                     UPDATE agent_job_results SET outcome = 'unknown' WHERE id = '{result}';
                     ALTER TABLE agent_job_results ENABLE TRIGGER agent_job_results_refuse_update;"
                ),
                result,
                "unknown",
            ),
        ],
    );
    // The deployment's own status: refused as unknown (its finding is the
    // existing unknown_status).
    let db = TestDb::scenarios();
    sql(
        &db,
        &format!(
            "ALTER TABLE deployments DROP CONSTRAINT deployments_status_check;
             UPDATE deployments SET status = 'paused' WHERE id = '{deployment}'"
        ),
    );
    refused_both_ways(
        &db,
        &scenario(1),
        &["deployments row", deployment, "`paused`"],
    );
    diagnosed_undecidable(&db, &scenario(1), "unknown_status", "paused");
}

/// A new last event of d0000001 with `column` NULL.
fn null_last_event(db: &TestDb, column: &str) -> &'static str {
    let id = "e9000001-0000-4000-8000-000000000001";
    sql(
        db,
        &format!(
            "ALTER TABLE deployment_events ALTER COLUMN {column} DROP NOT NULL;
             INSERT INTO deployment_events (sequence, id, org_id, deployment_id, kind, payload, occurred_at)
             SELECT 4, '{id}', org_id, id, 'queued',
                    CASE WHEN '{column}' = 'payload' THEN NULL ELSE '{{}}'::jsonb END,
                    CASE WHEN '{column}' = 'occurred_at' THEN NULL ELSE now() - interval '40 minutes' END
             FROM deployments WHERE id = '{}'",
            scenario_full(1)
        ),
    );
    id
}

fn scenario_full(n: u8) -> String {
    format!("d000000{n}-0000-4000-8000-00000000000{n}")
}

#[test]
fn nulls_refuse_naming_table_column_and_row() {
    let columns = [
        "jobs.kind",
        "jobs.status",
        "deployments.org_id",
        "deployment_events.payload",
        "deployment_events.occurred_at",
    ];
    for column in columns {
        let db = TestDb::scenarios();
        let (table, col) = column.split_once('.').unwrap_or_default();
        let row = match table {
            "deployment_events" => null_last_event(&db, col).to_string(),
            _ => {
                let id = match table {
                    "jobs" => JOB_1.to_string(),
                    _ => scenario_full(1),
                };
                sql(
                    &db,
                    &format!(
                        "ALTER TABLE {table} ALTER COLUMN {col} DROP NOT NULL;
                         UPDATE {table} SET {col} = NULL WHERE id = '{id}'"
                    ),
                );
                id
            }
        };
        refused_both_ways(&db, &scenario(1), &[column, &row, "is NULL"]);
        let doc = diagnosed_undecidable(&db, &scenario(1), "null_value", &row);
        if column == "deployments.org_id" {
            assert_eq!(doc["deployment"]["org_id"], Value::Null);
        }
    }
    // A node the deployment's job targets, with a NULL pool.
    let db = TestDb::scenarios();
    let build_03 = "a0000003-0000-4000-8000-000000000003";
    sql(
        &db,
        &format!(
            "ALTER TABLE fleet_nodes ALTER COLUMN pool DROP NOT NULL;
             UPDATE fleet_nodes SET pool = NULL WHERE id = '{build_03}'"
        ),
    );
    refused_both_ways(
        &db,
        &scenario(2),
        &["fleet_nodes.pool", build_03, "is NULL"],
    );
    diagnosed_undecidable(&db, &scenario(2), "null_value", build_03);
    // A NULL in an older event: the trail (streamed in JSON) shows it, the
    // table warns, and the decision does not rest on it.
    let db = TestDb::scenarios();
    sql(
        &db,
        "ALTER TABLE deployment_events ALTER COLUMN payload DROP NOT NULL;
         ALTER TABLE deployment_events DISABLE TRIGGER USER;
         UPDATE deployment_events SET payload = NULL
         WHERE deployment_id = 'd0000001-0000-4000-8000-000000000001' AND sequence = 1;
         ALTER TABLE deployment_events ENABLE TRIGGER USER",
    );
    let run = db.run(&["diagnose", "d0000001", "-o", "json"]);
    run.assert_code(0);
    let doc = run.json();
    assert_eq!(doc["events"][0]["payload"], Value::Null, "{doc:#}");
    assert_eq!(doc["verdict"]["path"], "operator_failed");
    let table = db.run(&["diagnose", "d0000001", "-o", "table"]);
    table.assert_code(0);
    assert!(table.stdout.contains("older event"), "{}", table.stdout);
}

/// A fleet-wide view as JSON and as a table: the exit code, the document,
/// and the warning on stderr naming `table.column` and `row`.
#[track_caller]
fn view_warns(db: &TestDb, args: &[&str], code: i32, column: &str, row: &str) -> Value {
    let mut json_args = args.to_vec();
    json_args.extend(["-o", "json"]);
    let run = db.run(&json_args);
    run.assert_code(code);
    no_driver_text(&run.stderr);
    let doc = run.json();
    let (table, col) = column.split_once('.').unwrap_or((column, ""));
    let warnings = doc["warnings"].as_array().cloned().unwrap_or_default();
    assert!(
        warnings
            .iter()
            .any(|w| w["table"] == table && w["column"] == col && w["row"] == row),
        "no warning for {column} row {row}: {warnings:#?}"
    );
    let mut table_args = args.to_vec();
    table_args.extend(["-o", "table"]);
    let run = db.run(&table_args);
    run.assert_code(code);
    no_driver_text(&run.stderr);
    assert!(
        run.stderr.contains("warning:") && run.stderr.contains(row),
        "no warning on stderr:\n{}",
        run.stderr
    );
    doc
}

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

/// The event an earlier run wrote, with a NULL where the replay reads a
/// value: the rerun refuses naming the column instead of panicking.
#[test]
fn a_replay_of_an_event_with_a_null_refuses() {
    let db = TestDb::scenarios();
    let id = crate::support::scenario(1);
    let args = [
        "fail-safely",
        id.as_str(),
        "--reason",
        "INC-22 replay null",
        "--yes",
    ];
    db.run(&args).assert_code(0);
    db.client()
        .batch_execute(&format!(
            "ALTER TABLE deployment_events ALTER COLUMN occurred_at DROP NOT NULL;
             SET session_replication_role = replica;
             UPDATE deployment_events SET occurred_at = NULL
             WHERE deployment_id = '{id}' AND kind = 'operator_failed';"
        ))
        .unwrap();
    let rerun = db.run(&args);
    rerun.assert_code(4);
    assert!(
        rerun.stderr.contains("deployment_events.occurred_at")
            && !rerun.stderr.contains("panicked"),
        "{}",
        rerun.stderr
    );
}
