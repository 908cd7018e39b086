//! On a schema with only its primary keys, unique keys and foreign keys
//! (the control plane's real schema is not ours to index), every read gives
//! the same answer, more slowly: `stuck` notices the missing indexes and
//! reads each table once instead of probing per deployment, and `doctor`
//! warns (exit 0) with the statements that add them.

use postgres::Client;
use pushleft_controller::db::doctor::indexes::expected_indexes;
use pushleft_controller::db::sql::{self, Schema};
use serde_json::Value;

use crate::clock::rebase_to_now;
use crate::support::{TestDb, scenario};

/// What depends on the instant of the read, removed.
fn timeless(mut doc: Value) -> Value {
    fn strip(value: &mut Value) {
        match value {
            Value::Object(map) => {
                for key in [
                    "snapshot",
                    "at",
                    "stuck_for_seconds",
                    "expired_for_seconds",
                    "node_heartbeat_age_seconds",
                    "heartbeat_age_seconds",
                    "age_seconds",
                    "ahead_seconds",
                ] {
                    map.remove(key);
                }
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut doc);
    doc
}

/// `sql/stuck/scan.sql`'s `indexed`, and the alerts' rows of a statement.
fn scan(client: &mut Client, statement: &sql::Statement) -> (bool, Value) {
    let row = statement
        .query(
            client,
            &Schema::public(),
            &[&1_800_000_i64, &60_000_i64, &"public", &60_000_i64],
        )
        .unwrap()
        .remove(0);
    let rows: Value = serde_json::json!({
        "stuck": row.get::<_, Option<Value>>("stuck_rows"),
        "orphaned": row.get::<_, Option<Value>>("orphaned_rows"),
        "clock_skew": row.get::<_, Option<Value>>("clock_skew_rows"),
    });
    (row.get("indexed"), timeless(rows))
}

#[test]
fn every_read_gives_the_same_answer_without_the_tools_indexes() {
    let db = TestDb::scenarios();
    let mut client = db.client();
    rebase_to_now(&mut client);
    // Clock skew, which both variants report: a heartbeat and the last
    // event of a deployment in flight, 2h ahead of the server's clock.
    client
        .batch_execute(&format!(
            "UPDATE fleet_nodes SET last_seen_at = now() + interval '2 hours' WHERE name = 'edge-01';
             INSERT INTO deployment_events (sequence, id, org_id, deployment_id, kind, occurred_at)
             SELECT max(e.sequence) + 1, gen_random_uuid(), d.org_id, d.id, 'building',
                    now() + interval '2 hours'
             FROM deployments d JOIN deployment_events e ON e.deployment_id = d.id
             WHERE d.id = '{}' GROUP BY d.id, d.org_id",
            scenario(2)
        ))
        .unwrap();
    let read_all = || -> Vec<Value> {
        let mut docs = vec![
            db.run(&["stuck", "-o", "json"]).assert_code(0).json(),
            db.run(&["fleet", "list", "-o", "json"])
                .assert_code(0)
                .json(),
        ];
        for n in 1..=8 {
            docs.push(
                db.run(&["diagnose", &scenario(n), "-o", "json"])
                    .assert_code(0)
                    .json(),
            );
        }
        docs.into_iter().map(timeless).collect()
    };
    let with_indexes = read_all();
    let (indexed, probed) = scan(&mut client, &sql::stuck::SCAN);
    assert!(indexed);
    assert_eq!(
        probed["clock_skew"].as_array().map(Vec::len),
        Some(2),
        "{probed:#}"
    );
    assert_ne!(
        probed["stuck"],
        Value::Null,
        "the scenarios have stuck deployments"
    );
    // The one-pass variant finds the same rows, with the indexes too.
    let (_, scanned) = scan(&mut client, &sql::stuck::SCAN_WITHOUT_INDEXES);
    assert_eq!(scanned, probed);

    let dropped = expected_indexes(sql::scripts::SCHEMA.text);
    assert!(dropped.len() >= 10, "{dropped:?}");
    for index in &dropped {
        client
            .batch_execute(&format!("DROP INDEX public.{}", index.name))
            .unwrap();
    }
    let (indexed, nothing) = scan(&mut client, &sql::stuck::SCAN);
    assert!(!indexed, "scan.sql sees that its indexes are gone");
    assert_eq!(
        nothing,
        serde_json::json!({"stuck": null, "orphaned": null, "clock_skew": null})
    );
    assert_eq!(read_all(), with_indexes);

    let doctor = db.run(&["doctor", "-o", "json"]);
    doctor.assert_code(0);
    let (status, detail) = doctor.doctor_check("indexes");
    assert_eq!(status, "warn", "{detail}");
    for index in &dropped {
        assert!(detail.contains(&index.name), "{}: {detail}", index.name);
    }
    // On the screen too: the line is long, and every statement is on it.
    let table = db.run(&["doctor", "-o", "table"]);
    table.assert_code(0);
    let shown = table
        .stdout
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for index in &dropped {
        assert!(
            shown.contains(&format!("CREATE INDEX CONCURRENTLY {}", index.name)),
            "{}: {}",
            index.name,
            table.stdout
        );
    }
}
