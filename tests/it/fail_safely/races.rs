//! What runs beside fail-safely: a dispatcher committing while it waits for
//! the locks, and a lock held elsewhere past `--lock-timeout`.

use super::*;

/// How a concurrent dispatcher makes a deployment "dispatched".
#[derive(Debug, Clone, Copy)]
enum Dispatch {
    Target,
    Lease,
    Result,
    ActiveNode,
}

const DISPATCH_SQL: [(Dispatch, &str); 4] = [
    (
        Dispatch::Target,
        "UPDATE jobs SET target_node_id = 'a0000001-0000-4000-8000-000000000001' WHERE id = $1",
    ),
    (
        Dispatch::Lease,
        "UPDATE jobs SET status = 'leased', lease_token = gen_random_uuid(), lease_expires_at = now() + interval '5 minutes' WHERE id = $1",
    ),
    (
        Dispatch::Result,
        "INSERT INTO agent_job_results VALUES (gen_random_uuid(), $1, 'a0000001-0000-4000-8000-000000000001', 1, gen_random_uuid(), 'failed', '{}', now())",
    ),
    (
        Dispatch::ActiveNode,
        "UPDATE application_instances SET active_node_id = 'a0000001-0000-4000-8000-000000000001' WHERE id = $2 AND $1::uuid IS NOT NULL",
    ),
];

#[test]
fn a_concurrent_dispatcher_never_ends_failed_with_earlier_dispatch() {
    let db = TestDb::scenarios();
    let mut setup = db.client();
    let iterations = 96;
    let mut failed_runs = 0;
    let mut teardowns = 0;
    for i in 0..iterations {
        let (dispatch, statement) = DISPATCH_SQL[i % 4];
        let deployment = Uuid::new_v4();
        let job = Uuid::new_v4();
        let instance = Uuid::new_v4();
        setup
            .execute(
                "WITH d AS (INSERT INTO deployments VALUES ($1, gen_random_uuid(), 'queued', now() - interval '1 hour', now() - interval '1 hour') RETURNING id)
                 INSERT INTO jobs (id, deployment_id, kind, status) SELECT $2, id, 'build', 'queued' FROM d",
                &[&deployment, &job],
            )
            .unwrap();
        setup
            .execute(
                "INSERT INTO application_instances VALUES ($1, $2, 'web', 'pending', NULL, 1)",
                &[&instance, &deployment],
            )
            .unwrap();
        let barrier = Arc::new(Barrier::new(2));
        let dispatcher = {
            let barrier = Arc::clone(&barrier);
            let mut client = db.client();
            std::thread::spawn(move || {
                barrier.wait();
                // Vary who goes first, and land inside fail-safely's
                // transaction as often as before or after it.
                // Every eighth round the dispatcher comes late for sure.
                let delay = if i % 8 == 0 {
                    80_000
                } else {
                    (i as u64 * 1_931) % 12_000
                };
                std::thread::sleep(Duration::from_micros(delay));
                let mut tx = client.transaction().unwrap();
                let changed = match dispatch {
                    Dispatch::ActiveNode => tx.execute(statement, &[&job, &instance]),
                    _ => tx.execute(statement, &[&job]),
                }
                .unwrap_or_else(|e| panic!("{dispatch:?}: {e:?}"));
                // What the dispatcher saw after its own write (read committed).
                let seen: String = tx
                    .query_one(
                        "SELECT status FROM deployments WHERE id = $1",
                        &[&deployment],
                    )
                    .unwrap()
                    .get(0);
                tx.commit().unwrap();
                (changed, seen)
            })
        };
        let mut client = Session::from(db.client());
        barrier.wait();
        std::thread::sleep(Duration::from_micros((i as u64 * 251) % 3_000));
        let outcome = fail_safely::execute(
            &mut client,
            &request(&deployment.to_string(), "INC-race"),
            &mut |_| {},
        )
        .expect("fail-safely decides one of the two paths");
        let (changed, seen_by_dispatcher) = dispatcher.join().unwrap();
        assert!(
            changed == 1 || matches!(dispatch, Dispatch::ActiveNode),
            "{dispatch:?}"
        );
        let final_status: String = setup
            .query_one(
                "SELECT status FROM deployments WHERE id = $1",
                &[&deployment],
            )
            .unwrap()
            .get(0);
        match outcome.path {
            Path::OperatorFailed => {
                failed_runs += 1;
                assert_eq!(final_status, "failed");
                // The dispatch committed, so it must have committed after us:
                // it waited for our locks and then saw `failed`.
                assert_eq!(
                    seen_by_dispatcher, "failed",
                    "iteration {i} ({dispatch:?}): a dispatch committed before the decision, yet the deployment was failed"
                );
            }
            Path::TeardownRequested => {
                teardowns += 1;
                assert_eq!(final_status, "teardown_queued");
            }
            Path::None => panic!("iteration {i}: no path"),
        }
    }
    eprintln!("dispatcher race: {failed_runs} operator_failed, {teardowns} teardown_requested");
    assert_eq!(failed_runs + teardowns, iterations);
    // Both orders happened, so the race was really run.
    assert!(
        failed_runs > 0 && teardowns > 0,
        "{failed_runs} failed, {teardowns} teardowns"
    );
}

#[test]
fn a_lock_held_elsewhere_times_out_with_exit_5_and_a_rerun_succeeds() {
    let db = TestDb::scenarios();
    let lock = db.lock_deployment(&scenario(1));
    let before = db.dump();
    let started = Instant::now();
    let run = db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-10",
        "--yes",
        "--lock-timeout",
        "1s",
    ]);
    let waited = started.elapsed();
    run.assert_code(5);
    assert!(
        run.stderr.contains("another transaction holds deployment"),
        "{}",
        run.stderr
    );
    assert!(
        waited < Duration::from_secs(10),
        "gave up on its own ({waited:?})"
    );
    assert_eq!(db.dump(), before, "nothing written");
    lock.release();
    db.run(&["fail-safely", "d0000001", "--reason", "INC-10", "--yes"])
        .assert_code(0);
    assert_eq!(status_of(&db, &scenario(1)), "failed");
}

/// The lock timeout is known by its type, not its words: the db layer
/// classified the server's 55P03 once, the sentence that explains it still
/// says which failure it is, and its exit code comes from that.
#[test]
fn a_lock_timeout_is_classified_by_type() {
    use pushleft_controller::db_failure::DbFailure;
    use pushleft_controller::exit::{self, ExitCode};
    let db = TestDb::scenarios();
    let lock = db.lock_deployment(&scenario(1));
    let mut client = Session::from(db.client());
    let err = fail_safely::execute(
        &mut client,
        &Request {
            lock_timeout: Duration::from_millis(200),
            ..request("d0000001", "INC-10 lock")
        },
        &mut |_| {},
    )
    .expect_err("the lock is held elsewhere");
    assert_eq!(
        exit::db_failure(&err),
        Some(DbFailure::LockTimeout),
        "{err:#}"
    );
    assert_eq!(exit::code_for(&err), ExitCode::Conflict);
    assert_eq!(exit::kind_for(&err), exit::ErrorKind::Conflict);
    lock.release();
}
