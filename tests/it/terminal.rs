//! The screen as a terminal shows it: the real binary in tmux, judged by
//! what tmux shows (`capture-pane`: the visible screen and the
//! scrollback), not by the bytes written. At 80×24: once `diagnose` has
//! returned (through the pager or not) its verdict and next command are
//! on the visible screen; `--watch` frames never exceed the height and
//! the scrollback does not grow; at 60, 80 and 120 columns no line is
//! wider than the screen and no id, time or command is split. Without
//! tmux on the machine (`.ci/run` installs it) the tests say SKIPPED.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::screen::{assert_fits, known_ids};
use std::io::Write;

use crate::clock::rebase_to_now;
use crate::support::{TestDb, strand_on_edge_07};

/// One tmux server of its own (its socket in a temporary directory) with
/// one pane running the binary; the pane's shell writes the exit status
/// to a file and then sleeps, so nothing else is printed on the screen.
pub(crate) struct Tmux {
    dir: tempfile::TempDir,
}

pub(crate) fn have_tmux() -> bool {
    let found = Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        eprintln!("SKIPPED: no tmux on this machine (.ci/run installs it)");
    }
    found
}

fn quoted(arg: &str) -> String {
    format!("'{}'", arg.replace('\'', r"'\''"))
}

impl Tmux {
    pub(crate) fn start(db: &TestDb, size: (u16, u16), args: &[&str]) -> Tmux {
        let mut command = vec![quoted(env!("CARGO_BIN_EXE_pushleft-controller"))];
        command.extend(args.iter().map(|a| quoted(a)));
        Tmux::start_shell(db, size, &command.join(" "))
    }

    /// The pane runs `line` (sh: a pipeline, say); `"$PL"` in it is the
    /// binary under test.
    pub(crate) fn start_shell(db: &TestDb, (cols, rows): (u16, u16), line: &str) -> Tmux {
        let dir = tempfile::tempdir().expect("a directory for tmux");
        let tmux = Tmux { dir };
        let bin = quoted(env!("CARGO_BIN_EXE_pushleft-controller"));
        let script = format!(
            // Ctrl-C reaches the shell too: a trap (reset for the
            // command it runs) keeps it alive to write the status.
            "trap : INT; PL={bin}; {line}; echo $? > {}; exec sleep 600",
            quoted(&tmux.status_file().display().to_string())
        );
        let mut cmd = tmux.cmd();
        cmd.args(["new-session", "-d", "-s", "t", "-x", &cols.to_string()])
            .args(["-y", &rows.to_string(), "-e"])
            .arg(format!("DATABASE_URL={}", db.conninfo))
            .args(["-e", "TERM=xterm", "sh", "-c", &script]);
        let done = cmd.status().expect("tmux starts");
        assert!(done.success(), "tmux new-session: {done:?}");
        tmux
    }

    fn cmd(&self) -> Command {
        let mut cmd = Command::new("tmux");
        cmd.arg("-S").arg(self.dir.path().join("socket"));
        for var in [
            "DATABASE_URL",
            "PGHOST",
            "PGPORT",
            "PGUSER",
            "PGDATABASE",
            "PGSERVICE",
            "COLUMNS",
            "LINES",
            "NO_COLOR",
            "PAGER",
            "LESS",
            "TMUX",
        ] {
            cmd.env_remove(var);
        }
        cmd
    }

    fn status_file(&self) -> PathBuf {
        self.dir.path().join("status")
    }

    fn tmux(&self, args: &[&str]) -> String {
        let out = self.cmd().args(args).output().expect("running tmux");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// The visible screen, line by line.
    pub(crate) fn visible(&self) -> Vec<String> {
        self.tmux(&["capture-pane", "-p", "-t", "t"])
            .lines()
            .map(|l| l.trim_end().to_string())
            .collect()
    }

    /// The scrollback and the screen, lines the terminal wrapped joined.
    pub(crate) fn everything(&self) -> String {
        self.tmux(&["capture-pane", "-p", "-J", "-S", "-", "-t", "t"])
            .lines()
            .map(str::trim_end)
            .collect::<Vec<_>>()
            .join("\n")
    }

    pub(crate) fn format(&self, format: &str) -> String {
        self.tmux(&["display-message", "-p", "-t", "t", format])
            .trim()
            .to_string()
    }

    pub(crate) fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "t"];
        args.extend(keys);
        self.tmux(&args);
    }

    pub(crate) fn status(&self) -> Option<String> {
        std::fs::read_to_string(self.status_file())
            .ok()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
    }

    /// Waits until `ready` holds of the visible screen (60 s at most).
    #[track_caller]
    pub(crate) fn wait_for(&self, what: &str, ready: impl Fn(&Tmux) -> bool) {
        let start = Instant::now();
        while !ready(self) {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "waited a minute for {what}:\n{}",
                self.visible().join("\n")
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// Runs to its end: a pager waiting on its first page is left with q.
    pub(crate) fn finish(&self) -> String {
        self.wait_for("the output", |t| {
            t.status().is_some() || t.visible().iter().any(|l| l.starts_with("fingerprint"))
        });
        let start = Instant::now();
        while self.status().is_none() {
            if start.elapsed() > Duration::from_secs(2) {
                self.keys(&["q"]);
            }
            assert!(start.elapsed() < Duration::from_secs(60), "it never ends");
            std::thread::sleep(Duration::from_millis(200));
        }
        self.status().unwrap_or_default()
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd().arg("kill-server").output();
    }
}

/// The verdict's headline and the command to run, on the visible screen.
#[track_caller]
fn assert_answer_visible(label: &str, screen: &[String], id: &str) {
    let text = screen.join("\n");
    assert!(
        screen
            .iter()
            .any(|l| l.starts_with("VERDICT teardown_requested")),
        "{label}: the verdict is not on the screen:\n{text}"
    );
    assert!(
        screen.iter().any(|l| l.trim()
            == format!("pushleft-controller fail-safely {id} --reason \"<ticket and reason>\"")),
        "{label}: the next command is not on the screen:\n{text}"
    );
}

#[test]
fn after_diagnose_returns_the_verdict_and_the_next_command_are_on_the_screen() {
    if !have_tmux() {
        return;
    }
    let db = TestDb::scenarios();
    // d0000003 and d0000008 are taller than 24 lines.
    for id in ["d0000003", "d0000008"] {
        // Through the pager (less -FRX): its first page, left with q.
        let paged = Tmux::start(&db, (80, 24), &["diagnose", id]);
        paged.wait_for("the pager's first page", |t| {
            t.visible().last().is_some_and(|l| l.starts_with(':'))
        });
        assert_answer_visible("on the pager's first page", &paged.visible(), id);
        paged.keys(&["q"]);
        paged.wait_for("the exit status", |t| t.status().is_some());
        assert_eq!(paged.status().as_deref(), Some("0"));
        assert_answer_visible("after the pager", &paged.visible(), id);
        // Without it: printed whole, the verdict again at the end.
        let whole = Tmux::start(&db, (80, 24), &["diagnose", id, "--no-pager"]);
        assert_eq!(whole.finish(), "0");
        assert_answer_visible("--no-pager", &whole.visible(), id);
    }
    // Short enough for the screen: no pager, nothing repeated.
    let short = Tmux::start(&db, (80, 24), &["diagnose", "d0000009"]);
    assert_eq!(short.finish(), "0");
    let screen = short.visible().join("\n");
    assert_eq!(screen.matches("VERDICT").count(), 1, "{screen}");
    assert!(screen.contains("no agent results ·"), "{screen}");
}

#[test]
fn watch_stays_on_one_screen_and_leaves_its_last_view() {
    if !have_tmux() {
        return;
    }
    let db = TestDb::scenarios();
    // A big incident: far taller than the screen.
    strand_on_edge_07(&db, 40);
    let watch = Tmux::start(&db, (80, 24), &["stuck", "--watch", "1s"]);
    let read_at = |t: &Tmux| {
        t.visible()
            .first()
            .and_then(|l| l.split("last read ").nth(1).map(|r| r[..20].to_string()))
    };
    watch.wait_for("a first frame", |t| read_at(t).is_some());
    let first = read_at(&watch);
    watch.wait_for("two refreshes more", |t| {
        read_at(t).is_some_and(|r| Some(&r) > first.as_ref())
    });
    std::thread::sleep(Duration::from_millis(1200));
    let screen = watch.visible();
    assert!(screen[0].starts_with("every 1s · last read"), "{screen:#?}");
    assert!(
        screen
            .iter()
            .any(|l| l.starts_with("… ") && l.contains("more lines")),
        "the view is clipped with … N more lines:\n{}",
        screen.join("\n")
    );
    assert_eq!(watch.format("#{alternate_on}"), "1");
    assert_eq!(
        watch.format("#{history_size}"),
        "0",
        "nothing piles up in the scrollback"
    );
    watch.keys(&["C-c"]);
    watch.wait_for("the exit status", |t| t.status().is_some());
    assert_eq!(watch.status().as_deref(), Some("130"));
    assert_eq!(watch.format("#{alternate_on}"), "0");
    // The last view, once, on the normal screen.
    let all = watch.everything();
    assert_eq!(all.matches("last read").count(), 1, "{all}");
    assert!(all.contains("Stuck deployments"), "{all}");
    assert!(!all.contains("panicked"), "{all}");
}

#[test]
fn at_60_80_and_120_columns_nothing_is_wider_than_the_screen_or_split() {
    if !have_tmux() {
        return;
    }
    let db = TestDb::scenarios();
    strand_on_edge_07(&db, 3);
    db.run(&[
        "fail-safely",
        "d0000004",
        "--reason",
        "INC-4713 queued, never dispatched: a network attachment keeps the reaper off",
        "--yes",
    ])
    .assert_code(0);
    let ids = known_ids(&db);
    let runs: &[&[&str]] = &[
        &["diagnose", "d0000003"],
        &["diagnose", "d0000008"],
        &["diagnose", "d0000004"],
        &["stuck"],
        &["stuck", "--group-by", "node"],
        &["history"],
        &["fleet", "list"],
        &[
            "fail-safely",
            "d0000003",
            "--reason",
            "INC-4711 screen test",
            "--dry-run",
        ],
        &["doctor"],
    ];
    for cols in [60, 80, 120] {
        for args in runs {
            let mut args = args.to_vec();
            args.push("--no-pager");
            let label = format!("{} at {cols} columns", args.join(" "));
            let shown = Tmux::start(&db, (cols, 24), &args);
            shown.finish();
            let all = shown.everything();
            assert!(all.len() > 40, "{label}: nothing on the screen: {all:?}");
            for line in all.lines() {
                let width = console::measure_text_width(line);
                assert!(
                    width <= usize::from(cols),
                    "{label}: a line of {width} columns:\n{line}\n\n{all}"
                );
            }
            // A command continued with ` \` is one command: whole, once
            // its lines are joined.
            let joined = all.replace(" \\\n", " ");
            assert_fits(&label, &joined, usize::MAX, &ids);
        }
    }
}

#[test]
fn the_batch_prompt_shows_its_counts_and_its_target_on_the_screen() {
    if !have_tmux() {
        return;
    }
    let db = TestDb::scenarios();
    rebase_to_now(&mut db.client());
    // 40 teardowns for a dead node: the plan is far taller than the screen.
    strand_on_edge_07(&db, 40);
    let mut list = tempfile::NamedTempFile::new().expect("a batch file");
    for g in 1..=40u32 {
        writeln!(list, "e{g:07x}-0000-4000-8000-000000000000").expect("writing the batch");
    }
    let path = list.path().to_str().expect("a UTF-8 path").to_string();
    let before = db.dump();
    let batch = Tmux::start(
        &db,
        (80, 24),
        &[
            "fail-safely",
            "--from",
            &path,
            "--reason",
            "INC-7 edge-07 died",
        ],
    );
    batch.wait_for("the prompt", |t| {
        t.visible()
            .iter()
            .any(|l| l.contains("deployments to write (40)"))
    });
    let screen = batch.visible();
    let text = screen.join("\n");
    assert!(
        screen
            .iter()
            .any(|l| l.contains("PLAN for 40 deployments: 40 to write (40 teardown_requested)")),
        "the counts, above the prompt:\n{text}"
    );
    assert!(
        screen
            .iter()
            .any(|l| l.contains(&format!("on {} at", db.name)) && l.contains("(primary)")),
        "where it writes, above the prompt:\n{text}"
    );
    assert!(
        screen
            .iter()
            .any(|l| l.contains("40 × teardown will wait for node edge-07")),
        "the waits, grouped:\n{text}"
    );
    assert!(screen.iter().all(|l| l.chars().count() <= 80), "{text}");
    batch.keys(&["0", "Enter"]);
    batch.wait_for("the exit status", |t| t.status().is_some());
    assert_ne!(batch.status().as_deref(), Some("0"));
    assert_eq!(db.dump(), before, "a wrong count writes nothing");
}
