//! A report stays in the pager as long as the operator reads it (README,
//! "Output and exit codes"): every command renders its report after the
//! read's transaction has ended, so no session sits idle in a transaction
//! under an open pager and the server's `idle_in_transaction_session_timeout`
//! never ends it. Here the pager holds the report longer than that timeout
//! before it shows it; a report rendered inside its transaction would come
//! back as a lost connection (exit 1).
//!
//! The timeout is the tool's own `--idle-in-transaction-timeout`
//! (`PUSHLEFT_IDLE_IN_TRANSACTION_TIMEOUT`): every transaction sets it for
//! itself in its first message (README, "Transactions, settings and
//! poolers"), so a role's `ALTER ROLE … SET` would not be the value in force.

use std::process::Command;

use crate::support::{TestDb, scenario};

/// What the pager prints first: the report went through it.
const PAGER_STARTED: &str = "the-pager-started";

/// Longer than [`IDLE_TIMEOUT`], then the report.
const SLOW_PAGER: &str = "sleep 3; echo the-pager-started; cat";

const IDLE_TIMEOUT: &str = "1s";

/// Runs the binary on a pseudo-terminal of 80×24 whose reports page from 2
/// lines on, through [`SLOW_PAGER`]: what the terminal received and the
/// exit status.
fn through_a_slow_pager(db: &TestDb, args: &[&str]) -> (String, Option<i32>) {
    let mut cmd = Command::new("sh");
    cmd.args([
        "-c",
        "stty cols 80 rows 24 && exec \"$0\" \"$@\"",
        env!("CARGO_BIN_EXE_pushleft-controller"),
    ])
    .args(args);
    for var in [
        "PGHOST",
        "PGPORT",
        "PGUSER",
        "PGDATABASE",
        "COLUMNS",
        "LESS",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("DATABASE_URL", &db.conninfo)
        .env("PUSHLEFT_IDLE_IN_TRANSACTION_TIMEOUT", IDLE_TIMEOUT)
        .env("TERM", "xterm")
        .env("NO_COLOR", "1")
        .env("LINES", "2")
        .env("PAGER", SLOW_PAGER);
    let mut session = rexpect::session::spawn_command(cmd, Some(60_000)).expect("a pty");
    // rexpect hands each byte over as one char: make it UTF-8 again.
    let bytes: Vec<u8> = session
        .exp_eof()
        .expect("the command ends")
        .chars()
        .map(|c| c as u8)
        .collect();
    let status = match session.process().wait() {
        Ok(rexpect::process::WaitStatus::Exited(_, code)) => Some(code),
        _ => None,
    };
    (
        String::from_utf8_lossy(&bytes).replace("\r\n", "\n"),
        status,
    )
}

#[test]
fn a_report_waits_in_the_pager_longer_than_a_transaction_may_sit_idle() {
    let db = TestDb::scenarios();
    // Something for history and wait: one deployment failed, and done.
    db.run(&[
        "fail-safely",
        &scenario(4),
        "--reason",
        "INC-31 pager test",
        "--yes",
    ])
    .assert_code(0);
    let runs: &[(&[&str], &str)] = &[
        (&["diagnose", "d0000003"], "VERDICT"),
        (&["stuck"], "d0000003"),
        (&["fleet", "list"], "edge-07"),
        (&["history"], "INC-31 pager test"),
        (&["doctor"], "schema"),
        (
            &[
                "fail-safely",
                "d0000003",
                "--reason",
                "INC-32 pager test",
                "--dry-run",
            ],
            "teardown_requested",
        ),
        (&["wait", "d0000004", "--timeout", "5s"], "d0000004"),
    ];
    // Side by side: each run takes as long as the pager holds it.
    let results: Vec<(String, String, Option<i32>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = runs
            .iter()
            .map(|(args, _)| {
                let db = &db;
                scope.spawn(move || {
                    let (screen, status) = through_a_slow_pager(db, args);
                    (args.join(" "), screen, status)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a run's thread"))
            .collect()
    });
    let mut wrong = Vec::new();
    for ((label, screen, status), (_, shown)) in results.iter().zip(runs) {
        let paged = screen.find(PAGER_STARTED).map(|at| &screen[at..]);
        if *status != Some(0) {
            wrong.push(format!("{label}: exit {status:?}"));
        }
        match paged {
            None => wrong.push(format!("{label}: the report did not go through the pager")),
            Some(paged) if !paged.contains(shown) => {
                wrong.push(format!("{label}: {shown:?} is not in the paged report"));
            }
            Some(_) => {}
        }
        if screen.contains("lost the connection") {
            wrong.push(format!("{label}: lost the connection"));
        }
        if wrong
            .last()
            .is_some_and(|w| w.starts_with(&format!("{label}:")))
        {
            wrong.push(format!("{label} showed:\n{screen}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
