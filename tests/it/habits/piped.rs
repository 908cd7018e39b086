//! The same format piped (README, "Output and exit codes"): without
//! `-o`, a pipe gets the table a terminal gets, plain; JSON only with
//! `-o json`.

use super::on_terminal;
use crate::support::{Run, TestDb};

/// Digits masked: two runs a moment apart may differ in an age.
fn masked(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_ascii_digit() { '0' } else { c })
        .collect()
}

#[test]
fn stuck_piped_prints_the_terminals_table_without_colour() {
    let db = TestDb::scenarios();
    let screen = on_terminal(&[("DATABASE_URL", &db.conninfo)], &["stuck"]);
    assert!(
        screen.contains('\u{1b}'),
        "a terminal gets colour:\n{screen}"
    );
    let mut cmd = db.cmd();
    cmd.env("COLUMNS", "80").arg("stuck");
    let piped = Run::from(cmd.output().expect("running stuck | cat"));
    piped.assert_code(0);
    assert!(
        !piped.stdout.contains('\u{1b}') && !piped.stderr.contains('\u{1b}'),
        "no colour in a pipe:\n{}",
        piped.stdout
    );
    assert!(
        serde_json::from_str::<serde_json::Value>(&piped.stdout).is_err(),
        "not JSON: {}",
        piped.stdout
    );
    let plain = console::strip_ansi_codes(&screen).to_string();
    assert_eq!(
        masked(plain.trim_end()),
        masked(format!("{}{}", piped.stdout, piped.stderr).trim_end()),
        "the same table on the terminal and in the pipe"
    );
    // JSON only when asked for.
    let json = db.run(&["stuck", "-o", "json"]);
    json.assert_code(0);
    assert!(
        json.json()["deployments_stuck"].is_array(),
        "{}",
        json.stdout
    );
}
