//! No word or id is ever cut in half (README, "Output and exit codes"):
//! every output the README's tour shows, run by the real binary at 200
//! columns and at 60, 80 and 120, holds to it: each word of the narrow
//! output is a whole word of the wide one (a narrow word that is only the
//! start or the end of a wide word was cut), and no line is wider than
//! the screen. A word is what `ui::text::is_word_char` says (letters,
//! digits, `-`, `_`): a table's cell may end in `…` between words, and a
//! path or a payload wider than a line breaks after a `/`, `,` or `:`.
//! The approver's screen (`fail-safely --apply`) is held to it through the
//! library, as the binary shows it only on a terminal; `terminal.rs` has
//! it in tmux.

use std::collections::BTreeSet;
use std::io::Write as _;

use crate::support::{Run, TestDb, strand_on_edge_07};

const WIDE: usize = 200;
const NARROW: [usize; 3] = [60, 80, 120];

/// The words of `text`, colour removed and the tables' note of the columns
/// left out taken away (it names headers, which are whole words anyway).
fn words(text: &str) -> Vec<String> {
    let plain = console::strip_ansi_codes(text);
    let note = regex::Regex::new(r"\(not shown on this width:[^)]*\)").expect("a pattern");
    let plain = note.replace_all(&plain, " ");
    // Two runs a second apart read at different times: a stamp is one
    // word, whatever it says.
    let stamp =
        regex::Regex::new(r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?Z?").expect("a pattern");
    let plain = stamp.replace_all(&plain, "STAMP");
    plain
        .split(|c: char| !pushleft_controller::ui::text::is_word_char(c))
        .map(|w| w.trim_matches('-'))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// An age or a duration (`45m`, `3h22m`, `19s`): two runs a second apart
/// may say `9s` and `10s`, which is no cut.
fn is_duration(word: &str) -> bool {
    let re = regex::Regex::new(r"^(\d+(ms|[smhd]))+$").expect("a pattern");
    re.is_match(word)
}

/// Every UUID's 8-digit short form in `text`: a command shortens its ids
/// to it on a narrow screen (`text::fit_command`), which is no cut.
fn short_ids(text: &str) -> BTreeSet<String> {
    let re =
        regex::Regex::new(r"\b([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")
            .expect("a pattern");
    re.captures_iter(text).map(|c| c[1].to_string()).collect()
}

/// What `narrow` (at `cols` columns) must hold to, against `wide`.
#[track_caller]
pub(crate) fn assert_whole_words(label: &str, wide: &str, narrow: &str, cols: usize) {
    for line in console::strip_ansi_codes(narrow).lines() {
        let w = console::measure_text_width(line);
        assert!(
            w <= cols,
            "{label}: a line of {w} > {cols} columns:\n{line}\n\n{narrow}"
        );
    }
    let whole: BTreeSet<String> = words(wide).into_iter().collect();
    let short = short_ids(wide);
    for word in words(narrow) {
        if whole.contains(&word) || short.contains(&word) || is_duration(&word) {
            continue;
        }
        let cut_from = whole
            .iter()
            .find(|w| w.len() > word.len() && (w.starts_with(&word) || w.ends_with(&word)));
        assert!(
            cut_from.is_none(),
            "{label} at {cols} columns: `{word}` is a piece of `{}`:\n{narrow}\n\n-- at {WIDE} columns:\n{wide}",
            cut_from.map_or("", String::as_str)
        );
    }
}

/// The binary's stdout and stderr at `cols` columns.
fn at(db: &TestDb, cols: usize, args: &[&str]) -> String {
    let run = Run::from(
        db.cmd()
            .env("COLUMNS", cols.to_string())
            .env("NO_COLOR", "1")
            .env("PAGER", "cat")
            .args(args)
            .output()
            .expect("running pushleft-controller"),
    );
    format!("{}\n{}", run.stdout, run.stderr)
}

fn check(db: &TestDb, args: &[&str]) {
    let label = args.join(" ");
    let wide = at(db, WIDE, args);
    assert!(wide.trim().len() > 20, "{label}: nothing shown: {wide:?}");
    for cols in NARROW {
        assert_whole_words(&label, &wide, &at(db, cols, args), cols);
    }
}

/// The scenarios, 40 deployments stranded on edge-07 and a batch file
/// naming them, a plan applied by its maker and a write alone (so that
/// `history` has approvals).
fn incident() -> (TestDb, tempfile::NamedTempFile, tempfile::TempDir) {
    let db = TestDb::scenarios();
    strand_on_edge_07(&db, 40);
    let mut list = tempfile::NamedTempFile::new().expect("a batch file");
    writeln!(list, "d0000003-0000-4000-8000-000000000003").expect("writing the batch");
    for g in 1..=40u32 {
        writeln!(list, "e{g:07x}-0000-4000-8000-000000000000").expect("writing the batch");
    }
    let dir = tempfile::tempdir().expect("a directory for plans");
    let plan = dir.path().join("d2.json");
    let plan = plan.to_str().expect("a UTF-8 path");
    db.run(&[
        "fail-safely",
        "d0000002",
        "--reason",
        "INC-4712 orphaned build lease on build-03",
        "--plan-out",
        plan,
    ])
    .assert_code(0);
    db.run(&["fail-safely", "--apply", plan, "--yes"])
        .assert_code(0);
    db.run(&[
        "fail-safely",
        "d0000004",
        "--reason",
        "INC-4713 queued, never dispatched: a network attachment keeps the reaper off",
        "--yes",
        "--break-glass-alone",
    ])
    .assert_code(0);
    (db, list, dir)
}

#[test]
fn no_output_of_the_tour_cuts_a_word_at_60_80_or_120_columns() {
    let (db, list, dir) = incident();
    let list = list.path().to_str().expect("a UTF-8 path");
    let plan = dir.path().join("batch.json");
    let plan = plan.to_str().expect("a UTF-8 path");
    let reason = "INC-7 edge-07 died";
    let runs: &[&[&str]] = &[
        &["diagnose", "d0000002"],
        &["diagnose", "d0000003"],
        &["diagnose", "d0000008"],
        &["stuck"],
        &["stuck", "--group-by", "node"],
        &["fleet", "list"],
        &["history"],
        &["doctor"],
        &[
            "fail-safely",
            "d0000003",
            "--reason",
            "INC-4711 dead node",
            "--dry-run",
        ],
        &[
            "fail-safely",
            "--from",
            list,
            "--reason",
            reason,
            "--dry-run",
        ],
        &[
            "fail-safely",
            "--from",
            list,
            "--reason",
            reason,
            "--plan-out",
            plan,
            "--force",
        ],
        &["wait", "d0000003", "--timeout", "1s"],
        &["wait", "--from", list, "--timeout", "1s"],
        &["approvals"],
        &["fail-safely", "d0000003", "--expect-path", "teardown"],
        &["stuck", "--group-by", "nodes"],
    ];
    for args in runs {
        check(&db, args);
    }
}

#[test]
fn the_sandbox_prose_cuts_no_word() {
    let db = TestDb::empty();
    let args = ["sandbox", "--big-incident", "--", "true"];
    check(&db, &args);
}

/// The incident's batch planned into `dir/approve.json` (`--plan-out`):
/// the plan file's path.
fn planned(db: &TestDb, list: &tempfile::NamedTempFile, dir: &tempfile::TempDir) -> String {
    let path = dir.path().join("approve.json");
    let path = path.to_str().expect("a UTF-8 path").to_string();
    let list = list.path().to_str().expect("a UTF-8 path");
    db.run(&[
        "fail-safely",
        "--from",
        list,
        "--reason",
        "INC-7 edge-07 died",
        "--plan-out",
        &path,
    ])
    .assert_code(0);
    path
}

#[test]
fn the_approvers_screen_cuts_no_word_and_ends_with_who_when_and_the_counts() {
    use pushleft_controller::ui::{Output, plan::apply_text};
    let (db, list, dir) = incident();
    let path = planned(&db, &list, &dir);
    let path = path.as_str();
    let mut file: serde_json::Value =
        serde_json::from_slice(&std::fs::read(path).expect("the plan")).expect("JSON");
    file.as_object_mut()
        .expect("an object")
        .remove("schema_version");
    let plan: pushleft_controller::model::plan::Plan =
        serde_json::from_value(file).expect("a plan");
    let now = plan.created_at + chrono::Duration::minutes(12);
    let shown = |width: usize| {
        let out = Output {
            width,
            ..Output::plain()
        };
        apply_text(&out, &plan, &plan.target, now)
    };
    let wide = shown(WIDE);
    for cols in NARROW {
        let narrow = shown(cols);
        assert_whole_words("the approver's screen", &wide, &narrow, cols);
        // Directly above the prompt: the warnings, the counts, who asked
        // and when (with its age).
        let last_row = narrow.rfind("e0000028").expect("the last row");
        let tail = narrow[last_row..]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        for expected in [
            "41 × teardown will wait for node edge-07",
            "41 deployments: 41 teardown_requested",
            "requested by ",
            "(12m ago), expires",
            "applying on ",
        ] {
            assert!(
                tail.contains(expected),
                "{cols} columns: `{expected}` in\n{tail}"
            );
        }
    }
    // The fingerprint is whole or not shown.
    let fingerprint = &plan.deployments[0].fingerprint;
    let at80 = shown(80);
    assert!(at80.contains(fingerprint.as_str()), "{at80}");
}

/// At 80×24 in tmux: the approver's question has, on the screen with it,
/// who asked and how many deployments take which path.
#[test]
fn the_approvers_prompt_names_the_requester_and_the_count_on_the_screen() {
    use crate::terminal::{Tmux, have_tmux};
    if !have_tmux() {
        return;
    }
    let (db, list, dir) = incident();
    let path = planned(&db, &list, &dir);
    let path = path.as_str();
    let before = db.dump();
    let me = pushleft_controller::db::connect::os_user();
    let shown = Tmux::start(&db, (80, 24), &["fail-safely", "--apply", path]);
    shown.wait_for("the prompt", |t| {
        t.visible()
            .iter()
            .any(|l| l.contains("deployments to write (41)"))
    });
    let screen = shown.visible();
    let text = screen.join("\n");
    for expected in [
        format!("requested by {me} (session_user "),
        "41 deployments: 41 teardown_requested".to_string(),
        "41 × teardown will wait for node edge-07".to_string(),
    ] {
        assert!(
            text.contains(&expected),
            "`{expected}` on the screen:\n{text}"
        );
    }
    assert!(screen.iter().all(|l| l.chars().count() <= 80), "{text}");
    shown.keys(&["0", "Enter"]);
    shown.wait_for("the exit status", |t| t.status().is_some());
    assert_eq!(db.dump(), before, "a wrong count writes nothing");
}

/// At 80×24 in tmux: `history` shows when (the time and its age) and who
/// approved.
#[test]
fn history_at_80_columns_shows_when_and_the_approval() {
    use crate::terminal::{Tmux, have_tmux};
    if !have_tmux() {
        return;
    }
    let (db, _list, _dir) = incident();
    let shown = Tmux::start(&db, (80, 24), &["history", "--no-pager"]);
    shown.finish();
    let all = shown.everything();
    let header = all
        .lines()
        .find(|l| l.starts_with("when "))
        .unwrap_or_else(|| panic!("a table with `when` first:\n{all}"));
    for column in ["when", "ago", "deployment", "by", "approval", "reason"] {
        assert!(
            header.split_whitespace().any(|h| h == column),
            "`{column}` at 80 columns:\n{all}"
        );
    }
    assert!(all.contains("SELF-APPROVED"), "{all}");
    assert!(all.contains(" ago "), "{all}");
    assert!(
        all.lines().all(|l| console::measure_text_width(l) <= 80),
        "{all}"
    );
}
