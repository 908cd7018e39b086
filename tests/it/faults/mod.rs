//! Faults and hostile input: every command fails closed, clearly,
//! and loses nothing. Each submodule drives the real binary against a real
//! PostgreSQL.

mod bad_input;
mod connection_loss;
mod failover;
mod interrupts;
mod properties;
mod standby;
mod standby_lag;

use std::process::Command;
use std::time::{Duration, Instant};

use postgres::Client;

use crate::support::Run;

/// Words that only appear when something panicked or dumped a backtrace.
const PANIC_MARKERS: [&str; 4] = [
    "panicked",
    "stack backtrace",
    "RUST_BACKTRACE",
    "thread 'main'",
];

/// No panic, no backtrace (with RUST_BACKTRACE=1 set by the caller), and
/// none of `secrets` anywhere in the output.
#[track_caller]
fn assert_clean(label: &str, run: &Run, secrets: &[&str]) {
    for marker in PANIC_MARKERS {
        assert!(
            !run.stderr.contains(marker) && !run.stdout.contains(marker),
            "{label}: `{marker}` in the output\nstderr:\n{}",
            run.stderr
        );
    }
    for secret in secrets {
        assert!(
            !run.stderr.contains(secret) && !run.stdout.contains(secret),
            "{label}: the secret `{secret}` was printed\nstdout:\n{}\nstderr:\n{}",
            run.stdout,
            run.stderr
        );
    }
}

/// Polls until a backend of this tool, in `dbname`, waits on a lock (or, with
/// `waiting_on_lock` false, merely exists); returns its pid.
fn tool_backend(admin: &mut Client, dbname: &str, waiting_on_lock: bool) -> i32 {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let row = admin
            .query_opt(
                "SELECT pid FROM pg_stat_activity
                 WHERE application_name LIKE 'pushleft-controller/%'
                   AND datname = $1
                   AND (NOT $2 OR wait_event_type = 'Lock')
                 LIMIT 1",
                &[&dbname, &waiting_on_lock],
            )
            .expect("reading pg_stat_activity");
        if let Some(row) = row {
            return row.get(0);
        }
        assert!(
            Instant::now() < deadline,
            "no pushleft-controller backend showed up in {dbname} within 30s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Waits for a spawned binary and collects what it did.
fn finish(child: std::process::Child) -> Run {
    Run::from(
        child
            .wait_with_output()
            .expect("waiting for pushleft-controller"),
    )
}

/// The binary with piped output, ready to spawn.
fn piped(mut cmd: Command) -> Command {
    cmd.stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .env("RUST_BACKTRACE", "1");
    cmd
}
