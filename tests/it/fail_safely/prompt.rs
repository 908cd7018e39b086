//! The confirmation, under a real pseudo-terminal.

use super::*;

fn spawn(db: &TestDb, deployment: &str) -> rexpect::session::PtySession {
    let mut cmd = crate::support::bin();
    cmd.env("DATABASE_URL", &db.conninfo)
        .stdin(std::process::Stdio::inherit())
        .env("TERM", "dumb")
        .args([
            "fail-safely",
            deployment,
            "--reason",
            "INC-13 prompt",
            "--output",
            "table",
        ]);
    rexpect::session::spawn_command(cmd, Some(20_000)).expect("spawning under a pty")
}

fn exit_status(session: &mut rexpect::session::PtySession) -> String {
    let _ = session.exp_eof();
    format!("{:?}", session.process().wait().unwrap())
}

#[test]
fn typing_the_wrong_id_writes_nothing() {
    let db = TestDb::scenarios();
    let before = db.dump();
    let mut session = spawn(&db, "d0000001");
    session.exp_string("PLAN for deployment").unwrap();
    session.exp_string("to apply").unwrap();
    session.send_line("d0000002").unwrap();
    session.exp_string("does not match").unwrap();
    let status = exit_status(&mut session);
    assert!(status.contains(", 4)"), "{status}");
    assert_eq!(db.dump(), before);
}

#[test]
fn ctrl_c_at_the_prompt_writes_nothing() {
    let db = TestDb::scenarios();
    let before = db.dump();
    let mut session = spawn(&db, "d0000001");
    session.exp_string("to apply").unwrap();
    session.send_control('c').unwrap();
    let status = exit_status(&mut session);
    assert!(
        status.contains("130") || status.contains("SIGINT"),
        "{status}"
    );
    assert_eq!(db.dump(), before);
}

#[test]
fn ctrl_c_while_waiting_for_a_lock_rolls_back_and_exits_130() {
    let db = TestDb::scenarios();
    let lock = db.lock_deployment(&scenario(1));
    let before = db.dump();
    let mut cmd = crate::support::bin();
    cmd.env("DATABASE_URL", &db.conninfo)
        .stdin(std::process::Stdio::inherit())
        .env("TERM", "dumb")
        .args([
            "fail-safely",
            "d0000001",
            "--reason",
            "INC-15",
            "--yes",
            "--lock-timeout",
            "3s",
        ]);
    let mut session = rexpect::session::spawn_command(cmd, Some(20_000)).unwrap();
    // Give it time to connect and block on the row lock.
    std::thread::sleep(Duration::from_millis(800));
    session.send_control('c').unwrap();
    session.exp_string("nothing was written").unwrap();
    let status = exit_status(&mut session);
    assert!(status.contains("130"), "{status}");
    lock.release();
    assert_eq!(db.dump(), before);
}

#[test]
fn typing_the_short_id_applies_the_plan() {
    let db = TestDb::scenarios();
    let mut session = spawn(&db, "d0000001");
    session
        .exp_string("append event #4 operator_failed")
        .unwrap();
    session.exp_string("to apply").unwrap();
    session.send_line("d0000001").unwrap();
    session.exp_string("Applied operator_failed").unwrap();
    let status = exit_status(&mut session);
    assert!(status.contains(", 0)"), "{status}");
    assert_eq!(status_of(&db, &scenario(1)), "failed");
}

#[test]
fn the_prompt_names_where_it_writes() {
    let db = TestDb::scenarios();
    let before = db.dump();
    let mut session = spawn(&db, "d0000001");
    session
        // The question wraps at the screen's width (at a blank): the
        // address may start the next line.
        .exp_string(&format!("to apply on {} at", db.name))
        .unwrap();
    session.exp_string("as postgres (primary)").unwrap();
    session.send_line("no").unwrap();
    let status = exit_status(&mut session);
    assert!(status.contains(", 4)"), "{status}");
    assert_eq!(db.dump(), before);
}

#[test]
fn applying_a_plan_shows_who_asked_and_asks_for_the_id() {
    let db = TestDb::scenarios();
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("plan.json");
    let plan = plan.to_str().unwrap();
    db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-26 prompt",
        "--plan-out",
        plan,
    ])
    .assert_code(0);
    let mut cmd = crate::support::bin();
    cmd.env("DATABASE_URL", &db.conninfo)
        .stdin(std::process::Stdio::inherit())
        .env("TERM", "dumb")
        .args(["fail-safely", "--apply", plan, "--output", "table"]);
    let mut session = rexpect::session::spawn_command(cmd, Some(20_000)).unwrap();
    session.exp_string("requested by").unwrap();
    session.exp_string("expires").unwrap();
    session
        // The question wraps at the screen's width (at a blank): the
        // address may start the next line.
        .exp_string(&format!("to apply on {} at", db.name))
        .unwrap();
    session.send_line("d0000001").unwrap();
    session.exp_string("1 applied").unwrap();
    let status = exit_status(&mut session);
    assert!(status.contains(", 0)"), "{status}");
    assert_eq!(status_of(&db, &scenario(1)), "failed");
}
