//! The one sanitizer for text that reaches a terminal. Text from the
//! database (payloads, job errors, names, reasons, hostnames) is written by
//! less trusted parties (agents) and can hold escape sequences that clear
//! the screen, retitle the window or reorder what the operator reads. On
//! the screen every control character, bidi control and invisible format
//! character is shown as a visible escape (`\u{1b}`, `\n`), so lines stay
//! whole. JSON is never sanitized: it carries the bytes exactly. Which
//! characters those are, and how each is shown, is `model::text`'s rule,
//! shared with the messages `decide` and `db` write.

use std::borrow::Cow;

use crate::model::text::{escaped, is_unsafe, push_escaped};

/// The most characters of one piece of text the screen shows: as many as
/// a read takes of one database value (pushleft-controller-diagnose(1), HUGE TEXT), so a value
/// read cut is shown whole and the note under its section tells the rest;
/// longer text is what the tool composed (a finding quoting a value), and
/// JSON carries that whole.
pub const SCREEN_TEXT_CHARS: usize = crate::model::cut::TEXT_CUT_CHARS;

/// `text` with every unsafe character made visible, on one line, cut to
/// [`SCREEN_TEXT_CHARS`].
pub fn visible(text: &str) -> Cow<'_, str> {
    let (text, cut) = match text.char_indices().nth(SCREEN_TEXT_CHARS) {
        Some((end, _)) => (&text[..end], text[end..].chars().count()),
        None => (text, 0),
    };
    let shown = escaped(text);
    if cut == 0 {
        return shown;
    }
    let mut out = shown.into_owned();
    out.push_str(&format!(
        "… (+{cut} characters; --output json has it whole)"
    ));
    Cow::Owned(out)
}

/// The last line of defence, for whole blocks of output: keeps newlines
/// and the colour sequences this tool itself writes (`ESC [ digits ; m`,
/// only when `colors` is on), and makes everything else visible.
pub fn terminal_safe(text: &str, colors: bool) -> Cow<'_, str> {
    if !text.chars().any(|c| c != '\n' && is_unsafe(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '\u{1b}' && colors {
            let sgr = rest[1..]
                .strip_prefix('[')
                .and_then(|r| r.find(|c: char| !(c.is_ascii_digit() || c == ';')))
                .filter(|&end| rest[2 + end..].starts_with('m'));
            if let Some(end) = sgr {
                out.push_str(&rest[..3 + end]);
                rest = &rest[3 + end..];
                continue;
            }
        }
        if c != '\n' && is_unsafe(c) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    Cow::Owned(out)
}

#[cfg(test)]
#[path = "sanitize_tests.rs"]
mod tests;
