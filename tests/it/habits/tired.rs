//! What a tired operator trips over, at 80×24 in tmux (README, "Output
//! and exit codes"): `q` leaves `--watch` (exit 0) and Ctrl-C too (130),
//! neither with an "error:" line, the terminal given back; the top
//! level's `-h` fits the screen and `--help` opens the pager; `doctor`
//! sets warnings aside only when there are some; the sandbox's shell says
//! sandbox in its prompt.

use std::time::Duration;

use crate::support::TestDb;
use crate::terminal::{Tmux, have_tmux};

/// What the pager prints first when it runs.
const PAGER_RAN: &str = "the-pager-ran";

fn watching(watch: &Tmux) -> bool {
    watch
        .visible()
        .first()
        .is_some_and(|l| l.contains("last read 2"))
}

/// A watch left by `key`: its exit status and everything the terminal shows.
fn leave_watch(db: &TestDb, args: &[&str], key: &str) -> (String, String) {
    let watch = Tmux::start(db, (80, 24), args);
    watch.wait_for("a first frame", watching);
    assert!(
        watch.visible()[0].contains("q to quit"),
        "{:#?}",
        watch.visible()
    );
    watch.keys(&[key]);
    watch.wait_for("the exit status", |t| t.status().is_some());
    assert_eq!(watch.format("#{alternate_on}"), "0", "{args:?}");
    (watch.status().unwrap_or_default(), watch.everything())
}

#[test]
fn q_leaves_the_watch_with_0_and_ctrl_c_with_130_neither_an_error() {
    if !have_tmux() {
        return;
    }
    let db = TestDb::scenarios();
    for args in [
        &["stuck", "--watch", "1s"][..],
        &["fleet", "list", "--watch", "1s"],
    ] {
        for (key, code) in [("q", "0"), ("Q", "0"), ("C-c", "130")] {
            let (status, all) = leave_watch(&db, args, key);
            assert_eq!(status, code, "{args:?} {key}:\n{all}");
            assert!(!all.contains("error:"), "{args:?} {key}:\n{all}");
            assert!(!all.contains("interrupted"), "{args:?} {key}:\n{all}");
            // The last view stays on the normal screen.
            assert_eq!(all.matches("last read").count(), 1, "{all}");
        }
    }
    // The terminal is the shell's again: what is typed now is echoed
    // and read a line at a time.
    let typed = Tmux::start_shell(
        &db,
        (80, 24),
        "\"$PL\" stuck --watch 1s; read line; echo \"got $line\"",
    );
    typed.wait_for("a first frame", watching);
    typed.keys(&["q"]);
    std::thread::sleep(Duration::from_millis(500));
    typed.keys(&["hello", "Enter"]);
    typed.wait_for("the line read back", |t| t.status().is_some());
    let all = typed.everything();
    assert!(
        all.contains("\nhello") || all.contains("hello\n"),
        "echoed:\n{all}"
    );
    assert!(all.contains("got hello"), "{all}");
}

#[test]
fn the_short_help_fits_the_screen_and_the_long_help_is_paged() {
    if !have_tmux() {
        return;
    }
    let db = TestDb::scenarios();
    let short = Tmux::start(&db, (80, 24), &["-h"]);
    assert_eq!(short.finish(), "0");
    let screen = short.visible();
    assert!(
        screen[0].starts_with("The break-glass CLI"),
        "the top of -h scrolled away:\n{}",
        screen.join("\n")
    );
    assert_eq!(
        short.format("#{history_size}"),
        "0",
        "{}",
        screen.join("\n")
    );
    for long in [
        "--help",
        "help stuck",
        "help connection",
        "fail-safely --help",
    ] {
        let paged = Tmux::start_shell(
            &db,
            (80, 24),
            &format!("PAGER='echo {PAGER_RAN}; cat' \"$PL\" {long}"),
        );
        paged.wait_for("the exit status", |t| t.status().is_some());
        let all = paged.everything();
        assert_eq!(paged.status().as_deref(), Some("0"), "{long}:\n{all}");
        assert!(all.starts_with(PAGER_RAN), "{long} was not paged:\n{all}");
    }
    // --no-pager, and a pipe, print it as it is.
    for line in [
        format!("PAGER='echo {PAGER_RAN}; cat' \"$PL\" --help --no-pager"),
        format!("PAGER='echo {PAGER_RAN}; cat' \"$PL\" --help | cat"),
    ] {
        let plain = Tmux::start_shell(&db, (80, 24), &line);
        plain.wait_for("the exit status", |t| t.status().is_some());
        let all = plain.everything();
        assert!(!all.contains(PAGER_RAN), "{line}:\n{all}");
        assert!(all.contains("Exit status:"), "{line}:\n{all}");
    }
    // A command whose -h hides rarer options ends it saying so.
    let short = Tmux::start(&db, (80, 24), &["fail-safely", "-h"]);
    assert_eq!(short.finish(), "0");
    let all = short.everything();
    assert!(
        all.trim_end().ends_with(
            "Rarer options: --help. Shared: pushleft-controller help connection (or output)"
        ),
        "{all}"
    );
}

#[test]
fn doctor_sets_warnings_aside_only_when_there_are_some() {
    if !have_tmux() {
        return;
    }
    let db = TestDb::scenarios();
    let clean = Tmux::start(&db, (80, 24), &["doctor", "--no-pager"]);
    assert_eq!(clean.finish(), "0");
    let all = clean.everything();
    assert!(all.contains("all checks passed"), "{all}");
    assert!(!all.contains("warnings aside"), "{all}");
    db.client()
        .batch_execute("DROP INDEX deployment_events_operator_actions")
        .expect("dropping an index");
    let warned = Tmux::start(&db, (80, 24), &["doctor", "--no-pager"]);
    assert_eq!(warned.finish(), "0");
    let all = warned.everything();
    assert!(all.contains("warn  indexes"), "{all}");
    assert!(all.contains("all checks passed (warnings aside)"), "{all}");
}

#[test]
fn the_sandbox_shell_says_sandbox_in_its_prompt() {
    if !have_tmux() {
        return;
    }
    let db = TestDb::scenarios();
    for shell in ["/bin/bash", "/bin/sh"] {
        if !std::path::Path::new(shell).exists() {
            continue;
        }
        let sandbox = Tmux::start_shell(&db, (80, 24), &format!("SHELL={shell} \"$PL\" sandbox"));
        sandbox.wait_for("the sandbox's prompt", |t| {
            t.visible()
                .iter()
                .any(|l| l.starts_with("(pushleft sandbox) "))
        });
        sandbox.keys(&["echo \"url=$DATABASE_URL\"", "Enter"]);
        sandbox.wait_for("the shell's answer", |t| {
            t.visible().iter().any(|l| l.starts_with("url=postgresql"))
        });
        sandbox.keys(&["exit", "Enter"]);
        sandbox.wait_for("the exit status", |t| t.status().is_some());
        assert_eq!(sandbox.status().as_deref(), Some("0"), "{shell}");
    }
}
