//! Help an operator reads at 80 columns: `-h` short, the shared options
//! once under `help connection` and `help output`, examples that paste
//! line by line, each command's own formats, variables by name only, and
//! the version with its commit.

use crate::support::{Run, bin};

fn help(args: &[&str]) -> Run {
    let run = Run::from(bin().env("COLUMNS", "80").args(args).output().unwrap());
    run.assert_code(0);
    run
}

const COMMANDS: &[&[&str]] = &[
    &[],
    &["diagnose"],
    &["fail-safely"],
    &["fleet"],
    &["fleet", "list"],
    &["stuck"],
    &["wait"],
    &["history"],
    &["sandbox"],
    &["doctor"],
];

#[test]
fn every_short_help_fits_40_lines_and_points_at_the_shared_options() {
    for command in COMMANDS {
        let run = help(&[command, &["-h"][..]].concat());
        let lines: Vec<&str> = run.stdout.lines().collect();
        assert!(
            lines.len() <= 40,
            "{command:?} -h: {} lines:\n{}",
            lines.len(),
            run.stdout
        );
        assert!(
            lines.iter().all(|l| l.chars().count() <= 80),
            "{command:?}:\n{}",
            run.stdout
        );
        if !command.is_empty() {
            assert!(
                run.stdout.contains("pushleft-controller help connection"),
                "{command:?}:\n{}",
                run.stdout
            );
            assert!(
                !run.stdout.contains("--database-url"),
                "{command:?}:\n{}",
                run.stdout
            );
        }
        // Every example is one whole line that does something.
        let examples = run
            .stdout
            .split_once("Examples:\n")
            .map(|(_, e)| e)
            .unwrap_or("");
        for line in examples.lines().take_while(|l| !l.is_empty()) {
            let words = line.trim_start();
            assert!(
                line.starts_with("  ") && words.contains("pushleft-controller"),
                "{command:?}: an example that does not paste alone: {line:?}\n{}",
                run.stdout
            );
        }
        // --help still has everything.
        let long = help(&[command, &["--help"][..]].concat());
        assert!(long.stdout.contains("--database-url"), "{command:?}");
    }
}

#[test]
fn each_command_offers_only_its_own_formats() {
    let diagnose = help(&["diagnose", "-h"]);
    assert!(diagnose.stdout.contains("markdown"), "{}", diagnose.stdout);
    assert!(
        !diagnose.stdout.contains("openmetrics"),
        "{}",
        diagnose.stdout
    );
    let stuck = help(&["stuck", "-h"]);
    assert!(stuck.stdout.contains("openmetrics"), "{}", stuck.stdout);
    let doctor = help(&["doctor", "--help"]);
    assert!(!doctor.stdout.contains("markdown"), "{}", doctor.stdout);
    // A value that is no format: the error names this command's formats
    // (one another command has is refused naming the commands that have it).
    let refused = Run::from(
        bin()
            .args(["diagnose", "d0000001", "-o", "yaml"])
            .output()
            .unwrap(),
    );
    refused.assert_code(2);
    assert!(
        refused
            .stderr
            .contains("[possible values: table, wide, json, markdown]"),
        "{}",
        refused.stderr
    );
}

#[test]
fn the_shared_options_have_a_topic_each_and_show_variables_by_name() {
    let connection = help(&["help", "connection"]);
    for says in [
        "--database-url",
        "--statement-timeout",
        "DATABASE_URL",
        "~/.pgpass",
    ] {
        assert!(
            connection.stdout.contains(says),
            "{says}:\n{}",
            connection.stdout
        );
    }
    assert!(
        !connection.stdout.contains("--color"),
        "{}",
        connection.stdout
    );
    let output = help(&["help", "output"]);
    for says in ["--output", "--color", "--no-headers", "--show-sql"] {
        assert!(output.stdout.contains(says), "{says}:\n{}", output.stdout);
    }
    assert!(
        !output.stdout.contains("--database-url"),
        "{}",
        output.stdout
    );
    // The variable's name, never this shell's value.
    let run = Run::from(
        bin()
            .env("PUSHLEFT_STATEMENT_TIMEOUT", "45s")
            .env("PUSHLEFT_REASON_PATTERN", "^SECRET-")
            .args(["fail-safely", "--help"])
            .output()
            .unwrap(),
    );
    assert!(
        run.stdout.contains("[env: PUSHLEFT_STATEMENT_TIMEOUT]"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("[env: PUSHLEFT_REASON_PATTERN]"),
        "{}",
        run.stdout
    );
    assert!(
        !run.stdout.contains("45s") && !run.stdout.contains("SECRET"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("TIMEOUT=]"), "{}", run.stdout);
}

#[test]
fn the_version_names_its_commit_and_date() {
    let line = help(&["--version"]);
    assert!(
        line.stdout.starts_with("pushleft-controller 0."),
        "{}",
        line.stdout
    );
    assert!(
        line.stdout.contains("commit ") && line.stdout.contains("built "),
        "{}",
        line.stdout
    );
    let json = help(&["--version", "-o", "json"]).json();
    assert_eq!(json["version"], env!("CARGO_PKG_VERSION"));
    let commit = json["commit"].as_str().expect("a commit");
    assert!(
        commit == "unknown" || commit.chars().all(|c| c.is_ascii_hexdigit()),
        "{json}"
    );
    let date = json["date"].as_str().expect("a date");
    assert!(date == "unknown" || date.len() == 10, "{json}");
    assert!(line.stdout.contains(commit), "{}", line.stdout);
}
