//! `wait`: the runbook's Verification, against the reference control plane
//! driven step by step by the test.

use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use crate::control_plane::control_plane_db;
use crate::support::{Run, TestDb, scenario};

fn spawn_wait(db: &TestDb, args: &[&str]) -> Child {
    db.cmd()
        .arg("wait")
        .args(args)
        .args(["--interval", "200ms", "-o", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawning wait")
}

fn finish(child: Child) -> Run {
    Run::from(child.wait_with_output().expect("waiting for wait"))
}

fn still_running(child: &mut Child) -> bool {
    child.try_wait().expect("polling wait").is_none()
}

#[test]
fn wait_returns_once_the_control_plane_completes_the_teardown() {
    let (db, mut cp) = control_plane_db();
    let id = scenario(5);
    // A running, healthy deployment: not stuck, so the teardown needs
    // --even-if-not-stuck (README, "The break-glass decision").
    db.run(&[
        "fail-safely",
        &id,
        "--reason",
        "INC-20 retire",
        "--yes",
        "--even-if-not-stuck",
    ])
    .assert_code(0);
    let mut wait = spawn_wait(&db, &[&id, "--timeout", "60s"]);
    std::thread::sleep(Duration::from_millis(600));
    assert!(still_running(&mut wait), "two instances are still running");
    // The control plane, one step at a time: queue the teardown jobs, then
    // let the agents on the (heartbeating) nodes run them.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        cp.batch_execute(
            "SELECT control_plane.heartbeat(id) FROM fleet_nodes WHERE status <> 'offline';
             SELECT control_plane.tick(schedule => false);",
        )
        .unwrap();
        let status: String = cp
            .query_one(
                "SELECT status FROM deployments WHERE id = $1::text::uuid",
                &[&id],
            )
            .unwrap()
            .get(0);
        if status == "destroyed" {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the control plane never finished the teardown"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let run = finish(wait);
    run.assert_code(0);
    let json = run.json();
    assert_eq!(json["verified"], true);
    assert_eq!(json["timed_out"], false);
    assert_eq!(json["instances_total"], 2);
    assert_eq!(json["instances_removed"], 2);
    assert_eq!(json["allocations_held"], 0);
}

#[test]
fn wait_returns_for_a_never_dispatched_failure_after_the_reaper_runs() {
    let (db, mut cp) = control_plane_db();
    let id = scenario(4);
    // Without its network attachment, the reaper may release the reservations.
    cp.execute(
        "DELETE FROM network_attachments WHERE deployment_id = $1::text::uuid",
        &[&id],
    )
    .unwrap();
    db.run(&["fail-safely", &id, "--reason", "INC-21 never ran", "--yes"])
        .assert_code(0);
    let mut wait = spawn_wait(&db, &[&id, "--timeout", "60s"]);
    std::thread::sleep(Duration::from_millis(600));
    assert!(still_running(&mut wait), "the reservations are still held");
    let released: i32 = cp
        .query_one(
            "SELECT control_plane.reap_unstarted_application($1::text::uuid)",
            &[&id],
        )
        .unwrap()
        .get(0);
    assert_eq!(released, 2);
    let run = finish(wait);
    run.assert_code(0);
    let json = run.json();
    assert_eq!(json["status"], "failed");
    assert_eq!(json["verified"], true);
    assert_eq!(json["allocations_held"], 0);
}

#[test]
fn a_network_attachment_is_reported_and_failed_is_enough() {
    let (db, _cp) = control_plane_db();
    let id = scenario(4);
    db.run(&["fail-safely", &id, "--reason", "INC-22", "--yes"])
        .assert_code(0);
    let run = db.run(&["wait", &id, "--timeout", "5s", "-o", "json"]);
    run.assert_code(0);
    let json = run.json();
    assert_eq!(json["verified"], true);
    // An enum with its details, not prose.
    let blocked = &json["blocked"][0];
    assert_eq!(blocked["kind"], "network_attachment", "{blocked}");
    assert_eq!(blocked["segments"][0], "seg-crm-7", "{blocked}");
    assert!(run.stderr.contains("reaper"), "{}", run.stderr);
    assert!(
        run.stderr.contains("may never complete on its own"),
        "{}",
        run.stderr
    );
}

#[test]
fn wait_times_out_on_the_dead_node_and_says_so_early() {
    let (db, mut cp) = control_plane_db();
    let id = scenario(3);
    db.run(&["fail-safely", &id, "--reason", "INC-23 dead node", "--yes"])
        .assert_code(0);
    // The control plane queues the teardown job for edge-07, which never runs.
    cp.batch_execute(&format!(
        "SELECT control_plane.drive_teardown('{id}'::uuid); SELECT control_plane.tick(schedule => false);"
    ))
    .unwrap();
    let before = db.dump();
    let started = Instant::now();
    let run = db.run(&[
        "wait",
        &id,
        "--wait-for-node",
        "--timeout",
        "2s",
        "--interval",
        "200ms",
    ]);
    run.assert_code(6);
    assert!(started.elapsed() < Duration::from_secs(15));
    let early = run
        .stderr
        .find("may never complete on its own: waiting for node edge-07")
        .unwrap_or_else(|| panic!("the dead node is named: {}", run.stderr));
    let timed_out = run
        .stderr
        .find("timed out after")
        .expect("the timeout is reported");
    assert!(
        early < timed_out,
        "the dead node is reported before the timeout"
    );
    assert!(
        run.stderr
            .contains("pending: instance c1000031 (web) is starting"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("last seen 3h"), "{}", run.stderr);
    assert_eq!(db.dump(), before, "wait only reads");
}

#[test]
fn wait_before_fail_safely_refuses_at_once_and_unknown_ids_are_exit_3() {
    let db = TestDb::scenarios();
    // Nobody failed it: waiting could only run out the clock. Refused at
    // once (4), not after the timeout.
    let started = Instant::now();
    let run = db.run(&[
        "wait",
        "d0000001",
        "--timeout",
        "1m",
        "--interval",
        "200ms",
        "-o",
        "json",
    ]);
    run.assert_code(4);
    assert!(started.elapsed() < Duration::from_secs(20));
    let json = run.json();
    assert_eq!(json["error"]["kind"], "refused");
    assert!(
        json["error"]["message"]
            .as_str()
            .unwrap()
            .contains("nobody has failed it"),
        "{json:#}"
    );
    db.run(&["wait", "d0000001", "--interval", "1ms"])
        .assert_code(2);
    db.run(&["wait", "beefbeef", "--timeout", "1s"])
        .assert_code(3);
    db.run(&["wait", "d0000001", "--timeout", "0s"])
        .assert_code(2);
}
