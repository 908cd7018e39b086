//! A report taller than the screen goes through a pager on a terminal
//! (README, "Output and exit codes"): `PAGER`, else `less -FRX` as git
//! and gh do, so the first page (the verdict, the first rows) is what the
//! operator reads first. Never when stdout is not a terminal, never for
//! JSON or `--watch`, never with `--no-pager` (or `PAGER` empty or `cat`).
//! Long help (`--help`, `help TOPIC`) goes the same way ([`text`]).

use std::io::{self, IsTerminal, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};

use super::output::{Output, OutputFormat};

/// The height assumed when the terminal's is unknown (a size of 0×0).
pub const DEFAULT_HEIGHT: usize = 24;

/// The pager when `PAGER` is not set.
const DEFAULT_PAGER: &str = "less -FRX";

/// `--no-pager` was given.
static DISABLED: AtomicBool = AtomicBool::new(false);

/// From now on nothing is paged (`--no-pager`).
pub fn disable() {
    DISABLED.store(true, Ordering::SeqCst);
}

/// The screen's height: LINES when set, else the terminal's (stdout's),
/// else [`DEFAULT_HEIGHT`] (also for a terminal that says 0×0).
pub fn screen_height() -> usize {
    if let Some(lines) = std::env::var("LINES")
        .ok()
        .and_then(|l| l.trim().parse::<usize>().ok())
        .filter(|&l| l > 0)
    {
        return lines;
    }
    let term = console::Term::stdout();
    term.is_term()
        .then(|| term.size_checked())
        .flatten()
        .map(|(rows, _)| usize::from(rows))
        .filter(|&r| r > 0)
        .unwrap_or(DEFAULT_HEIGHT)
}

/// The pager to run for `PAGER` (unset: `less -FRX`); `None` when it
/// says not to page (empty, or `cat`).
pub fn command_for(pager: Option<&str>) -> Option<String> {
    let pager = pager.map(str::trim).unwrap_or(DEFAULT_PAGER);
    (!pager.is_empty() && pager != "cat").then(|| pager.to_string())
}

/// How many screen lines `text` takes at `width` columns (a line wider
/// than the screen takes several).
pub fn screen_lines(text: &str, width: usize) -> usize {
    text.split('\n')
        .map(|line| super::text::width_of(line).div_ceil(width.max(1)).max(1))
        .sum()
}

/// Whether `lines` screen lines are too many for a screen of `height`:
/// with the shell's prompt after them, the first would scroll away.
pub fn too_tall(lines: usize, height: usize) -> bool {
    lines >= height
}

/// Whether a report of `lines` screen lines, printed as it is, leaves
/// its first lines scrolled away on the operator's terminal.
pub fn scrolls_away(out: &Output, lines: usize) -> bool {
    out.interactive
        && matches!(out.format, OutputFormat::Table | OutputFormat::Wide)
        && too_tall(lines, screen_height())
}

/// A running pager, fed through its stdin.
pub struct Pager {
    child: Child,
    stdin: Option<ChildStdin>,
    /// The pager quit (the operator pressed q): the rest is not written.
    closed: bool,
    /// The notes go into the pager too (stderr is the same terminal).
    pub notes: bool,
}

/// The pager for a report of `lines` screen lines, when one is wanted and
/// starts; `None` otherwise (the report is printed as it is).
pub fn start(out: &Output, lines: usize) -> Option<Pager> {
    if DISABLED.load(Ordering::SeqCst) || !scrolls_away(out, lines) {
        return None;
    }
    let command = command_for(std::env::var("PAGER").ok().as_deref())?;
    let mut shell = Command::new("sh");
    shell.args(["-c", &command]).stdin(Stdio::piped());
    // As git does: less and lv keep colour and quit on a short text.
    if std::env::var_os("LESS").is_none() {
        shell.env("LESS", "FRX");
    }
    if std::env::var_os("LV").is_none() {
        shell.env("LV", "-c");
    }
    let mut child = shell.spawn().ok()?;
    let stdin = child.stdin.take();
    Some(Pager {
        child,
        stdin,
        closed: false,
        notes: io::stderr().is_terminal(),
    })
}

impl Pager {
    /// Writes one line (already made safe for the terminal).
    pub fn line(&mut self, text: &str) -> io::Result<()> {
        let Some(stdin) = self.stdin.as_mut().filter(|_| !self.closed) else {
            return Ok(());
        };
        let end: &[u8] = if text.ends_with('\n') { b"" } else { b"\n" };
        let written = stdin
            .write_all(text.as_bytes())
            .and_then(|()| stdin.write_all(end));
        match written {
            Err(err) if err.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            other => other,
        }
    }

    /// Ends the input and waits for the operator to leave the pager.
    /// Ctrl-C belongs to the pager meanwhile (less stops what it is
    /// doing and stays); the command ends as it would have.
    pub fn finish(mut self) -> io::Result<()> {
        let _deferred = crate::interrupt::deferred();
        drop(self.stdin.take());
        self.child.wait().map(|_| ())
    }
}

/// Prints `text` (help, already safe for the terminal): through the pager
/// when it is taller than the screen and one is wanted, else as it is.
pub fn text(out: &Output, text: &str) -> io::Result<()> {
    let lines = screen_lines(text.trim_end_matches('\n'), out.width);
    let Some(mut pager) = start(out, lines) else {
        let mut stdout = io::stdout().lock();
        stdout.write_all(text.as_bytes())?;
        return stdout.flush();
    };
    for line in text.lines() {
        pager.line(line)?;
    }
    pager.finish()
}

#[cfg(test)]
#[path = "pager_tests.rs"]
mod tests;
