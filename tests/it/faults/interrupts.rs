//! Ctrl-C during `wait`, under a real pseudo-terminal (Ctrl-C at the
//! confirmation prompt is tested in `fail_safely::prompt`).

use crate::support::{TestDb, bin};

#[test]
fn ctrl_c_during_wait_exits_130_restores_the_cursor_and_writes_nothing() {
    let db = TestDb::scenarios();
    let before = db.dump();
    let mut cmd = bin();
    cmd.env("DATABASE_URL", &db.conninfo)
        .env("TERM", "xterm")
        .env("RUST_BACKTRACE", "1")
        .stdin(std::process::Stdio::inherit())
        .args([
            "wait",
            "d0000007",
            "--timeout",
            "10m",
            "--interval",
            "300ms",
            "--output",
            "table",
        ]);
    let mut session =
        rexpect::session::spawn_command(cmd, Some(20_000)).expect("spawning under a pty");
    // The progress bar is drawn ...
    session.exp_string("instances removed").unwrap();
    session.exp_string("teardown_queued").unwrap();
    // ... when the operator presses Ctrl-C.
    session.send_control('c').unwrap();
    let rest = session.exp_eof().unwrap_or_default();
    let status = format!("{:?}", session.process().wait().unwrap());
    assert!(
        status.contains("130"),
        "exit status {status}; output after Ctrl-C: {rest:?}"
    );
    assert!(
        rest.contains("\x1b[?25h"),
        "the cursor is shown again: {rest:?}"
    );
    assert!(
        rest.contains("interrupted: nothing was written"),
        "{rest:?}"
    );
    assert!(!rest.contains("panicked"), "{rest:?}");
    assert_eq!(db.dump(), before, "wait wrote nothing");
}
