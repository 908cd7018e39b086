//! Test support: one throwaway PostgreSQL per test binary (the same
//! `cluster` module the sandbox uses), a schema-loaded template, and a fresh
//! database per test cloned from it, so tests run in parallel and never
//! share state. `PUSHLEFT_TEST_DATABASE_URL` points all of it at an existing
//! server instead.

#![allow(dead_code)]

mod binary;
mod cluster;
mod database;
mod times;

pub use binary::{Run, bin, in_sandbox};
pub use cluster::cluster_socket;
pub use database::TestDb;

/// The full id of a sandbox scenario deployment, by number (1..=9).
pub fn scenario(n: u8) -> String {
    format!("d000000{n}-0000-4000-8000-00000000000{n}")
}

/// A dead node stranding `n` deployments: each deploying for 2 hours with
/// no event, its instance active on edge-07 (offline for 3 hours).
pub fn strand_on_edge_07(db: &TestDb, n: u32) {
    db.client()
        .batch_execute(&format!(
            "INSERT INTO deployments (id, org_id, status, created_at, updated_at)
             SELECT ('e' || lpad(to_hex(g), 7, '0') || '-0000-4000-8000-000000000000')::uuid,
                    'c0000009-0000-4000-8000-000000000009', 'deploying',
                    now() - interval '2 hours', now() - interval '2 hours'
             FROM generate_series(1, {n}) g;
             INSERT INTO application_instances (id, deployment_id, role_name, status,
                                                active_node_id, generation)
             SELECT ('f' || lpad(to_hex(g), 7, '0') || '-0000-4000-8000-000000000000')::uuid,
                    ('e' || lpad(to_hex(g), 7, '0') || '-0000-4000-8000-000000000000')::uuid,
                    'web', 'running', 'a0000012-0000-4000-8000-000000000012', 1
             FROM generate_series(1, {n}) g;"
        ))
        .expect("stranding deployments on edge-07");
}

/// The scenarios with one NULL where the reference schema says NOT NULL
/// (`row` a condition), so that the `warnings` list has an element.
pub fn with_null(table: &str, column: &str, row: &str) -> TestDb {
    let (db, t) = (TestDb::scenarios(), table);
    let sql = format!(
        "ALTER TABLE {t} ALTER {column} DROP NOT NULL; ALTER TABLE {t} DISABLE TRIGGER USER;
         UPDATE {t} SET {column} = NULL WHERE {row}; ALTER TABLE {t} ENABLE TRIGGER USER"
    );
    db.client().batch_execute(&sql).unwrap();
    db
}
