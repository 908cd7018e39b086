//! Timeouts survive the pooler: they are `SET LOCAL` in every transaction,
//! never startup options a pooler drops. A read behind a migration's lock
//! gives up after the lock timeout (exit 5), and a `fail-safely` stopped
//! (SIGSTOP) while its transaction is open loses its session and its locks
//! after the idle-in-transaction timeout, and writes nothing when resumed.

use std::process::Stdio;
use std::time::{Duration, Instant};

use pushleft_controller::testing::pgbouncer::PoolMode;

use super::{MODES, REASON, pooler, run_via};
use crate::support::{self, TestDb, scenario};

#[test]
fn a_read_behind_a_migration_lock_gives_up_through_the_pooler() {
    for mode in MODES {
        let db = TestDb::scenarios();
        let Some(pooler) = pooler(mode, &[], &[]) else {
            return;
        };
        let mut holder = db.client();
        holder
            .batch_execute("BEGIN; LOCK TABLE jobs, application_instances IN ACCESS EXCLUSIVE MODE")
            .unwrap();
        for args in [&["stuck"][..], &["diagnose", "d0000001"][..]] {
            let started = Instant::now();
            let run = run_via(&pooler, &db, "postgres", &[], args);
            run.assert_code(5);
            assert!(
                run.stderr.contains("another session holds a lock"),
                "{mode:?} {args:?}: {}",
                run.stderr
            );
            let took = started.elapsed();
            assert!(
                took < Duration::from_secs(15),
                "{mode:?} {args:?}: {took:?}"
            );
        }
        holder.batch_execute("ROLLBACK").unwrap();
    }
}

#[test]
fn a_stopped_fail_safely_loses_its_locks_after_the_idle_timeout_through_the_pooler() {
    let db = TestDb::scenarios();
    let Some(pooler) = pooler(PoolMode::Transaction, &[], &[]) else {
        return;
    };
    let before = db.dump();
    let id = scenario(1);
    let lock = db.lock_deployment(&id);
    let child = support::bin()
        .env("DATABASE_URL", pooler.conninfo(&db.name, "postgres"))
        .env("PUSHLEFT_IDLE_IN_TRANSACTION_TIMEOUT", "2s")
        .args(["fail-safely", &id, "--reason", REASON, "--yes"])
        .args(["--lock-timeout", "30s"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting fail-safely");
    let mut watcher = db.client();
    let pid = waiting_backend(&mut watcher, &db);
    // Stopped while its row lock wait goes on; then the wait ends, and the
    // backend sits idle in the transaction the stopped client never ends.
    // SAFETY: a signal to our own child process.
    unsafe { libc::kill(child.id() as i32, libc::SIGSTOP) };
    lock.release();
    let released = Instant::now();
    let gone = loop {
        let alive: bool = watcher
            .query_one(
                "SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid = $1)",
                &[&pid],
            )
            .unwrap()
            .get(0);
        if !alive || released.elapsed() > Duration::from_secs(10) {
            break !alive;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let took = released.elapsed();
    // SAFETY: as above.
    unsafe { libc::kill(child.id() as i32, libc::SIGCONT) };
    let output = child.wait_with_output().expect("fail-safely's end");
    assert!(
        gone,
        "its backend still holds the transaction after {took:?}"
    );
    println!("stopped fail-safely lost its session {took:?} after its lock was granted");
    assert!(took < Duration::from_secs(6), "{took:?}");
    assert_ne!(
        output.status.code(),
        Some(0),
        "it committed after the timeout"
    );
    assert_eq!(db.dump(), before, "a stopped fail-safely wrote");
}

/// The backend of the tool waiting for the deployment's lock.
fn waiting_backend(client: &mut postgres::Client, db: &TestDb) -> i32 {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(row) = client
            .query_opt(
                "SELECT pid FROM pg_stat_activity
                 WHERE datname = $1 AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()",
                &[&db.name],
            )
            .unwrap()
        {
            return row.get(0);
        }
        assert!(
            Instant::now() < deadline,
            "fail-safely never waited for the lock"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}
