//! A teardown blocked on a dead node (README, "The break-glass decision"):
//! `wait` ends at once with exit 7 and names the node (`--wait-for-node`
//! keeps waiting until its timeout), `diagnose` leads with it, and a batch
//! wait summarizes its deployments by cause.

use std::io::Write;
use std::time::{Duration, Instant};

use crate::clock::rebase_to_now;
use crate::support::{TestDb, scenario, strand_on_edge_07};
use crate::terminal::{Tmux, have_tmux};

/// The scenarios with d0000003's teardown requested: its one instance is
/// active on edge-07, offline for 3 hours.
fn torn_down_on_edge_07() -> (TestDb, String) {
    let db = TestDb::scenarios();
    let id = scenario(3);
    db.run(&["fail-safely", &id, "--reason", "INC-23 dead node", "--yes"])
        .assert_code(0);
    (db, id)
}

#[test]
fn wait_on_a_dead_node_ends_at_once_with_exit_7_and_names_it() {
    let (db, id) = torn_down_on_edge_07();
    let started = Instant::now();
    let run = db.run(&["wait", &id]);
    run.assert_code(7);
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "not the 10-minute default"
    );
    for says in [
        "is blocked on a dead node: node edge-07, silent 3h",
        "Do not release instances or allocations by hand",
        "bring edge-07 back",
        "--wait-for-node",
    ] {
        assert!(run.stderr.contains(says), "{says}: {}", run.stderr);
    }
    let json = db.run(&["wait", &id, "-o", "json"]);
    json.assert_code(7);
    let doc = json.json();
    assert_eq!(doc["state"], "blocked_on_dead_node", "{doc:#}");
    assert_eq!(doc["timed_out"], false);
    assert_eq!(doc["error"]["exit_code"], 7);
    assert_eq!(doc["error"]["kind"], "blocked");
    assert_eq!(doc["blocked"][0]["node_name"], "edge-07");
}

#[test]
fn wait_for_node_keeps_waiting_until_its_timeout() {
    let (db, id) = torn_down_on_edge_07();
    let started = Instant::now();
    let run = db.run(&[
        "wait",
        &id,
        "--wait-for-node",
        "--timeout",
        "2s",
        "--interval",
        "200ms",
        "-o",
        "json",
    ]);
    run.assert_code(6);
    assert!(
        started.elapsed() >= Duration::from_secs(2),
        "it kept waiting"
    );
    let doc = run.json();
    assert_eq!(doc["state"], "blocked_on_dead_node");
    assert_eq!(doc["timed_out"], true);
    assert_eq!(doc["error"]["exit_code"], 6);
}

#[test]
fn diagnose_leads_with_the_dead_node_a_teardown_is_blocked_on() {
    let (db, id) = torn_down_on_edge_07();
    let run = db.run(&["diagnose", &id, "--no-pager"]);
    run.assert_code(0);
    let first = run.stdout.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("VERDICT blocked on node edge-07 (silent for 3h"),
        "{}",
        run.stdout
    );
    let text = run.stdout.replace("\n  ", " ");
    for says in [
        "the runbook forbids releasing its instances or allocations by hand",
        "edge-07's agent returning",
    ] {
        assert!(text.contains(says), "{says}: {}", run.stdout);
    }
    assert!(!run.stdout.contains("nothing to do"), "{}", run.stdout);
    let doc = db.run(&["diagnose", &id, "-o", "json"]).json();
    assert_eq!(doc["verdict"]["blocked_on_nodes"][0], "edge-07", "{doc:#}");
    let next = doc["verdict"]["next_command"].as_str().unwrap_or_default();
    assert!(next.ends_with("--wait-for-node --timeout 30m"), "{next}");
}

/// 40 deployments stranded on edge-07 and d0000003, all 41 torn down by
/// one batch; the file of their ids.
fn forty_one_torn_down() -> (TestDb, tempfile::NamedTempFile) {
    let db = TestDb::scenarios();
    rebase_to_now(&mut db.client());
    strand_on_edge_07(&db, 40);
    let scan = db.run(&["stuck", "--node", "edge-07", "-o", "json"]);
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(scan.stdout.as_bytes()).unwrap();
    let path = file.path().to_str().unwrap().to_string();
    db.run(&[
        "fail-safely",
        "--from",
        &path,
        "--reason",
        "INC-7 edge-07 died",
        "--yes",
    ])
    .assert_code(0);
    (db, file)
}

#[test]
fn a_batch_wait_on_a_dead_node_summarizes_by_cause_and_ends_at_once() {
    let (db, file) = forty_one_torn_down();
    let path = file.path().to_str().unwrap();
    let started = Instant::now();
    let run = db.run(&["wait", "--from", path]);
    run.assert_code(7);
    assert!(started.elapsed() < Duration::from_secs(30));
    assert!(
        run.stdout
            .contains("41 × waiting for dead node edge-07 (silent 3h"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("0 of 41 verified."), "{}", run.stdout);
    assert!(
        run.stdout.lines().count() <= 3,
        "one line per cause, not per deployment:\n{}",
        run.stdout
    );
    assert!(run.stderr.contains("--wait-for-node"), "{}", run.stderr);
    let doc = db.run(&["wait", "--from", path, "-o", "json"]).json();
    assert_eq!(doc["exit_code"], 7);
    let results = doc["deployments"].as_array().unwrap();
    assert_eq!(results.len(), 41);
    assert!(
        results
            .iter()
            .all(|d| d["result"] == "blocked_on_dead_node"),
        "{doc:#}"
    );
}

#[test]
fn on_the_terminal_the_batch_wait_warns_of_the_dead_node_and_prints_each_line_once() {
    if !have_tmux() {
        return;
    }
    let (db, file) = forty_one_torn_down();
    let path = file.path().to_str().unwrap();
    let pane = Tmux::start(&db, (80, 24), &["wait", "--from", path]);
    pane.wait_for("the exit status", |t| t.status().is_some());
    assert_eq!(pane.status().as_deref(), Some("7"));
    let all = pane.everything();
    assert_eq!(
        all.matches("41 × waiting for dead node edge-07").count(),
        2,
        "the warning while it looks, the summary at the end:\n{all}"
    );
    assert!(all.contains("0 of 41 verified."), "{all}");
    assert!(all.lines().count() < 24, "one screen:\n{all}");
    assert!(all.lines().all(|l| l.chars().count() <= 80), "{all}");
}

#[test]
fn on_the_terminal_wait_on_a_dead_node_ends_at_once_naming_it() {
    if !have_tmux() {
        return;
    }
    let (db, id) = torn_down_on_edge_07();
    let pane = Tmux::start(&db, (80, 24), &["wait", &id]);
    pane.wait_for("the exit status", |t| t.status().is_some());
    assert_eq!(pane.status().as_deref(), Some("7"));
    let screen = pane.visible().join("\n");
    assert!(screen.contains("edge-07"), "{screen}");
    assert!(screen.contains("--wait-for-node"), "{screen}");
    assert!(
        pane.visible().iter().all(|l| l.chars().count() <= 80),
        "{screen}"
    );
}
