//! Prose and commands on a screen of a given width: sentences wrap at
//! spaces (with a hanging indent), never inside an id, a time or a
//! `quoted command`; a command to copy stays whole on its own line, with
//! its full ids when they fit and their unique-enough short form when not;
//! times are absolute (UTC) next to their age.

use chrono::{DateTime, Utc};

use crate::duration::ago;

/// Display width of `text` (colour sequences do not count).
pub fn width_of(text: &str) -> usize {
    console::measure_text_width(text)
}

/// `2026-11-29 03:12Z`: an absolute time that still means something in a
/// ticket tomorrow.
pub fn stamp(at: DateTime<Utc>) -> String {
    at.format("%Y-%m-%d %H:%MZ").to_string()
}

/// `45m ago · 2026-11-29 03:12Z`, relative to the read's `now`.
pub fn when(at: DateTime<Utc>, now: DateTime<Utc>) -> String {
    format!("{} · {}", ago((now - at).num_seconds()), stamp(at))
}

/// Whether `s` is a UUID in its canonical 8-4-4-4-12 form.
fn is_uuid(s: &str) -> bool {
    s.len() == 36
        && s.char_indices().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => c == '-',
            _ => c.is_ascii_hexdigit(),
        })
}

/// The command as is when it fits `width`; otherwise with each full UUID
/// shortened to its first 8 hex digits (a prefix the tool resolves, and
/// refuses with exit 2 should it ever be ambiguous).
pub fn fit_command(command: &str, width: usize) -> String {
    if width_of(command) <= width {
        return command.to_string();
    }
    let mut out = String::with_capacity(command.len());
    let mut rest = command;
    while !rest.is_empty() {
        if rest.len() >= 36 && rest.is_char_boundary(36) && is_uuid(&rest[..36]) {
            out.push_str(&rest[..8]);
            rest = &rest[36..];
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// A command's pieces, split at blanks outside quotes, an option with
/// its value (`--reason "INC-1 a b"` is one piece).
fn arguments(command: &str) -> Vec<String> {
    let mut args = Vec::new();
    let mut arg = String::new();
    let mut quote: Option<char> = None;
    for c in command.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '"' | '\'') => quote = Some(c),
            (None, ' ') => {
                if !arg.is_empty() {
                    args.push(std::mem::take(&mut arg));
                }
                continue;
            }
            _ => {}
        }
        arg.push(c);
    }
    if !arg.is_empty() {
        args.push(arg);
    }
    // An option stays with its value: `--reason "…"` is one piece.
    let mut pieces: Vec<String> = Vec::with_capacity(args.len());
    for arg in args {
        match pieces.last_mut() {
            Some(last)
                if last.starts_with("--")
                    && !last.contains([' ', '='])
                    && !arg.starts_with('-') =>
            {
                last.push(' ');
                last.push_str(&arg);
            }
            _ => pieces.push(arg),
        }
    }
    pieces
}

/// A command to copy, in lines of at most `width` columns: one line when
/// it fits (with its UUIDs shortened if that makes it fit, as
/// [`fit_command`] does); otherwise broken between arguments, never inside
/// one, each line but the last ending in ` \` and the next indented, so
/// that it pastes into a shell as the one command it is.
pub fn command_lines(command: &str, width: usize) -> Vec<String> {
    let command = fit_command(command, width);
    if width_of(&command) <= width {
        return vec![command];
    }
    let mut lines = Vec::new();
    let mut line = String::new();
    for arg in arguments(&command) {
        if !line.is_empty() && width_of(&line) + 1 + width_of(&arg) + 2 > width {
            line.push_str(" \\");
            lines.push(std::mem::replace(&mut line, "  ".to_string()));
        }
        if !line.trim().is_empty() {
            line.push(' ');
        }
        line.push_str(&arg);
    }
    lines.push(line);
    lines
}

/// Splits prose into words; a `backquoted span` is one word.
fn words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in text.chars() {
        if c == '`' {
            quoted = !quoted;
        }
        if c == ' ' && !quoted {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
        } else {
            word.push(c);
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// A word wider than `room` (free text from the database: an id or a
/// command is never that wide) cut into pieces that fit.
fn pieces(word: String, room: usize) -> Vec<String> {
    if width_of(&word) <= room || word.starts_with('`') {
        return vec![word];
    }
    let mut pieces = vec![String::new()];
    for c in word.chars() {
        let last = pieces.last_mut().expect("one piece at least");
        if width_of(last) + console::measure_text_width(c.encode_utf8(&mut [0; 4])) > room {
            pieces.push(String::new());
        }
        pieces.last_mut().expect("one piece at least").push(c);
    }
    pieces
}

/// Wraps `text` to `width` columns: the first line starts with `first`, the
/// others with `rest` (both count towards the width). Words are not broken
/// unless a word alone is wider than a line (a quoted command is shortened
/// with [`fit_command`] instead, and stays whole).
pub fn wrap(text: &str, width: usize, first: &str, rest: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = first.to_string();
    let mut empty = true;
    let room = width.saturating_sub(width_of(rest)).max(1);
    let words = words(text).into_iter().flat_map(|word| {
        if word.starts_with('`') {
            vec![fit_command(&word, room)]
        } else {
            pieces(word, room)
        }
    });
    for word in words {
        let needed = width_of(&word) + usize::from(!empty);
        if !empty && width_of(&line) + needed > width {
            lines.push(std::mem::replace(&mut line, rest.to_string()));
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(&word);
        empty = false;
    }
    lines.push(line);
    lines
}

/// [`wrap`] joined into one string.
pub fn wrapped(text: &str, width: usize, first: &str, rest: &str) -> String {
    wrap(text, width, first, rest).join("\n")
}

#[cfg(test)]
#[path = "text_tests.rs"]
mod tests;
