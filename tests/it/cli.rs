//! The command line itself: clap's own checks, help on every command,
//! generated completions and man pages that are current and work, and a
//! closed pipe that ends the program quietly.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use clap::CommandFactory;
use pushleft_controller::cli::Cli;

use crate::support::{Run, bin};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_clap_definition_is_consistent() {
    Cli::command().debug_assert();
}

#[test]
fn every_command_has_a_summary_an_explanation_and_examples() {
    let root = Cli::command();
    let mut commands = vec![root.clone()];
    for sub in root.get_subcommands().filter(|s| !s.is_hide_set()) {
        commands.push(sub.clone());
        commands.extend(sub.get_subcommands().cloned());
    }
    assert!(commands.len() >= 9);
    for cmd in commands {
        let name = cmd.get_name().to_string();
        let about = cmd.get_about().map(|a| a.to_string()).unwrap_or_default();
        assert!(
            !about.is_empty() && !about.contains('\n'),
            "{name}: summary"
        );
        let long = cmd
            .get_long_about()
            .map(|a| a.to_string())
            .unwrap_or_default();
        assert!(
            long.len() > about.len() + 40,
            "{name}: explanation: {long:?}"
        );
        let after = cmd
            .get_after_help()
            .map(|a| a.to_string())
            .unwrap_or_default();
        assert!(
            after.contains("Examples:\n  pushleft-controller"),
            "{name}: examples"
        );

        // And what the operator sees.
        let mut args: Vec<String> = Vec::new();
        if name != "pushleft-controller" {
            if ["list"].contains(&name.as_str()) {
                args.push("fleet".into());
            }
            if ["install"].contains(&name.as_str()) {
                args.push("approvals".into());
            }
            args.push(name.clone());
        }
        args.push("--help".into());
        let run = Run::from(bin().args(&args).output().unwrap());
        run.assert_code(0);
        assert!(
            run.stdout.contains("Examples:"),
            "{name} --help:\n{}",
            run.stdout
        );
        assert!(
            run.stdout.contains(&about),
            "{name} --help:\n{}",
            run.stdout
        );
    }
}

#[test]
fn a_closed_pipe_ends_quietly() {
    for args in [&["--help"][..], &["doctor", "--help"], &["--version"]] {
        let (reader, writer) = std::io::pipe().unwrap();
        // Closed before the program writes a byte: every write fails (EPIPE).
        drop(reader);
        let output = bin()
            .args(args)
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(
            output.status.code().is_some(),
            "{args:?}: killed by a signal"
        );
    }
    // Our own printing path, through `doctor` against a real database.
    let db = crate::support::TestDb::scenarios();
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let output = db
        .cmd()
        .args(["doctor", "--output", "table"])
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");

    // The shell's way: `--help | head -c1`.
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "'{}' --help | head -c1",
            env!("CARGO_BIN_EXE_pushleft-controller")
        ))
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(!String::from_utf8_lossy(&output.stderr).contains("panicked"));
}

/// The files directly in `dir`: not its subdirectories, so `man/src/` (the
/// roff the pages are made from, not a page) is neither compared nor linted.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|err| panic!("reading {}: {err}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    files
}

#[test]
fn committed_completions_and_man_pages_are_current() {
    let tmp = tempfile::tempdir().unwrap();
    let run = Run::from(
        bin()
            .args(["generate", "--out-dir"])
            .arg(tmp.path())
            .output()
            .unwrap(),
    );
    run.assert_code(0);
    for sub in ["completions", "man"] {
        let fresh = files_under(&tmp.path().join(sub));
        let committed = files_under(&repo().join(sub));
        let names = |files: &[PathBuf]| -> Vec<String> {
            files
                .iter()
                .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
                .collect()
        };
        assert_eq!(
            names(&committed),
            names(&fresh),
            "{sub}/ differs from what `generate` writes; run: cargo run -- generate"
        );
        for (fresh, committed) in fresh.iter().zip(&committed) {
            assert!(
                std::fs::read(fresh).unwrap() == std::fs::read(committed).unwrap(),
                "{} is stale; run: cargo run -- generate",
                committed.display()
            );
        }
    }
    assert!(
        repo()
            .join("man/pushleft-controller-fleet-list.1")
            .is_file()
    );
    assert!(
        repo()
            .join("completions/_pushleft-controller.ps1")
            .is_file()
    );
}

/// What bash offers for the words typed so far.
fn bash_complete(words: &[&str]) -> Vec<String> {
    bash_complete_with(&[], words)
}

/// What bash offers for the words typed so far, with `env` set: the
/// committed script, which asks the binary on PATH (the one under test).
pub fn bash_complete_with(env: &[(&str, &str)], words: &[&str]) -> Vec<String> {
    let script = format!(
        "source '{}'\n\
         COMP_WORDS=({})\n\
         COMP_CWORD={}\n\
         COMP_LINE=\"${{COMP_WORDS[*]}}\"\n\
         COMP_POINT=${{#COMP_LINE}}\n\
         _clap_complete_pushleft_controller pushleft-controller '{}' '{}'\n\
         printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        repo()
            .join("completions/pushleft-controller.bash")
            .display(),
        words
            .iter()
            .map(|w| format!("'{w}'"))
            .collect::<Vec<_>>()
            .join(" "),
        words.len() - 1,
        words[words.len() - 1],
        words[words.len().saturating_sub(2)],
    );
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_pushleft-controller"))
        .parent()
        .expect("the binary's directory");
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &script])
        .env("PATH", path)
        .env_remove("DATABASE_URL")
        .envs(env.iter().copied())
        .output()
        .expect("running bash (needed for this test)");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn bash_completes_subcommands_and_flags_with_the_committed_file() {
    assert_eq!(bash_complete(&["pushleft-controller", "di"]), ["diagnose"]);
    assert_eq!(bash_complete(&["pushleft-controller", "do"]), ["doctor"]);
    assert_eq!(
        bash_complete(&["pushleft-controller", "fail-safely", "--dry"]),
        ["--dry-run"]
    );
    let fleet = bash_complete(&["pushleft-controller", "fleet", "l"]);
    assert_eq!(fleet, ["list"]);
    // Options of a subcommand.
    let doctor = bash_complete(&["pushleft-controller", "doctor", "--"]);
    assert!(doctor.contains(&"--role".to_string()), "{doctor:?}");
}

#[test]
fn man_pages_render_without_warnings() {
    let pages = files_under(&repo().join("man"));
    assert!(pages.len() >= 9, "{pages:?}");
    for page in pages {
        let output = Command::new("groff")
            .args(["-ww", "-man", "-z"])
            .arg(&page)
            .output()
            .expect("running groff (apt-get install groff-base; .ci/run does)");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            output.status.success() && stderr.is_empty(),
            "{}: {stderr}",
            page.display()
        );
        let text = std::fs::read_to_string(&page).unwrap();
        for section in [
            ".SH \"EXIT STATUS\"",
            ".SH ENVIRONMENT",
            ".SH FILES",
            ".SH EXAMPLES",
        ] {
            assert!(text.contains(section), "{}: no {section}", page.display());
        }
    }
}

#[test]
fn help_shows_the_commands_own_options_first_and_connection_options_apart() {
    let run = Run::from(bin().args(["diagnose", "--help"]).output().unwrap());
    let help = &run.stdout;
    let own = help.find("Options:").expect("an Options heading");
    let connection = help
        .find("Connection options:")
        .expect("a connection heading");
    let output = help.find("Output options:").expect("an output heading");
    let events = help.find("--events").expect("diagnose's own option");
    let url = help.find("--database-url").expect("the connection option");
    assert!(
        own < events && events < connection && connection < url,
        "{help}"
    );
    assert!(
        help.find("--no-headers").is_some_and(|at| at > output),
        "{help}"
    );
}

#[test]
fn a_usage_error_with_database_url_set_does_not_ask_for_it() {
    let run = Run::from(
        bin()
            .env("DATABASE_URL", "postgresql://ops@db1/control")
            .args(["diagnose"])
            .output()
            .unwrap(),
    );
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("<DEPLOYMENT>"), "{}", run.stderr);
    assert!(!run.stderr.contains("--database-url"), "{}", run.stderr);
}

#[test]
fn the_hidden_command_is_never_offered() {
    let run = Run::from(bin().args(["--color", "never"]).output().unwrap());
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("diagnose, fail-safely"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("generate"), "{}", run.stderr);
    for file in [
        "pushleft-controller.bash",
        "_pushleft-controller",
        "pushleft-controller.fish",
    ] {
        let text = std::fs::read_to_string(repo().join("completions").join(file)).unwrap();
        assert!(
            !text.contains("generate"),
            "{file} offers the hidden generate"
        );
    }
}

#[test]
fn nothing_configured_says_so() {
    // No DATABASE_URL, no PG* (support::bin clears them): the libpq
    // defaults are tried, and the error says that nothing was set.
    let run = Run::from(
        bin()
            .env("PGCONNECT_TIMEOUT", "2")
            .env("HOME", "/nonexistent")
            .args(["stuck", "-o", "table"])
            .output()
            .unwrap(),
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("DATABASE_URL") && run.stderr.contains("are all unset"),
        "{}",
        run.stderr
    );
}
