//! Concurrent replays through PgBouncer: N operators run the same
//! `fail-safely … --yes` at once (transaction pooling hands their
//! transactions to whichever server connection is free): exactly one event,
//! every run exits 0, exactly one says `replayed: false`.

use std::sync::{Arc, Barrier};

use pushleft_controller::testing::pgbouncer::{Pgbouncer, PoolMode};

use super::{REASON, operator_events, pooler, run_via, status_of};
use crate::support::{Run, TestDb, scenario};

const RUNS: usize = 8;

fn at_once(db: &Arc<TestDb>, pooler: &Arc<Pgbouncer>, deployment: &str) -> Vec<Run> {
    let barrier = Arc::new(Barrier::new(RUNS));
    let handles: Vec<_> = (0..RUNS)
        .map(|_| {
            let (db, pooler, barrier) = (Arc::clone(db), Arc::clone(pooler), Arc::clone(&barrier));
            let deployment = deployment.to_string();
            std::thread::spawn(move || {
                barrier.wait();
                run_via(
                    &pooler,
                    &db,
                    "postgres",
                    &[],
                    &[
                        "fail-safely",
                        &deployment,
                        "--reason",
                        REASON,
                        "--yes",
                        "-o",
                        "json",
                    ],
                )
            })
        })
        .collect();
    handles.into_iter().map(|h| h.join().unwrap()).collect()
}

fn replays_at_once(mode: PoolMode, settings: &[(&str, &str)]) {
    let db = Arc::new(TestDb::scenarios());
    let Some(pooler) = pooler(mode, settings, &[]) else {
        return;
    };
    let pooler = Arc::new(pooler);
    for (n, kind, status) in [
        (3, "teardown_requested", "teardown_queued"),
        (1, "operator_failed", "failed"),
    ] {
        let id = scenario(n);
        let runs = at_once(&db, &pooler, &id);
        let mut applied = 0;
        for run in &runs {
            run.assert_code(0);
            let json = run.json();
            assert_eq!(json["path"], kind, "{json:#}");
            if json["replayed"] == false {
                applied += 1;
            } else {
                assert_eq!(json["replayed"], true, "{json:#}");
            }
        }
        assert_eq!(
            applied, 1,
            "exactly one of {RUNS} runs applies ({mode:?} pooling, {settings:?})"
        );
        let events = operator_events(&db, &id);
        assert_eq!(events.len(), 1, "exactly one event: {events:?}");
        assert_eq!(events[0].0, kind);
        assert_eq!(status_of(&db, &id), status);
    }
}

#[test]
fn eight_replays_at_once_through_session_pooling_write_one_event() {
    replays_at_once(PoolMode::Session, &[]);
}

#[test]
fn eight_replays_at_once_through_transaction_pooling_write_one_event() {
    replays_at_once(PoolMode::Transaction, &[]);
}

/// Two server connections for eight clients: transactions queue in
/// PgBouncer and run one after another on the same connections.
#[test]
fn eight_replays_at_once_on_two_server_connections_write_one_event() {
    replays_at_once(PoolMode::Transaction, &[("default_pool_size", "2")]);
}
