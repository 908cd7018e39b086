//! `--output markdown`: the reports are stable (golden files under
//! tests/golden/markdown/, reviewed by eye; times and fingerprints, which
//! change with every load of the scenarios, are masked) and survive
//! hostile database text. `PUSHLEFT_UPDATE_GOLDEN=1 cargo test markdown`
//! rewrites the files.

use std::path::PathBuf;

use regex::Regex;

use crate::clock::rebase_to_now;
use crate::support::{TestDb, scenario};

fn masked(text: &str) -> String {
    let time = Regex::new(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z").expect("a pattern");
    let fingerprint =
        Regex::new(r"`[0-9a-f]{16}`|--expect-fingerprint [0-9a-f]{16}").expect("a pattern");
    let version = Regex::new(r"pushleft-controller/[0-9A-Za-z.\-+]+").expect("a pattern");
    // Where a write lands: each test's own database on the suite's server.
    let target = Regex::new(r"on \S+ at \S+ as ").expect("a pattern");
    let text = target.replace_all(text, "on <database> at <address> as ");
    let text = time.replace_all(&text, "<time>");
    let text = fingerprint.replace_all(&text, "<fingerprint>");
    version
        .replace_all(&text, "pushleft-controller/<version>")
        .into_owned()
}

fn golden(name: &str, actual: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/markdown")
        .join(format!("{name}.md"));
    let actual = masked(actual);
    if std::env::var_os("PUSHLEFT_UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &actual).expect("writing a golden file");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|err| {
        panic!(
            "{}: {err} (PUSHLEFT_UPDATE_GOLDEN=1 writes it)",
            path.display()
        )
    });
    assert_eq!(
        actual, expected,
        "{name}: the report changed; review, then update the golden file"
    );
}

fn markdown(db: &TestDb, args: &[&str]) -> String {
    let mut all = args.to_vec();
    all.extend(["--output", "markdown"]);
    let run = db.run(&all);
    run.assert_code(0);
    run.stdout
}

#[test]
fn diagnose_reports_of_every_scenario_are_stable() {
    let db = TestDb::scenarios();
    rebase_to_now(&mut db.client());
    for n in 1..=9 {
        let id = format!("d000000{n}");
        golden(
            &format!("diagnose-{id}"),
            &markdown(&db, &["diagnose", &id]),
        );
    }
}

#[test]
fn stuck_fail_safely_and_history_reports_are_stable() {
    let db = TestDb::scenarios();
    rebase_to_now(&mut db.client());
    golden("stuck", &markdown(&db, &["stuck"]));
    golden(
        "stuck-group-by-node",
        &markdown(&db, &["stuck", "--group-by", "node"]),
    );
    golden(
        "fail-safely-dry-run-d0000002",
        &markdown(
            &db,
            &[
                "fail-safely",
                "d0000002",
                "--reason",
                "INC-4712 orphaned build lease",
                "--dry-run",
            ],
        ),
    );
    markdown(
        &db,
        &[
            "fail-safely",
            &scenario(1),
            "--reason",
            "INC-4711 stuck queued",
            "--yes",
        ],
    );
    let history = markdown(&db, &["history"]);
    // Whoever runs the tests is in the audit: mask the OS user, the
    // session user and the host of the one action with an audit.
    let who = Regex::new(r"(`operator_failed` \|) [^|]+ \| [^|]+ \| [^|]+ \|").expect("a pattern");
    golden(
        "history",
        &who.replace_all(&history, "$1 <user> | <session user> | <host> |"),
    );
}

#[test]
fn hostile_text_cannot_break_the_report() {
    let db = TestDb::scenarios();
    db.client()
        .batch_execute(
            "ALTER TABLE jobs DISABLE TRIGGER USER;
             UPDATE jobs SET payload = payload || jsonb_build_object('last_error',
                 E'boom | `rm -rf /` <script>x</script> \\u001b[2J\\n| injected | row |')
              WHERE deployment_id = 'd0000002-0000-4000-8000-000000000002';
             ALTER TABLE jobs ENABLE TRIGGER USER;",
        )
        .expect("planting hostile text");
    let report = markdown(&db, &["diagnose", "d0000002"]);
    assert!(!report.contains('\u{1b}'), "{report}");
    assert!(!report.contains("<script>"), "{report}");
    assert!(
        !report.contains("`rm -rf /`"),
        "no code span opened: {report}"
    );
    // Every row of a table has as many cell separators as its header.
    let separators = |line: &str| {
        let mut n = 0;
        let mut escaped = false;
        for c in line.chars() {
            match c {
                '\\' if !escaped => escaped = true,
                '|' if !escaped => n += 1,
                _ => escaped = false,
            }
            if c != '\\' {
                escaped = false;
            }
        }
        n
    };
    let mut header = None;
    for line in report.lines() {
        if !line.starts_with('|') {
            header = None;
            continue;
        }
        let n = separators(line);
        match header {
            None => header = Some(n),
            Some(h) => assert_eq!(n, h, "a broken row: {line}\n{report}"),
        }
    }
}

#[test]
fn markdown_is_refused_where_there_is_no_report() {
    let db = TestDb::scenarios();
    let run = db.run(&["doctor", "--output", "markdown"]);
    run.assert_code(2);
    assert!(run.stderr.contains("markdown is for"), "{}", run.stderr);
}
