//! One escaping rule in every ticket (README, "Output and exit codes"): a
//! code — a finding's code, a status, a path, an alert, an id — is a code
//! span and never backslash-escaped inside it; outside code spans no code
//! is left bare (a snake_case word is either in backticks or escaped, as
//! a name the database holds is). Each report's markdown is rendered here
//! and read back.

use regex::Regex;

use crate::clock::rebase_to_now;
use crate::support::{TestDb, scenario};

/// Markdown escapes that have no business inside a code span (where they
/// show as typed). `\|` is GFM's one exception: a table cell's code span
/// needs it.
const ESCAPES: [&str; 6] = ["\\_", "\\*", "\\[", "\\]", "\\~", "\\!"];

/// What is wrong with `report`'s codes, line by line.
fn misescaped(report: &str) -> Vec<String> {
    let bare =
        Regex::new(r"(^|[^A-Za-z0-9_\\])([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b").expect("a pattern");
    let mut wrong = Vec::new();
    for line in report.lines() {
        // Inside and outside code spans alternate at each backtick that
        // is not escaped.
        let mut inside = false;
        let mut outside_text = String::new();
        let mut span = String::new();
        let mut previous = ' ';
        for c in line.chars() {
            if c == '`' && previous != '\\' {
                if inside {
                    if let Some(e) = ESCAPES.iter().find(|e| span.contains(**e)) {
                        wrong.push(format!("{e} inside `{span}`: {line}"));
                    }
                    span.clear();
                }
                inside = !inside;
                outside_text.push(' ');
            } else if inside {
                span.push(c);
            } else {
                outside_text.push(c);
            }
            previous = c;
        }
        for found in bare.captures_iter(&outside_text) {
            wrong.push(format!("bare code {:?}: {line}", &found[2]));
        }
    }
    wrong
}

fn markdown(db: &TestDb, args: &[&str]) -> String {
    let mut all = args.to_vec();
    all.extend(["--output", "markdown"]);
    let run = db.run(&all);
    run.assert_code(0);
    run.stdout
}

#[test]
fn every_report_spans_its_codes_and_escapes_only_outside_them() {
    let db = TestDb::scenarios();
    rebase_to_now(&mut db.client());
    let dir = tempfile::tempdir().expect("a directory for the plan");
    let plan = dir.path().join("plan.json");
    let mut reports: Vec<(String, String)> = (1..=9)
        .map(|n| format!("d000000{n}"))
        .map(|id| (format!("diagnose {id}"), markdown(&db, &["diagnose", &id])))
        .collect();
    let more: &[&[&str]] = &[
        &["stuck"],
        &["stuck", "--group-by", "node"],
        &[
            "fail-safely",
            "d0000002",
            "--reason",
            "INC-1 md",
            "--dry-run",
        ],
        &[
            "fail-safely",
            "d0000003",
            "--reason",
            "INC-2 md",
            "--plan-out",
            plan.to_str().unwrap_or_default(),
        ],
        &["fail-safely", &scenario(1), "--reason", "INC-3 md", "--yes"],
        &["history"],
    ];
    for args in more {
        reports.push((args.join(" "), markdown(&db, args)));
    }
    let mut wrong = Vec::new();
    for (label, report) in &reports {
        wrong.extend(
            misescaped(report)
                .into_iter()
                .map(|w| format!("{label}: {w}")),
        );
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The rule is checked, not assumed: the old way fails it.
    assert!(!misescaped("- lease (job\\_lease\\_orphaned) (lease_orphaned)").is_empty());
    assert!(!misescaped("`job\\_lease`").is_empty());
    assert!(misescaped("on pushleft\\_t1\\_db2 at `x|y` · `lease_orphaned`").is_empty());
}
