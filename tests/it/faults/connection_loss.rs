//! The session goes away mid-command: the backend is terminated while
//! fail-safely waits for a row lock and while diagnose reads, and the server
//! stops while wait follows a deployment. Each ends with exit 1 and a
//! sentence that says nothing was written and to rerun; the rerun works.

use std::time::Duration;

use postgres::NoTls;
use pushleft_controller::db::sql;
use pushleft_controller::sandbox::cluster::{Cluster, ClusterOptions};

use super::{assert_clean, finish, piped, tool_backend};
use crate::support::{Run, TestDb, bin, scenario};

fn terminate(admin: &mut postgres::Client, pid: i32) {
    let done: bool = admin
        .query_one("SELECT pg_terminate_backend($1)", &[&pid])
        .unwrap()
        .get(0);
    assert!(done, "pg_terminate_backend({pid})");
}

#[track_caller]
fn assert_lost(label: &str, run: &Run, rerun: &str) {
    run.assert_code(1);
    assert_clean(label, run, &[]);
    for says in [
        "lost the connection to the database",
        "nothing was written",
        "Next step",
        rerun,
    ] {
        assert!(
            run.stderr.contains(says),
            "{label}: lacks `{says}`:\n{}",
            run.stderr
        );
    }
    // No result: the error document (every run here asks for -o json).
    let error = &run.json()["error"];
    assert_eq!(error["kind"], "connection_lost", "{label}: {}", run.stdout);
    assert_eq!(error["exit_code"], run.code, "{label}");
}

#[test]
fn fail_safely_terminated_while_waiting_for_the_row_lock() {
    let db = TestDb::scenarios();
    let before = db.dump();
    let lock = db.lock_deployment(&scenario(1));
    let mut cmd = piped(db.cmd());
    cmd.args([
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-8 lock loss",
        "--yes",
        "--lock-timeout",
        "60s",
        "-o",
        "json",
    ]);
    let child = cmd.spawn().unwrap();
    let mut admin = db.client();
    let pid = tool_backend(&mut admin, &db.name, true);
    terminate(&mut admin, pid);
    let run = finish(child);
    assert_lost("fail-safely", &run, "rerun the same command");
    assert!(run.stderr.contains("deployment d0000001"), "{}", run.stderr);
    // The server sends its FATAL "terminating connection" and closes the
    // socket; under load the client can meet the closed socket first. Either
    // way the cause is named.
    assert!(
        run.stderr.contains("terminating connection") || run.stderr.contains("closed"),
        "{}",
        run.stderr
    );
    lock.release();
    assert_eq!(db.dump(), before, "nothing partially written");

    // The rerun completes.
    let rerun = db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-8 lock loss",
        "--yes",
        "-o",
        "json",
    ]);
    rerun.assert_code(0);
    assert_eq!(rerun.json()["path"], "operator_failed");
    assert_eq!(rerun.json()["replayed"], false);
}

#[test]
fn diagnose_terminated_while_its_read_blocks() {
    let db = TestDb::scenarios();
    let before = db.dump();
    let mut holder = db.client();
    let mut tx = holder.transaction().unwrap();
    tx.batch_execute("LOCK TABLE ingress_analytics_routes IN ACCESS EXCLUSIVE MODE")
        .unwrap();
    let mut cmd = piped(db.cmd());
    cmd.args(["diagnose", "d0000003", "-o", "json"]);
    let child = cmd.spawn().unwrap();
    let mut admin = db.client();
    let pid = tool_backend(&mut admin, &db.name, true);
    terminate(&mut admin, pid);
    let run = finish(child);
    assert_lost(
        "diagnose",
        &run,
        "rerun `pushleft-controller diagnose d0000003`",
    );
    tx.rollback().unwrap();
    assert_eq!(db.dump(), before);

    let rerun = db.run(&["diagnose", "d0000003", "-o", "json"]);
    rerun.assert_code(0);
    assert_eq!(rerun.json()["verdict"]["path"], "teardown_requested");
}

/// Its own server, so that stopping it disturbs no other test.
#[test]
fn wait_when_the_server_stops_and_comes_back() {
    let cluster = Cluster::start(&ClusterOptions::default()).expect("starting PostgreSQL");
    let mut admin = postgres::Client::connect(&cluster.conninfo("postgres"), NoTls).unwrap();
    admin.batch_execute("CREATE DATABASE control").unwrap();
    drop(admin);
    let mut control = postgres::Client::connect(&cluster.conninfo("control"), NoTls).unwrap();
    control.batch_execute(sql::scripts::SCHEMA.text).unwrap();
    control.batch_execute(sql::sandbox::SCENARIOS.text).unwrap();
    let url = cluster.url("control");

    let mut cmd = piped(bin());
    cmd.env("DATABASE_URL", &url).args([
        "wait",
        "d0000007",
        "--timeout",
        "10m",
        "--interval",
        "200ms",
        "-o",
        "json",
    ]);
    let child = cmd.spawn().unwrap();
    // It is following the deployment (connected, looking) ...
    tool_backend(&mut control, "control", false);
    std::thread::sleep(Duration::from_millis(500));
    drop(control);
    // ... when the server goes away.
    cluster.stop_server().expect("stopping the server");
    let run = finish(child);
    assert_lost("wait", &run, "rerun `pushleft-controller wait d0000007");
    assert!(
        run.stderr.contains("waiting for deployment d0000007"),
        "{}",
        run.stderr
    );

    // The server comes back; the control plane finishes the teardown; the
    // rerun verifies it.
    cluster.start_server().expect("starting the server again");
    let mut control = postgres::Client::connect(&cluster.conninfo("control"), NoTls).unwrap();
    let untouched: String = control
        .query_one(
            "SELECT status FROM deployments WHERE id = $1::text::uuid",
            &[&scenario(7)],
        )
        .unwrap()
        .get(0);
    assert_eq!(untouched, "teardown_queued", "wait wrote nothing");
    control
        .batch_execute(&format!(
            "UPDATE application_instances SET status = 'removed', active_node_id = NULL
               WHERE deployment_id = '{id}';
             UPDATE fleet_allocations SET status = 'released', released_at = now()
               WHERE resource_id IN (SELECT id FROM application_instances WHERE deployment_id = '{id}');",
            id = scenario(7)
        ))
        .unwrap();
    let rerun = Run::from(
        bin()
            .env("DATABASE_URL", &url)
            .args([
                "wait",
                "d0000007",
                "--timeout",
                "30s",
                "--interval",
                "200ms",
                "-o",
                "json",
            ])
            .output()
            .unwrap(),
    );
    rerun.assert_code(0);
    assert_eq!(rerun.json()["verified"], true);
    drop(control);
    cluster.stop();
}
