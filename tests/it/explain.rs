//! No statement the tool runs reads a big table with a sequential scan.
//! On a small generated set the planner would rightly pick sequential
//! scans for tiny tables, so they are disabled here: a plan that still
//! scans sequentially has no index to use. (The benchmark checks the real
//! plans at production size.)

use pushleft_controller::db::sql;
use pushleft_controller::testing::plans;
use uuid::Uuid;

use crate::support::TestDb;

#[test]
fn every_statement_is_index_backed() {
    let db = TestDb::empty();
    let mut client = db.client();
    client
        .batch_execute(sql::scripts::BENCH_GENERATE.text)
        .unwrap();
    let counts = client
        .query("SELECT * FROM bench.generate(0.01)", &[])
        .unwrap();
    assert_eq!(counts.len(), 9);
    client.batch_execute("SET enable_seqscan = off").unwrap();
    // The first deployments are in flight with the longest trails.
    let deployment: Uuid = client
        .query_one("SELECT bench.uid(2, 1)", &[])
        .unwrap()
        .get(0);
    let checks = plans::explain_all(&mut client, &sql::Schema::public(), deployment).unwrap();
    assert!(checks.len() >= 20, "every statement is checked");
    let offenders: Vec<String> = checks
        .iter()
        .filter(|c| !c.seq_scans.is_empty())
        .map(|c| {
            format!(
                "{}: Seq Scan on {}\n{:#}",
                c.name,
                c.seq_scans.join(", "),
                c.plan
            )
        })
        .collect();
    assert!(offenders.is_empty(), "{}", offenders.join("\n\n"));
}
