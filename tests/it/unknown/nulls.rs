//! A NULL where the reference schema says NOT NULL, in a row the decision
//! reads: fail-safely refuses naming the table, the column and the row,
//! also when the row is an earlier run's event that a rerun replays.

use super::*;

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
