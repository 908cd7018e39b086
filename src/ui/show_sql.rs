//! `--show-sql` on stderr (README, "Output and exit codes"): every
//! statement as sent, in order, each line prefixed `sql> ` so it stands
//! apart from the notes and the result; the parameters on the statement's
//! last line. Database text never passes here, only what the tool sends.

/// The prefix of every line of a shown statement.
pub const PREFIX: &str = "sql> ";

/// Shows one statement (`db::sql::trace`'s sink).
pub fn show(lines: &[String]) {
    let text: Vec<String> = lines
        .iter()
        .map(|line| format!("{PREFIX}{line}").trim_end().to_string())
        .collect();
    super::output::note(&text.join("\n"));
}
