//! The confirmation prompt: the operator types the deployment's short id
//! back before anything is written.
//!
//! The plan and the question go to stderr; the answer is read from stdin
//! when it is a terminal, else from the controlling terminal (`/dev/tty`,
//! as git and apt do), so `stuck -o json | fail-safely --from -` asks on
//! the screen it runs on (README, "A big incident"). Without either,
//! nobody can answer: the caller refuses without `--yes`.

use std::io::IsTerminal;

use anyhow::Result;
use uuid::Uuid;

use super::target::describe;
use crate::exit;
use crate::model::short_id;
use crate::model::target::WriteTarget;

/// Asks the operator to type the deployment's short id (or the full id)
/// back; anything else, or Ctrl-C, writes nothing. The prompt says whether
/// the deployment is stuck.
pub fn confirm_deployment(id: Uuid, stuck: bool, target: &WriteTarget) -> Result<()> {
    let short = short_id(id);
    let which = if stuck {
        "Stuck"
    } else {
        "NOT stuck (--even-if-not-stuck)"
    };
    let typed = ask(&format!(
        "{which}. Type the deployment's short id ({short}) to apply {}, anything else to abort",
        describe(target)
    ))?;
    if typed == short || typed == id.to_string() {
        Ok(())
    } else {
        Err(exit::refused(format!(
            "confirmation `{}` does not match {short}: nothing was written",
            crate::ui::sanitize::visible(&typed)
        )))
    }
}

/// The room an answer needs after the prompt: a full id, typed whole.
const ANSWER: usize = 38;

/// The question in lines for a screen of `width`: all but the last are
/// printed before, the last is the prompt itself, short enough for the
/// answer to follow it on the same line. A prompt that wraps is redrawn
/// by the line editor on every key, one screen line too high.
pub fn prompt_lines(question: &str, width: usize) -> Vec<String> {
    // One column to spare: the editor's cursor after a full line wraps.
    let width = width.saturating_sub(1).max(20);
    let mut lines = super::text::wrap(question, width, "", "");
    let fits = lines
        .last()
        .is_some_and(|last| super::text::width_of(last) + 2 + ANSWER <= width);
    if !fits {
        lines.push("answer".to_string());
    }
    lines
}

/// Why no confirmation can be asked, as the refusal's middle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoTerminal {
    /// stderr, where the plan and the question go, is not a terminal.
    Stderr,
    /// stdin is not a terminal and the process has no controlling
    /// terminal to read the answer from.
    Answer,
}

impl NoTerminal {
    pub fn why(self) -> &'static str {
        match self {
            NoTerminal::Stderr => "stderr, where the plan and the question go, is not a terminal",
            NoTerminal::Answer => {
                "stdin is not a terminal and there is no controlling terminal (/dev/tty) to \
                 read the answer from"
            }
        }
    }
}

/// Whether the operator can be asked: the plan shown on a terminal
/// (stderr), the answer read from stdin or `/dev/tty` (see above).
pub fn terminal_to_confirm_on() -> Result<(), NoTerminal> {
    if !std::io::stderr().is_terminal() {
        return Err(NoTerminal::Stderr);
    }
    if std::io::stdin().is_terminal() || controlling_terminal().is_ok() {
        Ok(())
    } else {
        Err(NoTerminal::Answer)
    }
}

fn controlling_terminal() -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")
}

/// Where the line editor runs: stderr (it reads stdin, a terminal), or
/// the controlling terminal when stdin is a pipe (console reads the keys
/// from `/dev/tty` then; the prompt and the echo go there too, where the
/// keys are typed).
fn answer_terminal() -> Result<console::Term> {
    if std::io::stdin().is_terminal() {
        return Ok(console::Term::stderr());
    }
    let tty = controlling_terminal().map_err(|err| {
        exit::refused(format!(
            "no terminal to confirm on: cannot open /dev/tty ({err}); rerun with --yes to run \
             unattended; nothing was written"
        ))
    })?;
    let read = tty
        .try_clone()
        .map_err(|err| anyhow::Error::new(err).context("opening /dev/tty for the answer"))?;
    Ok(console::Term::read_write_pair(read, tty))
}

/// Asks one question and returns the answer, trimmed; Ctrl-C at the
/// prompt is "interrupted, nothing was written", on a line of its own.
pub fn ask(prompt: &str) -> Result<String> {
    let mut lines = prompt_lines(prompt, super::output::screen_width());
    let last = lines.pop().unwrap_or_default();
    for line in lines {
        super::output::note(&line);
    }
    let term = answer_terminal()?;
    let typed: String = dialoguer::Input::new()
        .with_prompt(last)
        .allow_empty(true)
        .interact_text_on(&term)
        .map_err(|err| match err {
            dialoguer::Error::IO(io) if io.kind() == std::io::ErrorKind::Interrupted => {
                // Off the prompt's line: the error is not read as an answer.
                super::output::note("");
                exit::interrupted("interrupted at the confirmation: nothing was written")
            }
            other => anyhow::Error::new(other).context("reading the confirmation"),
        })?;
    Ok(typed.trim().to_string())
}

/// Asks the operator to type the number of deployments to write back.
pub fn confirm_count(n: usize, target: &WriteTarget) -> Result<()> {
    let typed = ask(&format!(
        "Type the number of deployments to write ({n}) to apply {}, anything else to abort",
        describe(target)
    ))?;
    if typed == n.to_string() {
        Ok(())
    } else {
        Err(exit::refused(format!(
            "confirmation `{}` is not {n}: nothing was written",
            crate::ui::sanitize::visible(&typed)
        )))
    }
}

#[cfg(test)]
#[path = "prompt_tests.rs"]
mod tests;
