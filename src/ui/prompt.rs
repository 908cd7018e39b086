//! The confirmation prompt: the operator types the deployment's short id
//! back before anything is written.

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

/// Asks one question and returns the answer, trimmed; Ctrl-C at the
/// prompt is "interrupted, nothing was written", on a line of its own.
pub fn ask(prompt: &str) -> Result<String> {
    let mut lines = prompt_lines(prompt, super::output::screen_width());
    let last = lines.pop().unwrap_or_default();
    for line in lines {
        super::output::note(&line);
    }
    let typed: String = dialoguer::Input::new()
        .with_prompt(last)
        .allow_empty(true)
        .interact_text()
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
