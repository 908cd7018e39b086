//! Fail closed on the unknown, and one bad row never blinds a view: a
//! status or kind the model does not know, or a NULL where the reference
//! schema says NOT NULL (the test database relaxes its CHECK and NOT NULL
//! constraints to hold them). `fail-safely` refuses (exit 4) naming the
//! table, the column or value and the row, with and without `--dry-run`,
//! and a full dump of every table is the same before and after;
//! `diagnose` shows a finding and decides no path; `stuck`, `fleet list`
//! and `history` still show every good row, with a warning for the bad one.

use serde_json::Value;

use crate::guard::{assert_refused, full_dump};
use crate::support::{TestDb, scenario};

mod nulls;
mod values;
mod views;

/// Words the driver uses that must never reach the operator.
const DRIVER_TEXT: &[&str] = &[
    "expected text",
    "got null",
    "db error",
    "was null",
    "WasNull",
];

fn sql(db: &TestDb, statements: &str) {
    db.client()
        .batch_execute(statements)
        .unwrap_or_else(|e| panic!("{statements}: {e:?}"));
}

#[track_caller]
fn no_driver_text(text: &str) {
    for words in DRIVER_TEXT {
        assert!(!text.contains(words), "driver text {words:?} in:\n{text}");
    }
}

/// `fail-safely` on `deployment`, with `--dry-run` and with `--yes`: both
/// refused with every word of `says`, nothing written.
#[track_caller]
fn refused_both_ways(db: &TestDb, deployment: &str, says: &[&str]) {
    let before = full_dump(db, None);
    for flag in ["--dry-run", "--yes"] {
        let args = [
            "fail-safely",
            deployment,
            "--reason",
            "INC-22 unknown values",
            flag,
            "--even-if-not-stuck",
        ];
        let run = db.run(&args);
        assert_refused(db, &run, 4, says, &before);
        assert!(run.stderr.contains("Nothing was written"), "{}", run.stderr);
        no_driver_text(&run.stderr);
    }
}

/// `diagnose -o json`: exit 0, no path, undecidable, a finding `code`
/// naming `row`.
#[track_caller]
fn diagnosed_undecidable(db: &TestDb, deployment: &str, code: &str, row: &str) -> Value {
    let run = db.run(&["diagnose", deployment, "-o", "json"]);
    run.assert_code(0);
    let doc = run.json();
    let verdict = &doc["verdict"];
    assert_eq!(verdict["path"], "none", "{verdict:#}");
    assert_eq!(verdict["decidable"], false, "{verdict:#}");
    let findings = verdict["findings"].as_array().cloned().unwrap_or_default();
    assert!(
        findings
            .iter()
            .any(|f| f["code"] == code && f["message"].as_str().is_some_and(|m| m.contains(row))),
        "no {code} finding naming {row}: {findings:#?}"
    );
    let table = db.run(&["diagnose", deployment, "-o", "table"]);
    table.assert_code(0);
    assert!(table.stdout.contains(row), "{}", table.stdout);
    no_driver_text(&table.stdout);
    no_driver_text(&table.stderr);
    doc
}

const JOB_1: &str = "b0000001-0000-4000-8000-000000000001";

fn scenario_full(n: u8) -> String {
    format!("d000000{n}-0000-4000-8000-00000000000{n}")
}

/// A fleet-wide view as JSON and as a table: the exit code, the document,
/// and the warning on stderr naming `table.column` and `row`.
#[track_caller]
fn view_warns(db: &TestDb, args: &[&str], code: i32, column: &str, row: &str) -> Value {
    let mut json_args = args.to_vec();
    json_args.extend(["-o", "json"]);
    let run = db.run(&json_args);
    run.assert_code(code);
    no_driver_text(&run.stderr);
    let doc = run.json();
    let (table, col) = column.split_once('.').unwrap_or((column, ""));
    let warnings = doc["warnings"].as_array().cloned().unwrap_or_default();
    assert!(
        warnings
            .iter()
            .any(|w| w["table"] == table && w["column"] == col && w["row"] == row),
        "no warning for {column} row {row}: {warnings:#?}"
    );
    let mut table_args = args.to_vec();
    table_args.extend(["-o", "table"]);
    let run = db.run(&table_args);
    run.assert_code(code);
    no_driver_text(&run.stderr);
    assert!(
        run.stderr.contains("warning:") && run.stderr.contains(row),
        "no warning on stderr:\n{}",
        run.stderr
    );
    doc
}
