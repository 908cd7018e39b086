//! `--watch` on `stuck` and `fleet list`: one document per refresh on a
//! pipe, a redrawn screen on a terminal, a lost session retried, Ctrl-C.

use std::io::{BufRead, BufReader};
use std::process::Stdio;

use crate::support::{TestDb, bin};

#[test]
fn on_a_pipe_watch_writes_one_json_line_per_refresh() {
    let db = TestDb::scenarios();
    let run = db.run(&["stuck", "--watch", "1s", "--count", "3", "--output", "json"]);
    run.assert_code(0);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{}", run.stdout);
    for line in lines {
        let doc: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        assert_eq!(
            doc["schema_version"], 1,
            "every document carries its version"
        );
        assert_eq!(doc["deployments_stuck"].as_array().map(Vec::len), Some(5));
    }
    let tables = db.run(&[
        "fleet", "list", "--watch", "1s", "--count", "2", "--output", "table",
    ]);
    tables.assert_code(0);
    assert_eq!(
        tables.stdout.matches("edge-07").count(),
        2,
        "{}",
        tables.stdout
    );
}

#[test]
fn watch_refuses_to_hammer_the_database() {
    let db = TestDb::scenarios();
    let run = db.run(&["fleet", "list", "--watch", "200ms"]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("at most once a second"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_lost_session_is_shown_and_retried_not_fatal() {
    let db = TestDb::scenarios();
    let mut child = db
        .cmd()
        .args(["stuck", "--watch", "1s", "--count", "5", "--output", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the watcher");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut first = String::new();
    stdout.read_line(&mut first).expect("a first refresh");
    assert!(first.contains("deployments_stuck"), "{first}");
    // The server ends the watcher's session, as a failover would.
    let terminated: i64 = db
        .client()
        .query_one(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
             WHERE application_name LIKE 'pushleft-controller/%'
               AND datname = current_database() AND pid <> pg_backend_pid()",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(terminated, 1);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).expect("the other refreshes");
    let output = child
        .wait_with_output()
        .expect("the watcher ends after 5 refreshes");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("the last read failed"), "{stderr}");
    // One refresh failed, the others (on a new session) did not.
    assert_eq!(rest.lines().count() + 1, 4, "{rest}\n{stderr}");
}

#[test]
fn on_a_terminal_watch_redraws_and_ctrl_c_ends_it_with_130() {
    let db = TestDb::scenarios();
    let mut cmd = bin();
    cmd.env("DATABASE_URL", &db.conninfo)
        .env("TERM", "xterm")
        .stdin(Stdio::inherit())
        .args(["stuck", "--watch", "1s", "--output", "table"]);
    let mut session =
        rexpect::session::spawn_command(cmd, Some(20_000)).expect("spawning under a pty");
    for _ in 0..2 {
        session.exp_string("\x1b[H\x1b[2J").unwrap();
        session.exp_string("last read").unwrap();
        session.exp_string("Stuck deployments").unwrap();
    }
    session.send_control('c').unwrap();
    let rest = session.exp_eof().unwrap_or_default();
    let status = format!("{:?}", session.process().wait().unwrap());
    assert!(status.contains("130"), "exit status {status}: {rest:?}");
    assert!(!rest.contains("panicked"), "{rest:?}");
}
