//! SIGTERM and SIGHUP stop a paced batch as Ctrl-C does (README, "When
//! things go wrong"): between deployments, with the report of what was
//! done, exiting 143 and 129; the events written are exactly those the
//! report lists. On stderr redirected to a file, no escape sequence.

use std::collections::BTreeSet;
use std::process::Stdio;
use std::time::Duration;

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

use super::*;
use crate::clock::rebase_to_now;

/// Each table's rows from a [`TestDb::dump`], as their JSON texts.
fn rows(dump: &str) -> BTreeSet<String> {
    dump.lines()
        .flat_map(|line| {
            let (table, rows) = line.split_once(": ").unwrap();
            let rows: Vec<Value> = serde_json::from_str(rows).unwrap();
            rows.into_iter()
                .map(move |row| format!("{table}: {row}"))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A paced batch of ten, sent `signal` after 1.8 s: exits `code`, prints
/// its report, and every row it changed belongs to a deployment the report
/// says it applied, each with one new event.
fn stopped_by(signal: Signal, code: i32) {
    let db = TestDb::scenarios();
    rebase_to_now(&mut db.client());
    let batch = stranded_batch(&db, 10);
    let before = db.dump();
    let stderr = tempfile::NamedTempFile::new().unwrap();
    let child = db
        .cmd()
        .args(["fail-safely", "--from", batch.path().to_str().unwrap()])
        .args([
            "--reason",
            "INC-26 stopped",
            "--yes",
            "--rate",
            "2/s",
            "-o",
            "json",
        ])
        .stdout(Stdio::piped())
        .stderr(stderr.reopen().unwrap())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1800));
    kill(Pid::from_raw(child.id() as i32), signal).unwrap();
    let out = child.wait_with_output().unwrap();
    let errors = std::fs::read_to_string(stderr.path()).unwrap();
    assert_eq!(out.status.code(), Some(code), "{signal}: {errors}");
    assert!(
        !errors.contains('\u{1b}'),
        "an escape in a file: {errors:?}"
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["exit_code"], code, "{report:#}");
    let applied: Vec<String> = report["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["result"] == "applied")
        .map(|o| o["deployment"].as_str().unwrap().to_string())
        .collect();
    assert!((1..10).contains(&applied.len()), "{report:#}");
    assert_eq!(report["summary"]["applied"], applied.len());
    assert_eq!(
        report["summary"]["skipped"],
        10 - applied.len(),
        "{report:#}"
    );
    // The full dump, before and after: what changed is theirs alone.
    let (was, is) = (rows(&before), rows(&db.dump()));
    let changed: Vec<&String> = was.symmetric_difference(&is).collect();
    for row in &changed {
        assert!(
            applied.iter().any(|id| row.contains(id.as_str())),
            "{signal}: a row of no applied deployment changed: {row}"
        );
    }
    for id in &applied {
        let events = is
            .difference(&was)
            .filter(|r| r.starts_with("deployment_events: ") && r.contains(id.as_str()))
            .count();
        assert_eq!(events, 1, "{id}");
    }
}

#[test]
fn sigterm_stops_a_paced_batch_with_its_report_and_exits_143() {
    stopped_by(Signal::SIGTERM, 143);
}

#[test]
fn sighup_stops_a_paced_batch_with_its_report_and_exits_129() {
    stopped_by(Signal::SIGHUP, 129);
}

#[test]
fn outside_a_batch_sigterm_ends_at_once_with_nothing_written() {
    let db = TestDb::scenarios();
    let before = db.dump();
    let stderr = tempfile::NamedTempFile::new().unwrap();
    let child = db
        .cmd()
        .args([
            "wait",
            "d0000007",
            "--timeout",
            "10m",
            "--interval",
            "300ms",
        ])
        .stdout(Stdio::null())
        .stderr(stderr.reopen().unwrap())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(800));
    kill(Pid::from_raw(child.id() as i32), Signal::SIGTERM).unwrap();
    let out = child.wait_with_output().unwrap();
    let errors = std::fs::read_to_string(stderr.path()).unwrap();
    assert_eq!(out.status.code(), Some(143), "{errors}");
    assert!(errors.contains("nothing was written"), "{errors}");
    assert!(!errors.contains('\u{1b}'), "{errors:?}");
    assert_eq!(db.dump(), before);
}
