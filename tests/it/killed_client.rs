//! A `fail-safely` killed (SIGKILL: an operator's `kill -9`, a closed
//! laptop, an OOM kill) while it waits for a row lock lets go of its locks
//! at once. Otherwise its backend goes on waiting — for up to
//! `--lock-timeout` — holding the idempotency key's advisory lock and its
//! table locks, and the operator's immediate rerun waits behind a dead
//! process and times out (exit 5) instead of doing the job.

use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use postgres::Client;

use crate::support::{Run, TestDb, scenario};

const REASON: &str = "INC-8 killed client";

/// How soon the dead client's backend must be gone: the server checks the
/// connection every second while it waits (client_connection_check_interval);
/// the rest is slack for a loaded machine.
const RELEASED_WITHIN: Duration = Duration::from_millis(2500);

/// How long to watch for the release before giving up and reporting.
const WATCH_FOR: Duration = Duration::from_secs(5);

/// The pid of the tool's backend on this database once it waits for a
/// lock; fails when the tool exits first or never gets there.
fn wait_until_waiting(client: &mut Client, db: &TestDb, child: &mut Child) -> i32 {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let row = client
            .query_opt(
                "SELECT pid FROM pg_stat_activity
                 WHERE datname = $1 AND application_name LIKE 'pushleft-controller%'
                   AND wait_event_type = 'Lock'",
                &[&db.name],
            )
            .expect("reading pg_stat_activity");
        if let Some(row) = row {
            return row.get(0);
        }
        if let Some(status) = child.try_wait().expect("polling the tool") {
            let mut stderr = String::new();
            if let Some(mut pipe) = child.stderr.take() {
                let _ = std::io::Read::read_to_string(&mut pipe, &mut stderr);
            }
            panic!("fail-safely exited ({status}) before waiting for the lock:\n{stderr}");
        }
        assert!(
            Instant::now() < deadline,
            "fail-safely never waited for the deployment's lock"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Whether backend `pid` is still there, and the locks it holds or waits
/// for (`locktype mode granted|waiting ×count`).
fn backend(client: &mut Client, pid: i32) -> (bool, Vec<String>) {
    let row = client
        .query_one(
            "SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid = $1),
                    array(SELECT format('%s %s %s ×%s', locktype, mode,
                                        CASE WHEN granted THEN 'granted' ELSE 'waiting' END,
                                        count(*))
                          FROM pg_locks WHERE pid = $1
                          GROUP BY locktype, mode, granted ORDER BY 1)",
            &[&pid],
        )
        .expect("reading pg_stat_activity and pg_locks");
    (row.get(0), row.get(1))
}

/// Watches `pid` from `killed_at` until it is gone with no lock left;
/// returns how long that took, or what it still held after [`WATCH_FOR`].
fn watch_release(client: &mut Client, pid: i32, killed_at: Instant) -> Result<Duration, String> {
    loop {
        let (present, locks) = backend(client, pid);
        let elapsed = killed_at.elapsed();
        if !present && locks.is_empty() {
            return Ok(elapsed);
        }
        if elapsed > WATCH_FOR {
            return Err(format!(
                "{elapsed:.1?} after the kill its backend {pid} is {} and holds {locks:?}",
                if present { "still there" } else { "gone" }
            ));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_killed_fail_safely_lets_go_of_its_locks_and_a_rerun_succeeds() {
    let db = TestDb::scenarios();
    let id = scenario(1);
    let mut observer = db.client();
    let lock = db.lock_deployment(&id);
    let mut child = db
        .cmd()
        .args(["fail-safely", "d0000001", "--reason", REASON, "--yes"])
        .args(["--lock-timeout", "60s"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawning pushleft-controller");
    let pid = wait_until_waiting(&mut observer, &db, &mut child);
    let (_, held) = backend(&mut observer, pid);
    assert!(
        held.iter()
            .any(|l| l.starts_with("advisory ") && l.contains(" granted ")),
        "while it waits, the tool holds the idempotency key's advisory lock: {held:?}"
    );

    // kill -9: no chance to close the connection politely.
    child.kill().expect("SIGKILL");
    let killed_at = Instant::now();
    child.wait().expect("reaping the killed tool");
    let released = watch_release(&mut observer, pid, killed_at);
    match &released {
        Ok(took) => {
            eprintln!("killed client: backend {pid} gone, no lock left, {took:.0?} after kill -9")
        }
        Err(why) => eprintln!("killed client: {why}"),
    }

    // The operator releases nothing by hand: the other session ends, and
    // the immediate rerun must do the job, not wait behind a dead client.
    lock.release();
    let started = Instant::now();
    let rerun = Run::from(
        db.cmd()
            .args([
                "fail-safely",
                "d0000001",
                "--reason",
                REASON,
                "--yes",
                "-o",
                "json",
            ])
            .output()
            .expect("rerunning pushleft-controller"),
    );
    eprintln!(
        "killed client: rerun exit {} in {:.0?}",
        rerun.code,
        started.elapsed()
    );

    let took = released.unwrap_or_else(|why| panic!("the killed client kept its locks: {why}"));
    assert!(
        took <= RELEASED_WITHIN,
        "the killed client's backend {pid} let go of its locks only {took:.1?} after kill -9 \
         (want at most {RELEASED_WITHIN:?})"
    );
    rerun.assert_code(0);
    assert_eq!(rerun.json()["path"], "operator_failed");
    let status: String = observer
        .query_one(
            "SELECT status FROM deployments WHERE id = $1::text::uuid",
            &[&id],
        )
        .expect("reading the deployment")
        .get(0);
    assert_eq!(status, "failed");
}
