//! `--show-sql`: every statement as sent, in order, with its parameters,
//! on stderr with a prefix; stdout and what is done unchanged.

use crate::support::{TestDb, scenario};

/// The positions of `needles` in `haystack`, each after the one before.
#[track_caller]
fn in_order(haystack: &str, needles: &[&str]) {
    let mut from = 0;
    for needle in needles {
        match haystack[from..].find(needle) {
            Some(at) => from += at + needle.len(),
            None => panic!("`{needle}` not after what came before:\n{haystack}"),
        }
    }
}

#[test]
fn diagnose_shows_the_snapshot_statement_and_its_parameter() {
    let db = TestDb::scenarios();
    let mut cmd = db.cmd();
    cmd.env("PGPASSWORD", "sekrit-never-shown").args([
        "diagnose",
        "d0000002",
        "--show-sql",
        "-o",
        "json",
    ]);
    let run = crate::support::Run::from(cmd.output().unwrap());
    run.assert_code(0);
    // The result is as without it.
    assert_eq!(
        run.json()["deployment"]["id"],
        scenario(2),
        "{}",
        run.stdout
    );
    let id = scenario(2);
    in_order(
        &run.stderr,
        &[
            "sql> -- sql/session/begin.sql",
            "sql> START TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY",
            "sql> -- sql/diagnose/snapshot.sql",
            "sql> WITH candidates AS (",
            &format!("sql> -- parameters: $1 = '{id}' (uuid)"),
            // A read-only snapshot ends with COMMIT: nothing to roll back.
            "sql> COMMIT",
        ],
    );
    assert!(!run.stdout.contains("sql> "), "{}", run.stdout);
    assert!(!run.stderr.contains("sekrit"), "{}", run.stderr);
    // Every line of a statement carries the prefix.
    let shown = run
        .stderr
        .lines()
        .filter(|l| l.starts_with("sql> "))
        .count();
    assert!(shown > 20, "{}", run.stderr);
}

#[test]
fn fail_safely_dry_run_shows_its_statements_in_order() {
    let db = TestDb::scenarios();
    let run = db.run(&[
        "fail-safely",
        "d0000002",
        "--reason",
        "INC-4712 orphaned build lease",
        "--dry-run",
        "--show-sql",
    ]);
    run.assert_code(0);
    let id = scenario(2);
    let param = format!("$1 = '{id}' (uuid)");
    in_order(
        &run.stderr,
        &[
            "sql> START TRANSACTION ISOLATION LEVEL READ COMMITTED, READ WRITE",
            "sql> -- sql/fail_safely/06_lock.sql",
            "FOR UPDATE",
            &param,
            "sql> -- sql/diagnose/snapshot.sql",
            "sql> -- sql/fail_safely/11_request_teardown.sql",
            "UPDATE \"public\".deployments",
            "INSERT INTO \"public\".deployment_events",
            "INC-4712 orphaned build lease",
            "SET CONSTRAINTS ALL IMMEDIATE",
            "sql> ROLLBACK",
        ],
    );
    // The read of where it writes ends with its COMMIT; the guarded
    // transaction of a dry run never commits.
    let write = run
        .stderr
        .find("READ COMMITTED, READ WRITE")
        .expect("the guarded transaction");
    assert!(
        !run.stderr[write..].contains("sql> COMMIT"),
        "{}",
        run.stderr
    );
}
