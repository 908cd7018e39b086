//! At 80×24 in tmux, what a tired operator types: `history --since
//! 2h30m`, a local time, `history ID`, a second `--plan-out` to the same
//! file, and `stuck -o json | fail-safely --from -` asking on the
//! terminal (README, "Durations and times", "A big incident"). Without
//! tmux the tests say SKIPPED.

use crate::support::{TestDb, strand_on_edge_07};
use crate::terminal::{Tmux, have_tmux};

const SCREEN: (u16, u16) = (80, 24);

/// `line` run to its end in the pane: its status and everything shown.
fn shown(db: &TestDb, line: &str) -> (String, String) {
    let pane = Tmux::start_shell(db, SCREEN, line);
    pane.wait_for("the exit status", |t| t.status().is_some());
    (pane.status().unwrap_or_default(), pane.everything())
}

#[test]
fn history_takes_compound_durations_local_times_and_the_id_on_the_screen() {
    if !have_tmux() {
        return;
    }
    let db = TestDb::scenarios();
    db.run(&[
        "fail-safely",
        "d0000002",
        "--reason",
        "INC-9 typed",
        "--yes",
    ])
    .assert_code(0);
    for line in [
        r#""$PL" history --since 2h30m --no-pager"#,
        r#"TZ=Europe/Berlin "$PL" history --since '2026-01-01 20:05' --no-pager"#,
        r#""$PL" history d0000002 --no-pager"#,
    ] {
        let (status, screen) = shown(&db, line);
        assert_eq!(status, "0", "{line}:\n{screen}");
        assert!(screen.contains("d0000002"), "{line}:\n{screen}");
        assert!(screen.contains("INC-9 typed"), "{line}:\n{screen}");
        assert!(!screen.contains("error"), "{line}:\n{screen}");
        assert!(
            screen.lines().all(|l| console::measure_text_width(l) <= 80),
            "{line}:\n{screen}"
        );
    }
}

#[test]
fn a_second_plan_out_to_the_same_file_is_refused_on_the_screen() {
    if !have_tmux() {
        return;
    }
    let db = TestDb::scenarios();
    let dir = tempfile::tempdir().expect("a directory");
    let plan = dir.path().join("plan.json");
    let line = format!(
        r#""$PL" fail-safely d0000002 --reason 'INC-9 plan' --plan-out '{}'"#,
        plan.display()
    );
    let (status, screen) = shown(&db, &line);
    assert_eq!(status, "0", "{screen}");
    let first = std::fs::read_to_string(&plan).expect("the plan");
    let (status, screen) = shown(&db, &line);
    assert_eq!(status, "2", "{screen}");
    let joined = screen.replace('\n', " ");
    assert!(
        joined.contains("exists and is not overwritten") && joined.contains("--force"),
        "{screen}"
    );
    assert_eq!(std::fs::read_to_string(&plan).expect("the plan"), first);
}

/// `stuck --node edge-07 -o json | fail-safely --from -` in the pane, up
/// to its question: the pane and the count it asks for.
fn piped_batch(db: &TestDb) -> (Tmux, String) {
    let pane = Tmux::start_shell(
        db,
        SCREEN,
        r#""$PL" stuck --node edge-07 -o json | "$PL" fail-safely --from - --reason 'INC-9 piped'"#,
    );
    pane.wait_for("the question", |t| {
        t.status().is_some()
            || t.visible()
                .iter()
                .any(|l| l.contains("deployments to write ("))
    });
    let screen = pane.visible().join("\n");
    assert!(
        pane.status().is_none(),
        "it asks instead of refusing:\n{screen}"
    );
    let count = screen
        .split("deployments to write (")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .unwrap_or_default()
        .to_string();
    assert!(count.parse::<u32>().is_ok_and(|n| n >= 3), "{screen}");
    (pane, count)
}

#[test]
fn a_batch_piped_on_stdin_asks_on_the_terminal() {
    if !have_tmux() {
        return;
    }
    let db = TestDb::scenarios();
    crate::clock::rebase_to_now(&mut db.client());
    strand_on_edge_07(&db, 3);
    let before = db.dump();
    // n: nothing is written.
    let (pane, _) = piped_batch(&db);
    pane.keys(&["n", "Enter"]);
    pane.wait_for("the exit status", |t| t.status().is_some());
    assert_eq!(pane.status().as_deref(), Some("4"), "{}", pane.everything());
    assert!(pane.everything().contains("nothing was written"));
    assert_eq!(db.dump(), before, "n writes nothing");
    // The count typed back (the batch's "yes"): written.
    let (pane, count) = piped_batch(&db);
    pane.keys(&[&count, "Enter"]);
    pane.wait_for("the exit status", |t| t.status().is_some());
    let screen = pane.everything();
    assert_eq!(pane.status().as_deref(), Some("0"), "{screen}");
    assert_ne!(db.dump(), before, "written:\n{screen}");
    let written: i64 = db
        .client()
        .query_one(
            "SELECT count(*) FROM deployment_events WHERE payload ->> 'reason' = 'INC-9 piped'",
            &[],
        )
        .expect("counting the events")
        .get(0);
    assert_eq!(written.to_string(), count, "{screen}");
}
