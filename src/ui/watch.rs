//! `--watch`: a view that refreshes. On a terminal it redraws in place,
//! says when the last successful read was, and highlights the lines that
//! changed since the refresh before; on a pipe it writes one complete
//! document per refresh (JSON lines with `--output json`).

use std::collections::HashSet;
use std::io::Write;

use chrono::{DateTime, Utc};
use console::Style;

use super::output::Output;
use super::sanitize::visible;

/// What the screen showed last, to highlight what changed.
#[derive(Default)]
pub struct Screen {
    previous: Option<String>,
}

/// `text` with every line that was not on the previous screen highlighted
/// (with colour only: without it, marks would break the columns).
fn highlight(text: &str, previous: Option<&str>, out: &Output) -> String {
    let Some(previous) = previous.filter(|_| out.color) else {
        return text.to_string();
    };
    let before: HashSet<&str> = previous.lines().collect();
    let style = Style::new().reverse().force_styling(true);
    text.lines()
        .map(|line| {
            if before.contains(line) {
                line.to_string()
            } else {
                style.apply_to(line).to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

impl Screen {
    /// Redraws the terminal: a status line, then `text`.
    pub fn draw(
        &mut self,
        out: &Output,
        text: &str,
        last_read: Option<DateTime<Utc>>,
        problem: Option<&str>,
        every: &str,
    ) -> anyhow::Result<()> {
        let mut status = format!(
            "every {every} · last read {} · changes highlighted · Ctrl-C to stop",
            last_read
                .map(|at| at.format("%Y-%m-%d %H:%M:%SZ").to_string())
                .unwrap_or_else(|| "never".to_string())
        );
        if let Some(problem) = problem {
            status.push_str(&format!("\n! {}; retrying every {every}", visible(problem)));
        }
        let body = highlight(text, self.previous.as_deref(), out);
        let mut stdout = std::io::stdout().lock();
        // Home and clear, then the whole frame in one write.
        write!(stdout, "\x1b[H\x1b[2J{status}\n\n{body}\n")?;
        stdout.flush()?;
        self.previous = Some(text.to_string());
        Ok(())
    }
}

/// One document on a pipe: the text, then a blank line; or one JSON line.
pub fn document(out: &Output, value: &impl serde::Serialize, text: &str) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    if out.json() {
        writeln!(stdout, "{}", super::output::json_line(value)?)?;
    } else {
        write!(stdout, "{text}\n\n")?;
    }
    stdout.flush()?;
    Ok(())
}
