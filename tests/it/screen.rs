//! The screen as an operator sees it: the real binary in a pseudo-terminal
//! of 80×24, and of 0×0 (a terminal that does not know its size: 80
//! columns are assumed). For `diagnose` on every scenario, `stuck`, `fleet
//! list`, `fail-safely --dry-run`, `wait` and `doctor`: no line is wider
//! than the screen, every id is shown whole (its 8-digit short form or the
//! full UUID, never cut or wrapped), and every suggested command stands
//! whole on one line.

use std::collections::BTreeSet;
use std::process::{Command, Stdio};

use crate::support::{TestDb, scenario};

/// The width a terminal of `cols` columns gives the tool.
fn effective_width(cols: u16) -> usize {
    if cols == 0 { 80 } else { usize::from(cols) }
}

/// Runs the binary in a pseudo-terminal of `cols`×`rows`; returns what the
/// terminal received (stdout and stderr both) and the exit status.
fn on_terminal(db: &TestDb, (cols, rows): (u16, u16), args: &[&str]) -> (String, String) {
    let mut cmd = Command::new("sh");
    cmd.args([
        "-c",
        &format!("stty cols {cols} rows {rows} && exec \"$0\" \"$@\""),
        env!("CARGO_BIN_EXE_pushleft-controller"),
    ])
    .args(args);
    for var in [
        "PGHOST",
        "PGPORT",
        "PGUSER",
        "PGDATABASE",
        "PGPASSWORD",
        "PGSSLMODE",
        "PGSERVICE",
        "NO_COLOR",
        "COLUMNS",
        "LINES",
    ] {
        cmd.env_remove(var);
    }
    // The byte stream is judged here, whole: no pager holds it (the
    // screen as tmux shows it, pager included, is tests/it/terminal.rs's).
    cmd.env("DATABASE_URL", &db.conninfo)
        .env("TERM", "xterm")
        .env("PAGER", "cat")
        .stdin(Stdio::inherit());
    let mut session = rexpect::session::spawn_command(cmd, Some(60_000)).expect("a pty");
    // rexpect hands each byte over as one char: make it UTF-8 again.
    let bytes: Vec<u8> = session
        .exp_eof()
        .expect("the command ends")
        .chars()
        .map(|c| c as u8)
        .collect();
    let screen = String::from_utf8_lossy(&bytes).into_owned();
    let status = format!("{:?}", session.process().wait().expect("its status"));
    (screen, status)
}

/// The lines as the terminal shows them: colour and cursor sequences
/// removed; a carriage return (a redrawn progress bar) starts a line too.
fn lines(screen: &str) -> Vec<String> {
    console::strip_ansi_codes(screen)
        .split(['\n', '\r'])
        .map(str::to_string)
        .collect()
}

/// Every UUID in a text (the JSON of the same data: the ids to look for).
fn uuids_in(text: &str) -> BTreeSet<String> {
    let bytes = text.as_bytes();
    let mut found = BTreeSet::new();
    for start in 0..bytes.len().saturating_sub(35) {
        if !text.is_char_boundary(start) || !text.is_char_boundary(start + 36) {
            continue;
        }
        let candidate = &text[start..start + 36];
        if uuid::Uuid::parse_str(candidate).is_ok() && candidate.len() == 36 {
            found.insert(candidate.to_ascii_lowercase());
        }
    }
    found
}

/// Runs of characters an id is made of.
pub(crate) fn id_tokens(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| !(c.is_ascii_hexdigit() || c == '-'))
        .map(|t| t.trim_matches('-'))
        .filter(|t| t.len() >= 4)
}

/// Whether `token` looks like a piece of a UUID cut somewhere: hex groups
/// joined by dashes in the UUID pattern, but not a whole one.
pub(crate) fn is_partial_uuid(token: &str) -> bool {
    let groups: Vec<&str> = token.split('-').collect();
    let lens = [8, 4, 4, 4, 12];
    groups.len() > 1
        && groups.len() <= 5
        && groups
            .iter()
            .all(|g| g.chars().all(|c| c.is_ascii_hexdigit()))
        && groups[0].len() == 8
        && groups
            .iter()
            .zip(lens)
            .all(|(g, len)| g.len() <= len && !g.is_empty())
        && uuid::Uuid::parse_str(token).is_err()
}

/// What the screen must hold to: see the module comment.
#[track_caller]
pub(crate) fn assert_fits(label: &str, screen: &str, width: usize, ids: &BTreeSet<String>) {
    let shown = lines(screen);
    let all = shown.join("\n");
    for line in &shown {
        let w = console::measure_text_width(line);
        assert!(
            w <= width,
            "{label}: a line of {w} > {width} columns:\n{line}\n\n{all}"
        );
        for token in id_tokens(line) {
            assert!(
                !is_partial_uuid(token),
                "{label}: a cut id `{token}` in:\n{line}\n\n{all}"
            );
            let lower = token.to_ascii_lowercase();
            let known = ids.iter().any(|id| id.starts_with(&lower));
            assert!(
                !known || lower.len() == 8 || lower.len() == 36,
                "{label}: id `{token}` is neither its short form nor whole in:\n{line}\n\n{all}"
            );
        }
        assert!(
            line.matches('`').count() % 2 == 0,
            "{label}: a quoted command split across lines:\n{line}\n\n{all}"
        );
        let text = line.trim_start();
        // A suggested command: the tool's name and a command that takes an
        // id (doctor's header line names the tool too, with a colon).
        let suggested = text
            .strip_prefix("pushleft-controller ")
            .filter(|rest| !rest.split(' ').next().unwrap_or("").ends_with(':'));
        if let Some(command) = suggested {
            let whole = ["fail-safely ", "diagnose ", "wait "]
                .iter()
                .any(|sub| command.starts_with(sub))
                && id_tokens(command).any(|t| t.len() == 8 || t.len() == 36)
                // `stuck --group-by`'s command that lists a group.
                || (command == "stuck" || command.starts_with("stuck --"))
                    && !command.ends_with('\\')
                // Its batch workflow: a list file, a reason, a dry run.
                || command.starts_with("fail-safely --from ")
                    && command.ends_with("--dry-run");
            assert!(
                whole,
                "{label}: a command that is not whole:\n{line}\n\n{all}"
            );
            if command.starts_with("fail-safely ") {
                // A placeholder, or the reason given (a dry run's next
                // step is the same command without --dry-run), quoted.
                assert!(
                    command.contains("--reason \"<ticket and reason>\"")
                        || command.contains("--reason '") && command.ends_with('\''),
                    "{label}: the command lost its --reason:\n{line}\n\n{all}"
                );
            }
        }
        assert!(
            !text.ends_with("pushleft-controller") && !text.starts_with("--reason"),
            "{label}: a command broken across lines:\n{line}\n\n{all}"
        );
    }
}

/// The ids any of these commands can show.
pub(crate) fn known_ids(db: &TestDb) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    for n in 1..=9 {
        ids.extend(uuids_in(
            &db.run(&["diagnose", &scenario(n), "-o", "json"]).stdout,
        ));
    }
    for args in [&["stuck"][..], &["fleet", "list"]] {
        let mut args = args.to_vec();
        args.extend(["-o", "json"]);
        ids.extend(uuids_in(&db.run(&args).stdout));
    }
    ids
}

fn every_screen_fits(size: (u16, u16)) {
    let db = TestDb::scenarios();
    let ids = known_ids(&db);
    let width = effective_width(size.0);
    let mut runs: Vec<Vec<String>> = (1..=9)
        .map(|n| vec!["diagnose".to_string(), format!("d000000{n}")])
        .collect();
    for args in [
        &["stuck"][..],
        &["fleet", "list"],
        &[
            "fail-safely",
            "d0000003",
            "--reason",
            "INC-4711 screen test",
            "--dry-run",
        ],
        &["wait", "d0000007", "--timeout", "2s", "--interval", "500ms"],
        &["doctor"],
        &["approvals", "install", "--require-approval"],
    ] {
        runs.push(args.iter().map(|a| a.to_string()).collect());
    }
    for args in runs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let label = format!("{} at {}x{}", args.join(" "), size.0, size.1);
        let (screen, status) = on_terminal(&db, size, &args);
        // wait times out (6) on the teardown still under way; the rest
        // succeed.
        let expected = if args[0] == "wait" { "6" } else { "0" };
        assert!(status.contains(expected), "{label}: {status}\n{screen}");
        assert!(
            screen.len() > 40,
            "{label}: nothing on the screen: {screen:?}"
        );
        assert_fits(&label, &screen, width, &ids);
    }
}

#[test]
fn every_screen_fits_80_columns() {
    every_screen_fits((80, 24));
}

#[test]
fn a_terminal_of_unknown_size_counts_as_80_columns() {
    every_screen_fits((0, 0));
}

#[test]
fn the_checks_catch_what_they_are_for() {
    let ids: BTreeSet<String> = ["d0000003-0000-4000-8000-000000000003".to_string()].into();
    assert!(is_partial_uuid("d0000003-0000-4000"));
    assert!(!is_partial_uuid("d0000003-0000-4000-8000-000000000003"));
    assert!(!is_partial_uuid("2026-11-29"));
    let bad = [
        ("x".repeat(81), "a line of 81"),
        ("job d000000 cut".to_string(), "neither its short form"),
        ("  pushleft-controller".to_string(), "broken across lines"),
        ("  pushleft-controller diagnose".to_string(), "not whole"),
    ];
    for (screen, says) in bad {
        let caught = std::panic::catch_unwind(|| assert_fits("t", &screen, 80, &ids));
        let message = caught
            .expect_err(says)
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_default();
        assert!(message.contains(says), "{message}");
    }
    assert_fits(
        "t",
        "deployment d0000003 · d0000003-0000-4000-8000-000000000003",
        80,
        &ids,
    );
}

#[test]
fn columns_headers_and_colour_are_the_operators_to_choose() {
    let db = TestDb::scenarios();
    let fleet = |columns: &str, extra: &[&str]| {
        let mut cmd = db.cmd();
        cmd.env("COLUMNS", columns)
            .args(["fleet", "list", "-o", "table"])
            .args(extra);
        crate::support::Run::from(cmd.output().unwrap())
    };
    // COLUMNS is honoured: wide enough for every column, or not.
    let wide = fleet("200", &[]);
    assert!(
        wide.stdout.lines().next().unwrap().contains("last seen"),
        "{}",
        wide.stdout
    );
    assert!(
        !wide.stdout.contains("not shown on this width"),
        "{}",
        wide.stdout
    );
    let narrow = fleet("60", &[]);
    assert!(
        narrow
            .stdout
            .lines()
            .all(|l| console::measure_text_width(l) <= 60),
        "{}",
        narrow.stdout
    );
    assert!(
        narrow.stdout.contains("-o wide shows every column"),
        "{}",
        narrow.stdout
    );
    // --no-headers: the first line is a node.
    let bare = fleet("200", &["--no-headers"]);
    assert!(bare.stdout.starts_with("build-01"), "{}", bare.stdout);
    // --color always colours even a pipe; never and NO_COLOR do not.
    assert!(
        fleet("200", &["--color", "always"])
            .stdout
            .contains("\u{1b}[")
    );
    assert!(
        !fleet("200", &["--color", "never"])
            .stdout
            .contains('\u{1b}')
    );
}
