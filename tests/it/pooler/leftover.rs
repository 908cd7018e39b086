//! Session state another client of the pool left behind. In transaction
//! pooling PgBouncer runs no reset query: a session-level `SET` by one
//! client stays on the server connection the next client gets. With
//! `default_pool_size = 1` every client gets that one connection. Then the
//! binary through the same pool must behave exactly as without that state:
//! reads the same, fail-safely writes what the runbook writes with every
//! trigger firing (a vouched-for trigger writing jobs is still caught), and
//! nothing planted behind the left-over search_path runs.

use postgres::{Client, NoTls};
use pushleft_controller::testing::pgbouncer::{Pgbouncer, PoolMode};

use super::planted::{Plant, Planted, plant};
use super::shadowing::{READS, clean_reads};
use super::triggers::{assert_guard_holds, plant_jobs_trigger};
use super::{
    REASON, Via, normalized, operator_events, pinned_dump, pooler, run_via, status_of,
    without_written_tables,
};
use crate::support::{TestDb, scenario};

const ISOLATION: (&str, &str) = ("default_transaction_isolation", "'repeatable read'");
const REPLICA: (&str, &str) = ("session_replication_role", "replica");
const SEARCH_PATH: (&str, &str) = ("search_path", "evil, pg_catalog");
const READ_ONLY: (&str, &str) = ("default_transaction_read_only", "on");

/// The other client: connects through the pool, SETs, and is returned (to
/// stay idle) or dropped (disconnects). Asserts that the state leaks.
fn leave_state(pooler: &Pgbouncer, db: &TestDb, sets: &[(&str, &str)]) -> Client {
    let conninfo = pooler.conninfo(&db.name, "postgres");
    let mut other = Client::connect(&conninfo, NoTls).expect("the other client connects");
    let sql: String = sets
        .iter()
        .map(|(name, value)| format!("SET {name} = {value};"))
        .collect();
    other.batch_execute(&sql).expect("the other client's SET");
    // The test proves something only if the next client sees it.
    let mut next = Client::connect(&conninfo, NoTls).expect("a second client");
    for (name, value) in sets {
        let shown = next.simple_query(&format!("SHOW {name}")).unwrap();
        let shown = shown.iter().find_map(|m| match m {
            postgres::SimpleQueryMessage::Row(row) => row.get(0).map(str::to_string),
            _ => None,
        });
        assert_eq!(
            shown.as_deref().map(|s| s.replace(' ', "")),
            Some(value.trim_matches('\'').replace(' ', "")),
            "the left-over {name} does not reach the next client: the test would prove nothing"
        );
    }
    other
}

/// The left-over replica role is real: a client that takes the session as
/// it finds it updates a deployment and the trigger does not fire (its
/// statements name pg_catalog's operators: nothing planted runs here).
fn assert_triggers_stay_silent_for_a_naive_client(pooler: &Pgbouncer, db: &TestDb) {
    let conninfo = pooler.conninfo(&db.name, "postgres");
    let mut naive = Client::connect(&conninfo, NoTls).expect("a naive client");
    let rows = naive
        .simple_query(
            "BEGIN READ WRITE;
             UPDATE public.deployments SET updated_at = updated_at
             WHERE id OPERATOR(pg_catalog.=) 'd0000003-0000-4000-8000-000000000003';
             SELECT pg_catalog.sum(attempt)::pg_catalog.text FROM public.jobs
             WHERE deployment_id OPERATOR(pg_catalog.=) 'd0000003-0000-4000-8000-000000000003';
             ROLLBACK;",
        )
        .expect("the naive client's update");
    let bumped: Vec<String> = rows
        .iter()
        .filter_map(|m| match m {
            postgres::SimpleQueryMessage::Row(row) => row.get(0).map(str::to_string),
            _ => None,
        })
        .collect();
    let before: i64 = db
        .client()
        .query_one(
            "SELECT sum(attempt) FROM public.jobs
             WHERE deployment_id = 'd0000003-0000-4000-8000-000000000003'",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(
        bumped,
        vec![before.to_string()],
        "the trigger fired for a client in the left-over session: the test would prove nothing"
    );
}

fn with_left_over_state(sets: &[(&str, &str)], stay_idle: bool) {
    let db = TestDb::scenarios();
    let clean = clean_reads(&db);
    let planted: Option<Planted> = sets
        .iter()
        .any(|(name, _)| *name == "search_path")
        .then(|| plant(&db, Plant::EvilFirst));
    let Some(pooler) = pooler(PoolMode::Transaction, &[("default_pool_size", "1")], &[]) else {
        return;
    };
    let other = leave_state(&pooler, &db, sets);
    let _idle = if stay_idle { Some(other) } else { None };

    plant_jobs_trigger(&db);
    if sets.contains(&REPLICA) {
        assert_triggers_stay_silent_for_a_naive_client(&pooler, &db);
    }
    assert_guard_holds(&db, Via::Pooler(&pooler), "postgres");
    db.client()
        .batch_execute("DROP TRIGGER sneaky ON public.deployments")
        .unwrap();

    for (args, clean) in READS.iter().zip(&clean) {
        let run = run_via(&pooler, &db, "postgres", &[], args);
        run.assert_code(0);
        assert_eq!(
            &normalized(&run.json()),
            clean,
            "{args:?} with {sets:?} left over"
        );
    }
    let before = pinned_dump(&db);
    let d1 = scenario(1);
    let yes = [
        "fail-safely",
        &d1,
        "--reason",
        REASON,
        "--yes",
        "-o",
        "json",
    ];
    let run = run_via(&pooler, &db, "postgres", &[], &yes);
    run.assert_code(0);
    assert_eq!(run.json()["path"], "operator_failed", "{}", run.stdout);
    assert_eq!(run.json()["replayed"], false);
    let replay = run_via(&pooler, &db, "postgres", &[], &yes);
    replay.assert_code(0);
    assert_eq!(replay.json()["replayed"], true);
    assert_eq!(status_of(&db, &d1), "failed");
    assert_eq!(operator_events(&db, &d1).len(), 1, "exactly one event");
    assert_eq!(
        without_written_tables(&pinned_dump(&db)),
        without_written_tables(&before)
    );
    if let Some(planted) = &planted {
        assert_eq!(planted.ran(), Vec::<String>::new(), "planted code ran");
    }
}

#[test]
fn left_over_repeatable_read_changes_nothing() {
    with_left_over_state(&[ISOLATION], false);
}

#[test]
fn left_over_replica_role_changes_nothing() {
    with_left_over_state(&[REPLICA], false);
}

#[test]
fn left_over_search_path_changes_nothing() {
    with_left_over_state(&[SEARCH_PATH], false);
}

#[test]
fn left_over_read_only_changes_nothing() {
    with_left_over_state(&[READ_ONLY], false);
}

#[test]
fn all_of_it_left_over_changes_nothing() {
    with_left_over_state(&[ISOLATION, REPLICA, SEARCH_PATH, READ_ONLY], false);
}

/// The same while the client that set it all stays connected, idle.
#[test]
fn all_of_it_set_by_an_idle_client_changes_nothing() {
    with_left_over_state(&[ISOLATION, REPLICA, SEARCH_PATH, READ_ONLY], true);
}

#[test]
fn left_over_replica_role_by_an_idle_client_changes_nothing() {
    with_left_over_state(&[REPLICA], true);
}
