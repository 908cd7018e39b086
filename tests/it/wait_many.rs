//! `wait` with several deployments (`wait A B`, `wait --from FILE`): each
//! followed to its end, a line each, and the most serious exit code; the
//! batch's next step is that one command.

use std::io::Write;

use crate::clock::rebase_to_now;
use crate::support::{TestDb, scenario, strand_on_edge_07};

fn stranded(g: u32) -> String {
    format!("e{g:07x}-0000-4000-8000-000000000000")
}

#[test]
fn several_deployments_each_get_their_result_and_the_worst_code() {
    let db = TestDb::scenarios();
    let failed = scenario(4);
    db.run(&["fail-safely", &failed, "--reason", "INC-22", "--yes"])
        .assert_code(0);
    // d0000004 is verified (failed is enough: its network attachment keeps
    // the reservations); nobody failed d0000001: refused, exit 4.
    let run = db.run(&[
        "wait",
        &failed,
        "d0000001",
        "--timeout",
        "3s",
        "--interval",
        "200ms",
        "-o",
        "json",
    ]);
    run.assert_code(4);
    let doc = run.json();
    assert_eq!(doc["exit_code"], 4, "{doc:#}");
    assert_eq!(
        (doc["verified"].clone(), doc["total"].clone()),
        (1.into(), 2.into())
    );
    assert_eq!(doc["deployments"][0]["deployment"], failed.as_str());
    assert_eq!(doc["deployments"][0]["result"], "verified");
    assert_eq!(doc["deployments"][0]["progress"]["status"], "failed");
    assert_eq!(doc["deployments"][1]["result"], "nothing_to_wait_for");
    assert!(
        doc["deployments"][1]["error"]
            .as_str()
            .unwrap()
            .contains("nobody has failed it"),
        "{doc:#}"
    );
    // The table: a line each, then the count.
    let table = db.run(&[
        "wait",
        &failed,
        "d0000001",
        "--timeout",
        "3s",
        "--interval",
        "200ms",
        "-o",
        "table",
    ]);
    table.assert_code(4);
    assert!(
        table.stdout.contains(&format!("{failed}  verified after")),
        "{}",
        table.stdout
    );
    assert!(table.stdout.contains("d0000001  nothing to wait for after"));
    assert!(
        table.stdout.contains("1 of 2 verified."),
        "{}",
        table.stdout
    );
}

#[test]
fn after_a_batch_its_next_step_waits_for_what_it_wrote() {
    let db = TestDb::scenarios();
    rebase_to_now(&mut db.client());
    strand_on_edge_07(&db, 2);
    let mut list = tempfile::NamedTempFile::new().unwrap();
    writeln!(list, "{}\n{}", stranded(1), stranded(2)).unwrap();
    let path = list.path().to_str().unwrap();
    let reason = "INC-7 edge-07 died";
    let dry = db.run(&[
        "fail-safely",
        "--from",
        path,
        "--reason",
        reason,
        "--dry-run",
        "-o",
        "json",
    ]);
    dry.assert_code(0);
    assert_eq!(
        dry.json()["next_command"],
        format!("pushleft-controller fail-safely --from {path} --reason 'INC-7 edge-07 died'")
            .as_str()
    );
    let batch = db.run(&[
        "fail-safely",
        "--from",
        path,
        "--reason",
        reason,
        "--yes",
        "-o",
        "json",
    ]);
    batch.assert_code(0);
    let next = format!("pushleft-controller wait --from {path}");
    assert_eq!(batch.json()["next_command"], next.as_str());
    let text = db.run(&[
        "fail-safely",
        "--from",
        path,
        "--reason",
        reason,
        "--yes",
        "-o",
        "table",
    ]);
    assert!(
        text.stdout.contains(&format!("Next: {next}")),
        "{}",
        text.stdout
    );

    // Both teardowns wait for the dead node: kept waiting through its
    // reboot (--wait-for-node), both time out (6). The batch's own JSON
    // names them too.
    let mut report = tempfile::NamedTempFile::new().unwrap();
    report.write_all(batch.stdout.as_bytes()).unwrap();
    for from in [path, report.path().to_str().unwrap()] {
        let run = db.run(&[
            "wait",
            "--from",
            from,
            "--wait-for-node",
            "--timeout",
            "1s",
            "--interval",
            "200ms",
            "-o",
            "json",
        ]);
        run.assert_code(6);
        let doc = run.json();
        let results: Vec<&str> = doc["deployments"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["result"].as_str().unwrap())
            .collect();
        assert_eq!(results, ["timed_out", "timed_out"], "{doc:#}");
        assert_eq!(
            doc["deployments"][0]["progress"]["status"],
            "teardown_queued"
        );
    }
}

#[test]
fn a_list_that_names_nothing_or_a_bad_id_is_refused_before_connecting() {
    let db = TestDb::scenarios();
    let empty = tempfile::NamedTempFile::new().unwrap();
    db.run(&["wait", "--from", empty.path().to_str().unwrap()])
        .assert_code(2);
    db.run(&["wait", "d0000001", "not-an-id"]).assert_code(2);
}
