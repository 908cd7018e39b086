//! How a failure is shown: for the human, `error:` lines on stderr
//! (sanitized, wrapped to the screen); with JSON output, also the error
//! document on stdout, `{"schema_version", "error": {"exit_code", "kind",
//! "message", "next"}}`, whose `exit_code` is the process's exit status.

use std::io::IsTerminal;

use serde::Serialize;

use super::output::{print_json, screen_width};
use super::sanitize::visible;
use super::text::wrap;
use crate::exit::{ErrorKind, ExitCode, Reported, Tag};
pub use crate::model::failure::ErrorBody;

#[derive(Debug, Serialize)]
struct ErrorDocument {
    error: ErrorBody,
}

/// The error and its causes, without the empty [`Tag`]s.
fn chain(err: &anyhow::Error) -> Vec<String> {
    err.chain()
        .filter(|cause| !cause.is::<Tag>())
        .map(ToString::to_string)
        .filter(|text| !text.is_empty())
        .collect()
}

/// Splits "…. Next step: do this" (or a `next:` line) off a message.
fn split_next(message: &str) -> (String, Option<String>) {
    for marker in [" Next step: ", "\n  next: "] {
        if let Some((head, next)) = message.split_once(marker) {
            return (
                head.trim_end().to_string(),
                Some(next.trim().trim_end_matches('.').to_string()),
            );
        }
    }
    (message.to_string(), None)
}

/// The error document's body.
pub fn body(err: &anyhow::Error, code: ExitCode, kind: ErrorKind) -> ErrorBody {
    let (message, next) = split_next(&chain(err).join(": "));
    ErrorBody {
        exit_code: code.as_i32(),
        kind,
        message,
        next: next.or_else(|| kind.default_next().map(str::to_string)),
    }
}

/// The `error:` lines for stderr: every line of every cause sanitized and
/// wrapped to the screen.
pub fn human_text(err: &anyhow::Error, width: usize) -> String {
    let mut lines = Vec::new();
    for (n, cause) in chain(err).iter().enumerate() {
        let head = if n == 0 { "error: " } else { "  caused by: " };
        for (i, line) in cause.lines().enumerate() {
            let line = visible(line);
            let text = line.trim_start();
            let first = if i == 0 {
                head.to_string()
            } else {
                line[..line.len() - text.len()].to_string()
            };
            let lead = first.len() - first.trim_start().len();
            let rest = " ".repeat(lead + 2);
            lines.extend(wrap(text, width, &first, &rest));
        }
    }
    lines.join("\n")
}

/// Shows a failure: always on stderr; as a document on stdout too when
/// the output is JSON.
pub fn report(err: &anyhow::Error, code: ExitCode, kind: ErrorKind, json: bool) {
    // Wrapped for a screen; in a log (stderr redirected) one line per
    // sentence greps better.
    let screen = std::io::stderr().is_terminal() || std::env::var_os("COLUMNS").is_some();
    let width = if screen { screen_width() } else { usize::MAX };
    super::output::note(&human_text(err, width));
    if json && err.downcast_ref::<Reported>().is_none() {
        let _ = print_json(&ErrorDocument {
            error: body(err, code, kind),
        });
    }
}

#[cfg(test)]
#[path = "failure_tests.rs"]
mod tests;
