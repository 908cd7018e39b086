//! The shape of a command (README, "The layers"): its `run` is a handful of
//! lines — arguments → request → db / decide → report — and the screen
//! renders reports of the model, never rows of `db`.

use std::fs;

use super::code::code_only;
use super::size::functions;

/// The most lines a command's `run` may take.
const MAX_RUN_LINES: usize = 30;

#[test]
fn every_commands_run_is_a_handful_of_lines() {
    let mut files = Vec::new();
    super::rust_files(&super::src().join("commands"), &mut files);
    files.sort();
    let mut long = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).expect("reading a source file");
        for (name, line, length) in functions(&code_only(&text)) {
            if name == "run" && length > MAX_RUN_LINES {
                long.push(format!(
                    "{}:{line}: fn run is {length} lines (at most {MAX_RUN_LINES})",
                    file.strip_prefix(super::src()).unwrap_or(file).display()
                ));
            }
        }
    }
    assert!(
        long.is_empty(),
        "a command's run does too much (move the work to a request, db, decide or a report):\n{}",
        long.join("\n")
    );
}

#[test]
fn the_screen_renders_reports_of_the_model_not_rows_of_db() {
    let mut files = Vec::new();
    super::rust_files(&super::src().join("ui"), &mut files);
    let mut uses = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).expect("reading a source file");
        if super::crate_references(&code_only(&text)).contains("db") {
            uses.push(
                file.strip_prefix(super::src())
                    .unwrap_or(file)
                    .display()
                    .to_string(),
            );
        }
    }
    assert!(
        uses.is_empty(),
        "ui imports db (a report type belongs in model): {uses:?}"
    );
}
