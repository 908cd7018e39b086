//! What the tool suggests is a command to paste: above a few rows `stuck`
//! suggests one batch command (each row's stays in the JSON), a dry run's
//! next step is the same command without `--dry-run`; and `wait` and
//! `fleet list` have a report for a ticket (`-o markdown`).

use crate::clock::rebase_to_now;
use crate::support::{TestDb, scenario, strand_on_edge_07};
use crate::terminal::{Tmux, have_tmux};

fn stranded_40() -> TestDb {
    let db = TestDb::scenarios();
    rebase_to_now(&mut db.client());
    strand_on_edge_07(&db, 40);
    db
}

const BATCH: &str = "pushleft-controller stuck --node edge-07 -o json | pushleft-controller \
                     fail-safely --from - --reason \"<ticket and reason>\"";

#[test]
fn stuck_over_forty_rows_suggests_one_batch_command() {
    let db = stranded_40();
    let run = db.run(&["stuck", "--node", "edge-07"]);
    run.assert_code(0);
    let joined = run.stdout.replace(" \\\n      ", " ");
    assert!(joined.contains(BATCH), "{}", run.stdout);
    assert_eq!(
        run.stdout
            .matches("pushleft-controller fail-safely e")
            .count(),
        0,
        "no command per row:\n{}",
        run.stdout
    );
    // The rows' own commands stay in the JSON.
    let doc = db.run(&["stuck", "--node", "edge-07", "-o", "json"]).json();
    let rows = doc["deployments_stuck"].as_array().unwrap();
    assert_eq!(rows.len(), 41);
    assert!(
        rows.iter().all(|r| r["next_command"]
            .as_str()
            .is_some_and(|c| c.starts_with("pushleft-controller fail-safely "))),
        "{doc:#}"
    );
    // A few rows keep one command each.
    let few = db.run(&["stuck", "--node", "edge-01"]);
    assert!(!few.stdout.contains("--from -"), "{}", few.stdout);
}

#[test]
fn on_the_terminal_stuck_over_forty_rows_shows_the_batch_command_whole() {
    if !have_tmux() {
        return;
    }
    let db = stranded_40();
    let pane = Tmux::start(&db, (80, 24), &["stuck", "--node", "edge-07", "--no-pager"]);
    pane.wait_for("the exit status", |t| t.status().is_some());
    assert_eq!(pane.status().as_deref(), Some("0"));
    let all = pane.everything();
    assert!(all.lines().all(|l| l.chars().count() <= 80), "{all}");
    let joined = all.replace(" \\\n      ", " ");
    assert!(joined.contains(BATCH), "{all}");
    assert_eq!(
        joined.matches("pushleft-controller fail-safely").count(),
        1,
        "one command, not one per row:\n{all}"
    );
}

#[test]
fn wait_and_fleet_list_have_markdown() {
    let db = TestDb::scenarios();
    let id = scenario(3);
    db.run(&["fail-safely", &id, "--reason", "INC-23 dead node", "--yes"])
        .assert_code(0);
    let wait = db.run(&["wait", &id, "-o", "markdown"]);
    wait.assert_code(7);
    assert!(
        wait.stdout.starts_with(
            "### Wait for `d0000003-0000-4000-8000-000000000003` — `blocked_on_dead_node`"
        ),
        "{}",
        wait.stdout
    );
    assert!(wait.stdout.contains("| `blocked` |"), "{}", wait.stdout);
    assert!(wait.stdout.contains("**Next:**"), "{}", wait.stdout);
    let many = db.run(&["wait", &id, &scenario(1), "-o", "markdown"]);
    assert!(
        many.stdout
            .contains("| deployment | result | where it stands | after |"),
        "{}",
        many.stdout
    );
    assert!(
        many.stdout.contains("- 1 × waiting for dead node edge-07"),
        "{}",
        many.stdout
    );
    let fleet = db.run(&["fleet", "list", "-o", "markdown"]);
    fleet.assert_code(0);
    assert!(fleet.stdout.starts_with("### Fleet: "), "{}", fleet.stdout);
    assert!(
        fleet.stdout.contains("| node | pool | status |"),
        "{}",
        fleet.stdout
    );
    assert!(fleet.stdout.contains("| edge-07 |"), "{}", fleet.stdout);
    assert!(fleet.stdout.contains("STALE"), "{}", fleet.stdout);
}

#[test]
fn the_dry_runs_next_step_is_the_same_command_without_dry_run() {
    let db = TestDb::scenarios();
    let run = db.run(&[
        "fail-safely",
        &scenario(2),
        "--reason",
        "INC-4712 it's stuck",
        "--dry-run",
    ]);
    run.assert_code(0);
    assert!(!run.stdout.contains("rerun without"), "{}", run.stdout);
    let lines: Vec<&str> = run.stdout.lines().collect();
    let next = lines
        .iter()
        .position(|l| l.starts_with("Next: the same without --dry-run"))
        .unwrap_or_else(|| panic!("{}", run.stdout));
    assert_eq!(
        lines[next + 1].trim(),
        "pushleft-controller fail-safely d0000002 --reason 'INC-4712 it'\\''s stuck'",
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("  --yes --expect-path teardown_requested"),
        "the unattended options too: {}",
        run.stdout
    );
}
