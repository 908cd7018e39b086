//! The documents of the commands that only read: diagnose, fleet list,
//! stuck, history and doctor.

use super::*;

#[test]
fn diagnose_documents_every_key_it_prints() {
    let db = TestDb::scenarios();
    // Together the nine scenarios fill every list: results and routes (3,
    // 5), network attachments (4), evidence (2, 3, 8).
    let mut documents: Vec<Value> = (1..=9)
        .map(|n| json(&db, &["diagnose", &scenario(n)], 0))
        .collect();
    // Read through row-level security: `cannot_vouch` and the policies.
    let filtered = filtered_role(&db);
    documents.push(json_as(&db, &filtered, &["diagnose", &scenario(2)]));
    assert_documented("pushleft-controller-diagnose", &documents);
    drop_filtered_role(&db);
}

#[test]
fn fleet_list_documents_every_key_it_prints() {
    let db = TestDb::scenarios();
    let fleet = json(&db, &["fleet", "list"], 0);
    let odd = with_null("fleet_nodes", "pool", "name = 'build-03'");
    ahead_of_the_clock(&odd);
    let warned = json(&odd, &["fleet", "list"], 0);
    assert_documented("pushleft-controller-fleet-list", &[fleet, warned]);
}

#[test]
fn stuck_documents_every_key_it_prints() {
    let db = TestDb::scenarios();
    let stuck = json(&db, &["stuck"], 0);
    for list in ["deployments_stuck", "leases_orphaned"] {
        let found = stuck[list].as_array().map_or(0, Vec::len);
        assert!(found > 0, "the scenarios have no {list}: nothing to check");
    }
    let grouped = json(&db, &["stuck", "--group-by", "node", "--limit", "1"], 0);
    assert!(grouped["groups"].is_array() && grouped["left_out"].is_object());
    let odd = with_null("deployments", "org_id", "status = 'building'");
    ahead_of_the_clock(&odd);
    let warned = json(&odd, &["stuck"], 0);
    let filtered = filtered_role(&db);
    let blind = json_as(&db, &filtered, &["stuck"]);
    assert!(!blind["cannot_tell"].as_array().is_none_or(Vec::is_empty));
    assert_documented(
        "pushleft-controller-stuck",
        &[stuck, grouped, warned, blind],
    );
    drop_filtered_role(&db);
}

/// A login role that may read every table, filtered by a policy on jobs:
/// its connection string.
pub(super) fn filtered_role(db: &TestDb) -> String {
    let role = format!("rls_{}", db.name);
    db.client()
        .batch_execute(&format!(
            "CREATE ROLE {role} LOGIN;
             GRANT USAGE ON SCHEMA public TO {role};
             GRANT SELECT ON ALL TABLES IN SCHEMA public TO {role};
             ALTER TABLE jobs ENABLE ROW LEVEL SECURITY;
             CREATE POLICY hide_targeted ON jobs TO {role} USING (target_node_id IS NULL);"
        ))
        .unwrap();
    format!("{} user={role}", db.conninfo)
}

pub(super) fn drop_filtered_role(db: &TestDb) {
    let role = format!("rls_{}", db.name);
    let _ = db.client().batch_execute(&format!(
        "DROP OWNED BY {role} CASCADE; DROP ROLE IF EXISTS {role}"
    ));
}

/// [`json`] connected as `url`, exit 0.
fn json_as(db: &TestDb, url: &str, args: &[&str]) -> Value {
    json_as_code(db, url, args, 0)
}

/// [`json`] connected as `url`.
pub(super) fn json_as_code(db: &TestDb, url: &str, args: &[&str], code: i32) -> Value {
    let mut args = args.to_vec();
    args.extend(["-o", "json"]);
    crate::guard::run_with(db, &[("DATABASE_URL", url)], &args)
        .assert_code(code)
        .json()
}

/// A heartbeat ahead of the server's clock: `clock_skew` is not empty.
fn ahead_of_the_clock(db: &TestDb) {
    db.client()
        .batch_execute(
            "UPDATE fleet_nodes SET last_seen_at = now() + interval '2 hours' WHERE name = 'edge-01'",
        )
        .unwrap();
}

#[test]
fn history_documents_every_key_it_prints() {
    let db = TestDb::scenarios();
    // One action with the tool's audit; the scenarios' own were typed by
    // hand (no audit at all).
    json(
        &db,
        &[
            "fail-safely",
            "d0000001",
            "--reason",
            "INC-4711 json docs",
            "--yes",
        ],
        0,
    );
    // And one written alone under the two-person rule (its approval).
    json(
        &db,
        &[
            "fail-safely",
            "d0000002",
            "--reason",
            "INC-4711 json docs",
            "--yes",
            "--break-glass-alone",
        ],
        0,
    );
    let history = json(&db, &["history"], 0);
    assert!(history["actions"][0]["audit"]["tool"].is_string());
    assert_eq!(
        history["actions"][0]["audit"]["approval"]["self_approved"],
        true
    );
    let odd = with_null("deployment_events", "org_id", "kind = 'operator_failed'");
    let warned = json(&odd, &["history"], 0);
    assert_documented("pushleft-controller-history", &[history, warned]);
}

#[test]
fn doctor_documents_every_key_it_prints() {
    let db = TestDb::scenarios();
    let doctor = json(&db, &["doctor"], 0);
    assert_documented("pushleft-controller-doctor", &[doctor]);
}
