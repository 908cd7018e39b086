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
    out
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
/// (README, "Huge text").
pub fn cut_line(out: &mut String, cuts: &[crate::ui::cut::Cut]) {
    if let Some(line) = crate::ui::cut::line(cuts) {
        out.push_str(&format!("\n_{}_\n", escape(&line)));
    }
}

#[cfg(test)]
mod tests;
