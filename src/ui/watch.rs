//! `--watch`: a view that refreshes. On a terminal it is one screen (the
//! alternate screen, as `top` and `watch` use): the status line pinned at
//! the top (when the last successful read was), the view clipped to the
//! screen's height with "… N more lines", the lines that changed since the
//! refresh before highlighted; nothing piles up in the scrollback. Leaving
//! it, the last view is printed once on the normal screen, so it stays
//! there to read. On a pipe it writes one complete document per refresh
//! (JSON lines with `--output json`).

use std::collections::HashSet;
use std::io::Write;

use chrono::{DateTime, Utc};
use console::Style;

use super::output::Output;
use super::sanitize::visible;
use super::text::wrap;

/// Switch to the alternate screen and hide the cursor; and back.
const ENTER: &str = "\x1b[?1049h\x1b[?25l";
const LEAVE: &str = "\x1b[?25h\x1b[?1049l";
/// Home and clear: each frame is drawn from the top of an empty screen.
const HOME_AND_CLEAR: &str = "\x1b[H\x1b[2J";

/// What the screen showed last, to highlight what changed, and to print
/// once more when leaving.
#[derive(Default)]
pub struct Screen {
    previous: Option<String>,
    /// The last frame's status lines (unclipped view: `previous`).
    status: Vec<String>,
    entered: bool,
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

/// The status lines: how often, when the last read was, what failed.
pub fn status_lines(
    width: usize,
    last_read: Option<DateTime<Utc>>,
    problem: Option<&str>,
    every: &str,
) -> Vec<String> {
    let status = format!(
        "every {every} · last read {} · changes highlighted · q to quit",
        last_read
            .map(|at| at.format("%Y-%m-%d %H:%M:%SZ").to_string())
            .unwrap_or_else(|| "never".to_string())
    );
    let mut lines = wrap(&status, width, "", "  ");
    if let Some(problem) = problem {
        let problem = format!("{}; retrying every {every}", visible(problem));
        lines.extend(wrap(&problem, width, "! ", "  "));
    }
    lines
}

/// One frame of `height` lines at most: the status lines, a blank line,
/// and as much of `body` as fits, the rest counted on the last line.
pub fn frame(status: &[String], body: &str, height: usize) -> Vec<String> {
    let mut lines: Vec<String> = status.to_vec();
    lines.push(String::new());
    let body: Vec<&str> = body.lines().collect();
    let room = height.saturating_sub(lines.len()).max(1);
    if body.len() <= room {
        lines.extend(body.iter().map(|l| l.to_string()));
    } else {
        let shown = room - 1;
        lines.extend(body[..shown].iter().map(|l| l.to_string()));
        lines.push(format!(
            "… {} more lines (a taller screen, or the command without --watch, shows them)",
            body.len() - shown
        ));
    }
    lines
}

impl Screen {
    /// Redraws the terminal: the status lines, then `text`, clipped to
    /// the screen.
    pub fn draw(
        &mut self,
        out: &Output,
        text: &str,
        last_read: Option<DateTime<Utc>>,
        problem: Option<&str>,
        every: &str,
    ) -> anyhow::Result<()> {
        let status = status_lines(out.width, last_read, problem, every);
        let body = highlight(text, self.previous.as_deref(), out);
        let lines = frame(&status, &body, super::pager::screen_height());
        let mut stdout = std::io::stdout().lock();
        if !self.entered {
            stdout.write_all(ENTER.as_bytes())?;
            self.entered = true;
        }
        // The whole frame in one write, without a newline after its last
        // line: a full screen would scroll by one.
        write!(stdout, "{HOME_AND_CLEAR}{}", lines.join("\n"))?;
        stdout.flush()?;
        self.previous = Some(text.to_string());
        self.status = status;
        Ok(())
    }

    /// Back to the normal screen, where the last view is printed once
    /// (whole: the scrollback may hold it) to stay after the watch ends.
    pub fn leave(&mut self) -> anyhow::Result<()> {
        if !std::mem::take(&mut self.entered) {
            return Ok(());
        }
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(LEAVE.as_bytes())?;
        if let Some(text) = &self.previous {
            write!(stdout, "{}\n\n{text}\n", self.status.join("\n"))?;
        }
        stdout.flush()?;
        Ok(())
    }
}

impl Drop for Screen {
    /// Never leave the operator on the alternate screen (an error, a
    /// closed terminal): a failed write here has nowhere to go.
    fn drop(&mut self) {
        let _ = self.leave();
    }
}

/// One document on a pipe: a refresh's [`frame`](super::report::frame),
/// then a blank line; or its JSON line.
pub fn document(out: &Output, frame: &str) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    if out.json() {
        writeln!(stdout, "{frame}")?;
    } else {
        write!(stdout, "{frame}\n\n")?;
    }
    stdout.flush()?;
    Ok(())
}

#[cfg(test)]
#[path = "watch_tests.rs"]
mod tests;
