//! `--output markdown`: a compact report to paste into an incident ticket.
//! The verdict and its evidence first, the findings, the key rows, absolute
//! UTC times, the snapshot time, the tool version and the exact command
//! that produced it. Each report's markdown sits beside its table renderer
//! (`ui::diagnose::markdown`, `ui::stuck::markdown`, `ui::fail_safely`,
//! `ui::history`, `ui::plan`); here are the primitives they share. Database
//! text is made visible (control characters) and escaped for markdown, so
//! a `|` or a backtick in a payload cannot break a table or open a code
//! span; secrets stay out exactly as in the table output (no `log` key is
//! ever read; the command line shows no password or database URL).

use chrono::{DateTime, Utc};

use super::sanitize::visible;
use crate::model::assessment::Severity;
use crate::model::connection::APPLICATION_NAME;
use crate::model::next::{TOOL, shell_quote};

/// Database (or any untrusted) text, safe inside markdown and a table
/// cell: control characters visible, lines joined, markdown's
/// punctuation and HTML's angle brackets escaped. (A `#` is left as it
/// is: lines are joined, so it never starts one, where it alone would
/// make a heading.)
pub fn escape(text: &str) -> String {
    let shown = visible(text);
    let mut out = String::with_capacity(shown.len());
    for c in shown.chars() {
        push_escaped(&mut out, c);
    }
    out
}

/// One character of text, escaped for markdown ([`escape`]'s rule).
fn push_escaped(out: &mut String, c: char) {
    match c {
        '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '~' | '!' => {
            out.push('\\');
            out.push(c);
        }
        '<' => out.push_str("&lt;"),
        '>' => out.push_str("&gt;"),
        '&' => out.push_str("&amp;"),
        c => out.push(c),
    }
}

/// The one rule for a sentence of a report (a verdict, a finding, the
/// evidence, a note under a table): a code in it — a snake_case word
/// ([`is_code`]: a path, a status, an alert, an event kind, a column) —
/// is a code span, as the tables show codes, never backslash-escaped
/// (`job_lease_orphaned`, not job\_lease\_orphaned beside a bare
/// lease_orphaned); everything else is escaped as [`escape`] escapes it.
/// Names and reasons the operator typed or the database holds (a
/// `--reason`, a database name) are [`escape`]d whole.
pub fn prose(text: &str) -> String {
    let shown = visible(text);
    let mut out = String::with_capacity(shown.len() + 8);
    let mut word = String::new();
    for c in shown.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        push_word(&mut out, &std::mem::take(&mut word));
        push_escaped(&mut out, c);
    }
    push_word(&mut out, &word);
    out
}

/// A word of [`prose`]: a code span when it is a code, else escaped.
fn push_word(out: &mut String, word: &str) {
    if is_code(word) {
        out.push('`');
        out.push_str(word);
        out.push('`');
    } else {
        word.chars().for_each(|c| push_escaped(out, c));
    }
}

/// Whether a word is a code: lower-case letters and digits in parts
/// joined by single underscores, at least two parts, starting with a
/// letter (`deployment_stuck`, `verified_at`, `out_of_attempts`).
pub fn is_code(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_lowercase())
        && word.contains('_')
        && word.split('_').all(|part| {
            !part.is_empty()
                && part
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

/// A code span for text of ours (commands, ids), on one line (newlines
/// and control characters shown escaped): backticks inside it are
/// impossible to escape in markdown, so they are left out.
pub fn code(text: &str) -> String {
    format!("`{}`", visible(text).replace('`', "'"))
}

/// A finding's mark, as the screen shows it too.
pub fn mark(severity: Severity) -> &'static str {
    match severity {
        Severity::Problem => "✗",
        Severity::Warning => "!",
        Severity::Info => "·",
    }
}

/// Text, or a dash for none.
pub fn or_dash(text: Option<String>) -> String {
    text.unwrap_or_else(|| "—".to_string())
}

/// A time as every report writes it: absolute, UTC, to the second.
pub fn at(time: DateTime<Utc>) -> String {
    time.format("%Y-%m-%d %H:%M:%SZ").to_string()
}

/// A table cell: untrusted text, escaped; or a word of ours — a state, a
/// path, an id, a command — as a code span, which reads the same rendered
/// and as plain text (many trackers show a ticket's markdown raw).
pub enum Md {
    Text(String),
    Code(String),
    /// Several cells in one, separated by commas (`—` when none).
    List(Vec<Md>),
    /// A change of state, `from` → `to`, each a code span.
    Change(String, String),
}

impl From<String> for Md {
    fn from(text: String) -> Md {
        Md::Text(text)
    }
}

impl Md {
    /// `text` as a code span.
    pub fn code(text: impl ToString) -> Md {
        Md::Code(text.to_string())
    }

    fn render(&self) -> String {
        match self {
            Md::Text(text) => escape(text),
            // A `|` would end the cell even inside a code span (GFM).
            Md::Code(text) => code(text).replace('|', "\\|"),
            Md::List(cells) if cells.is_empty() => "—".to_string(),
            Md::List(cells) => cells.iter().map(Md::render).collect::<Vec<_>>().join(", "),
            Md::Change(from, to) => {
                format!("{} → {}", Md::code(from).render(), Md::code(to).render())
            }
        }
    }
}

/// A markdown table of cells ([`Md`]), each rendered here.
pub fn table(headers: &[&str], rows: &[Vec<Md>]) -> String {
    let mut out = format!("| {} |\n", headers.join(" | "));
    out.push_str(&format!(
        "|{}|\n",
        headers.iter().map(|_| "---").collect::<Vec<_>>().join("|")
    ));
    for row in rows {
        let cells: Vec<String> = row.iter().map(Md::render).collect();
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    out
}

/// The command line that produced the report, as a shell would take it
/// back; a database URL (which may hold a password) is never shown.
pub fn command_line(args: &[String]) -> String {
    let mut shown = Vec::new();
    let mut skip = false;
    for arg in args {
        if skip {
            shown.push("<redacted>".to_string());
            skip = false;
            continue;
        }
        if arg == "--database-url" {
            skip = true;
            shown.push(arg.clone());
            continue;
        }
        if arg.starts_with("--database-url=") {
            shown.push("--database-url=<redacted>".to_string());
            continue;
        }
        shown.push(shell_quote(arg).into_owned());
    }
    if let Some(first) = shown.first_mut() {
        // The binary by its name, not the path it was run from.
        *first = TOOL.to_string();
    }
    shown.join(" ")
}

/// The footer every report ends with. The command line is a code span
/// on one line: an argument's newline shows as `\n` (a `--reason` that
/// holds `\n## heading` starts no line of its own), by [`code`]'s rule.
pub fn footer(snapshot_at: DateTime<Utc>) -> String {
    let args: Vec<String> = std::env::args().collect();
    format!(
        "\n_Read at {} by {} · {}_\n",
        at(snapshot_at),
        APPLICATION_NAME,
        code(&command_line(&args))
    )
}

/// The line under a table that says which of its values were read cut
/// (pushleft-controller-diagnose(1), HUGE TEXT).
pub fn cut_line(out: &mut String, cuts: &[crate::ui::cut::Cut]) {
    if let Some(line) = crate::ui::cut::line(cuts) {
        out.push_str(&format!("\n_{}_\n", prose(&line)));
    }
}

#[cfg(test)]
mod tests;
