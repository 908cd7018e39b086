//! Look-alikes of built-ins planted by a less privileged role (see
//! `planted.rs`) never run, whichever way the operator connects: directly,
//! through session or transaction pooling, and through a PgBouncer that
//! drops the `options` startup parameter (`ignore_startup_parameters =
//! options`, what teams set so that clients sending it get in). Every
//! command gives what it gives on a clean database, and writes only what
//! the runbook writes.

use pushleft_controller::testing::pgbouncer::PoolMode;
use serde_json::Value;

use super::planted::{Plant, Planted, plant};
use super::{
    REASON, Via, doctor_statuses, normalized, operator_events, pinned_dump, pooler, run_direct,
    status_of, without_written_tables,
};
use crate::support::{Run, TestDb, scenario};

/// The reads every run is compared with, made as `postgres` directly
/// before anything was planted.
pub const READS: [&[&str]; 5] = [
    &["diagnose", "d0000003", "-o", "json"],
    &["stuck", "-o", "json"],
    &["fleet", "list", "-o", "json"],
    &["history", "-o", "json"],
    &["wait", "d0000006", "--timeout", "5s", "-o", "json"],
];

pub fn clean_reads(db: &TestDb) -> Vec<Value> {
    READS
        .iter()
        .map(|args| {
            let run = run_direct(db, "postgres", &[], args);
            run.assert_code(0);
            normalized(&run.json())
        })
        .collect()
}

/// Nothing planted ran (so far): else the test fails naming what did.
#[track_caller]
fn assert_nothing_ran(planted: &Planted, after: &str, via: &Via, run: &Run) {
    let ran = planted.ran();
    assert!(
        ran.is_empty(),
        "{after} {}: planted code ran in the operator's place: {ran:?}\nstderr:\n{}",
        via.name(),
        run.stderr
    );
}

#[track_caller]
fn run_ok(db: &TestDb, planted: &Planted, via: &Via, args: &[&str]) -> Run {
    let run = via.run(db, &planted.operator, &[], args);
    assert!(
        run.code == 0,
        "{args:?} {} exited {} (planted code in the way?)\nstdout:\n{}\nstderr:\n{}",
        via.name(),
        run.code,
        run.stdout,
        run.stderr
    );
    assert_nothing_ran(planted, &format!("{args:?}"), via, &run);
    run
}

/// Every command through `via` as the planted-on operator.
fn every_command(db: &TestDb, planted: &Planted, via: Via, clean: &[Value]) {
    let before = pinned_dump(db);
    let doctor = run_ok(db, planted, &via, &["doctor", "-o", "json"]);
    let failed: Vec<_> = doctor_statuses(&doctor)
        .into_iter()
        .filter(|(_, status)| status == "fail")
        .collect();
    assert!(failed.is_empty(), "doctor {}: {failed:?}", via.name());
    run_ok(db, planted, &via, &["doctor"]);
    for (args, clean) in READS.iter().zip(clean) {
        let run = run_ok(db, planted, &via, args);
        assert_eq!(
            &normalized(&run.json()),
            clean,
            "{args:?} {}: not what a clean database gives",
            via.name()
        );
    }
    run_ok(db, planted, &via, &["diagnose", "d0000003"]);
    run_ok(db, planted, &via, &["stuck"]);
    let d3 = scenario(3);
    let dry = [
        "fail-safely",
        &d3,
        "--reason",
        REASON,
        "--dry-run",
        "-o",
        "json",
    ];
    run_ok(db, planted, &via, &dry);
    assert_eq!(pinned_dump(db), before, "--dry-run {} wrote", via.name());

    let yes = [
        "fail-safely",
        &d3,
        "--reason",
        REASON,
        "--yes",
        "-o",
        "json",
    ];
    let run = run_ok(db, planted, &via, &yes);
    assert_eq!(run.json()["replayed"], false);
    assert_eq!(run.json()["path"], "teardown_requested");
    let replay = run_ok(db, planted, &via, &yes);
    assert_eq!(replay.json()["replayed"], true);
    // The teardown waits for the dead edge-07: with --wait-for-node, wait
    // keeps looking and times out (exit 6).
    let wait = [
        "wait",
        &d3,
        "--wait-for-node",
        "--timeout",
        "1s",
        "--interval",
        "200ms",
    ];
    let run = via.run(db, &planted.operator, &[], &wait);
    run.assert_code(6);
    assert_nothing_ran(planted, "wait", &via, &run);
    assert_eq!(status_of(db, &d3), "teardown_queued");
    assert_eq!(operator_events(db, &d3).len(), 1, "exactly one event");
    assert_eq!(
        without_written_tables(&pinned_dump(db)),
        without_written_tables(&before),
        "fail-safely {} wrote outside deployments and deployment_events",
        via.name()
    );
}

fn planted_db(what: Plant) -> (TestDb, Planted, Vec<Value>) {
    let db = TestDb::scenarios();
    let clean = clean_reads(&db);
    let planted = plant(&db, what);
    assert!(planted.count > 300, "only {} look-alikes", planted.count);
    (db, planted, clean)
}

fn through(what: Plant, mode: PoolMode, settings: &[(&str, &str)]) {
    let (db, planted, clean) = planted_db(what);
    let Some(pooler) = pooler(mode, settings, &[&planted.operator]) else {
        return;
    };
    every_command(&db, &planted, Via::Pooler(&pooler), &clean);
}

const IGNORE_OPTIONS: &[(&str, &str)] = &[("ignore_startup_parameters", "options")];

#[test]
fn evil_first_in_the_search_path_directly() {
    let (db, planted, clean) = planted_db(Plant::EvilFirst);
    every_command(&db, &planted, Via::Direct, &clean);
}

#[test]
fn evil_first_in_the_search_path_through_session_pooling() {
    through(Plant::EvilFirst, PoolMode::Session, &[]);
}

#[test]
fn evil_first_in_the_search_path_through_transaction_pooling() {
    through(Plant::EvilFirst, PoolMode::Transaction, &[]);
}

#[test]
fn evil_first_in_the_search_path_through_a_pooler_dropping_options() {
    through(Plant::EvilFirst, PoolMode::Session, IGNORE_OPTIONS);
    through(Plant::EvilFirst, PoolMode::Transaction, IGNORE_OPTIONS);
}

#[test]
fn look_alikes_in_public_directly() {
    let (db, planted, clean) = planted_db(Plant::Public);
    every_command(&db, &planted, Via::Direct, &clean);
}

#[test]
fn look_alikes_in_public_through_session_pooling() {
    through(Plant::Public, PoolMode::Session, &[]);
}

#[test]
fn look_alikes_in_public_through_transaction_pooling() {
    through(Plant::Public, PoolMode::Transaction, &[]);
}

/// What c0c51f4 is known to fall for: its startup options dropped, the
/// reads of stuck, diagnose and wait ran `public.array_agg(text)`.
#[test]
fn look_alikes_in_public_through_a_pooler_dropping_options() {
    through(Plant::Public, PoolMode::Session, IGNORE_OPTIONS);
    through(Plant::Public, PoolMode::Transaction, IGNORE_OPTIONS);
}

/// The attack is real: in a plain session of the operator each of these
/// runs planted code (then the traces are cleared).
fn assert_attack_is_real(db: &TestDb, planted: &Planted, queries: &[&str]) {
    let conninfo = format!("{} user={}", db.conninfo, planted.operator);
    let mut operator = postgres::Client::connect(&conninfo, postgres::NoTls).unwrap();
    for query in queries {
        let before = planted.ran().len();
        operator
            .simple_query(query)
            .unwrap_or_else(|e| panic!("{query}: {e:?}"));
        assert!(
            planted.ran().len() > before,
            "{query} ran nothing planted: the test would prove nothing"
        );
    }
    db.client().batch_execute("TRUNCATE evil.ran").unwrap();
}

#[test]
fn the_look_alikes_run_in_a_plain_session() {
    let (db, planted, _) = planted_db(Plant::EvilFirst);
    assert_attack_is_real(
        &db,
        &planted,
        &[
            "SELECT now()",
            "SELECT lower('A')",
            "SELECT current_setting('search_path')",
            "SELECT set_config('jit', 'off', true)",
            "SELECT 'a'::pg_catalog.text = 'b'::pg_catalog.text",
            "SELECT 1 FROM pg_catalog.pg_class WHERE relname ~~ 'pg_clas%'",
            "SELECT count(*) FROM pg_catalog.pg_am",
            "SELECT relname FROM pg_class LIMIT 1",
            "SELECT '00000000-0000-0000-0000-000000000000'::uuid",
            "SELECT max(x) FROM (VALUES (1::pg_catalog.int8)) v(x)",
            "SELECT pg_is_in_recovery()",
        ],
    );
    let (db, planted, _) = planted_db(Plant::Public);
    assert_attack_is_real(
        &db,
        &planted,
        &[
            "SELECT array_agg(x) FROM (VALUES ('a'::text)) v(x)",
            "SELECT jsonb_agg(x) FROM (VALUES ('{}'::jsonb)) v(x)",
            "SELECT count(x) FROM (VALUES (1)) v(x)",
            "SELECT to_jsonb('a'::text)",
            "SELECT cardinality(ARRAY['a'::text])",
            "SELECT ARRAY['a'::text] @> ARRAY['a'::text]",
            "SELECT x FROM unnest(ARRAY[1::bigint]) x",
        ],
    );
}
