//! No statement the tool runs reads a big table with a sequential scan or
//! costs enough to be JIT-compiled, on a table as it is right after a load
//! (analyzed, never vacuumed: no visibility map, so no index-only scan is
//! cheap) and on the same table vacuumed. The generated set is small
//! (scale 0.01), so:
//! - sequential scans are disabled: a plan that still scans a big table
//!   sequentially has no index to use;
//! - the JIT threshold is scaled down with the data (`jit_above_cost`
//!   100,000 × 0.01): a plan over it here would be over it at production
//!   size, where the server would JIT-compile it.
//!
//! A statement that reads whole tables by design (`plans::READS_WHOLE_TABLES`,
//! e.g. stuck's variant for a schema without our indexes) is exempt, with
//! its reason written there.
//!
//! The benchmark (`tests/bench/production.rs`) runs the same check at
//! production size with the server's default settings, in both states.

use postgres::Client;
use pushleft_controller::db::sql;
use pushleft_controller::testing::plans::{self, PlanCheck};
use uuid::Uuid;

use crate::support::TestDb;

const SCALE: f64 = 0.01;

/// Every query of the registry, planned twice: sequential scans off (for
/// the seq-scan check), then with them on and the scaled JIT threshold.
fn problems(client: &mut Client, state: &str, deployment: Uuid) -> Vec<String> {
    let explain = |client: &mut Client, settings: &str| -> Vec<PlanCheck> {
        client.batch_execute(settings).unwrap();
        let checks = plans::explain_all(client, &sql::Schema::public(), deployment).unwrap();
        client.batch_execute("RESET ALL").unwrap();
        checks
    };
    let no_seqscan = explain(client, "SET enable_seqscan = off; SET jit = off");
    assert!(no_seqscan.len() >= 20, "every statement is checked");
    let jit = explain(
        client,
        &format!("SET jit = on; SET jit_above_cost = {}", 100_000.0 * SCALE),
    );
    let mut found = Vec::new();
    for check in &no_seqscan {
        if !check.seq_scans.is_empty() && !check.reads_whole_tables() {
            found.push(format!(
                "{state}: {}: Seq Scan on {}\n{:#}",
                check.name,
                check.seq_scans.join(", "),
                check.plan
            ));
        }
    }
    for check in jit.iter().filter(|c| c.jit_problem()) {
        found.push(format!(
            "{state}: {}: would be JIT-compiled at production size (cost {:.0} at scale {SCALE})\n{:#}",
            check.name, check.total_cost, check.plan
        ));
    }
    found
}

#[test]
fn every_statement_is_index_backed_freshly_loaded_and_vacuumed() {
    let db = TestDb::empty();
    let mut client = db.client();
    client
        .batch_execute(sql::scripts::BENCH_GENERATE.text)
        .unwrap();
    // Freshly loaded: autovacuum must not get there first (the
    // benchmark's own script for its fresh state).
    client
        .batch_execute(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/sql/bench/autovacuum_off.sql"
        )))
        .unwrap();
    let counts = client
        // In flight in proportion too (see generate.sql).
        .query("SELECT * FROM bench.generate($1, NULL, 20)", &[&SCALE])
        .unwrap();
    assert_eq!(counts.len(), 9);
    client.batch_execute("ANALYZE").unwrap();
    let never_vacuumed: i64 = client
        .query_one(
            "SELECT count(*) FROM pg_stat_user_tables
             WHERE schemaname = 'public' AND relname = 'deployment_events'
               AND last_vacuum IS NULL AND last_autovacuum IS NULL",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(never_vacuumed, 1, "the fresh state is really unvacuumed");
    // The first deployments are in flight with the longest trails.
    let deployment: Uuid = client
        .query_one("SELECT bench.uid(2, 1)", &[])
        .unwrap()
        .get(0);

    // The detector itself: a plan over the threshold is reported.
    client
        .batch_execute("SET jit = on; SET jit_above_cost = 0")
        .unwrap();
    let plan: serde_json::Value = client
        .query_one(
            "EXPLAIN (FORMAT JSON) SELECT count(*) FROM deployment_events",
            &[],
        )
        .unwrap()
        .get(0);
    assert!(plan[0].get("JIT").is_some(), "EXPLAIN shows JIT: {plan:#}");
    client.batch_execute("RESET ALL").unwrap();

    let mut found = problems(&mut client, "freshly loaded", deployment);
    client.batch_execute("VACUUM ANALYZE").unwrap();
    found.extend(problems(&mut client, "vacuumed", deployment));
    assert!(found.is_empty(), "{}", found.join("\n\n"));
}
