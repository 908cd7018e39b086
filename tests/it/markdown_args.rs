//! Arguments echoed into `--output markdown` stay on their line and in
//! their cell: a hostile `--reason` (a heading, a table row, an image, a
//! list item, HTML, a carriage return) adds no line, heading or table row
//! to the ticket, in the reason, the event and the footer's command line.

use crate::support::{TestDb, scenario};

const HOSTILE: &str = "INC-9 x\n## Approved by the CTO\n| forged | row |\n![i](http://e.invalid/p.png)\n- item\n<img src=x onerror=alert(1)> end";
const PLAIN: &str = "INC-9 a plain reason, on one line only";

/// Lines, headings (`#`) and table rows (`|`) of a markdown report.
fn shape(text: &str) -> (usize, usize, usize) {
    let lines: Vec<&str> = text.lines().collect();
    let headings = lines.iter().filter(|l| l.starts_with('#')).count();
    let rows = lines.iter().filter(|l| l.starts_with('|')).count();
    (lines.len(), headings, rows)
}

/// `args` with `--reason R -o markdown`, for R plain and hostile: the same
/// shape, no line that came from the argument is more than one line, and
/// (`shows`) the argument is there, escaped.
#[track_caller]
fn same_shape(label: &str, shows: bool, run: impl Fn(&str) -> String) {
    let plain = run(PLAIN);
    let hostile = run(HOSTILE);
    assert_eq!(
        shape(&hostile),
        shape(&plain),
        "{label}:\n{hostile}\n---\n{plain}"
    );
    for line in hostile.lines() {
        for planted in ["## Approved", "| forged", "![i]", "- item", "<img"] {
            assert!(!line.starts_with(planted), "{label}: {line}\n{hostile}");
        }
        // Outside code spans (where markdown shows HTML as text), no tag.
        let outside: String = line.split('`').step_by(2).collect();
        assert!(!outside.contains("<img"), "{label}: {line}");
    }
    // Shown, escaped: `\n` in a code span, `\\n` (rendered `\n`) in text.
    assert!(
        !shows || hostile.contains(r"x\n## Approved") || hostile.contains(r"x\\n## Approved"),
        "{label}:\n{hostile}"
    );
}

#[test]
fn a_hostile_reason_keeps_every_markdown_report_in_shape() {
    let db = TestDb::scenarios();
    let md = |args: &[&str], reason: &str| {
        let mut all = args.to_vec();
        all.extend(["--reason", reason, "-o", "markdown"]);
        let run = db.run(&all);
        run.assert_code(0);
        run.stdout.clone()
    };
    same_shape("--dry-run", true, |r| {
        md(&["fail-safely", "d0000002", "--dry-run"], r)
    });
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("plan.json");
    let plan = plan.to_str().unwrap();
    // Both reasons' plans to the one file: the second replaces the first.
    same_shape("--plan-out", true, |r| {
        md(
            &["fail-safely", "d0000002", "--plan-out", plan, "--force"],
            r,
        )
    });
    // Written, then read back by history and diagnose: each reason in a
    // database of its own.
    let written = |reason: &str, read: &[&str]| {
        let db = TestDb::scenarios();
        db.run(&["fail-safely", "d0000002", "--reason", reason, "--yes"])
            .assert_code(0);
        let mut all = read.to_vec();
        all.extend(["-o", "markdown"]);
        let run = db.run(&all);
        run.assert_code(0);
        run.stdout.clone()
    };
    let d2 = scenario(2);
    same_shape("history", true, |r| written(r, &["history"]));
    // (diagnose shows no reason: its shape is checked all the same)
    same_shape("diagnose", false, |r| written(r, &["diagnose", &d2]));
}
