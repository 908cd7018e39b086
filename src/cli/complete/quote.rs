//! How a completion candidate reaches a shell (README, "Shell completions
//! and man pages"). Candidates are database text (node and pool names are
//! written by agents), so each is quoted for the shell it is offered to, or
//! left out when no quoting makes it safe: a value holding a character
//! `model::text::is_unsafe` flags (control characters, newlines, tabs,
//! bidi and invisible characters) is never offered. Descriptions go through
//! the one screen sanitizer.

use crate::model::text::is_unsafe;
use crate::ui::sanitize::visible;

/// Whether `value` may be offered at all: not empty, and nothing in it
/// that must not reach a terminal (nor split the line-per-candidate
/// answer the scripts read).
pub fn offerable(value: &str) -> bool {
    !value.is_empty() && !value.chars().any(is_unsafe)
}

/// Whether `value` is made only of characters no shell gives a meaning
/// to: letters, digits and `-_.:/@+,=`.
pub fn plain(value: &str) -> bool {
    !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.:/@+,=".contains(c))
}

/// A description as the screen may show it: one line, every unsafe
/// character made visible.
pub fn help(text: &str) -> String {
    visible(text).into_owned()
}

/// How the word being completed was typed: its value once the shell's
/// quoting is removed, and the quote left open at its end (if any).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Typed {
    pub value: String,
    pub open: Option<char>,
    /// Where the open quote began: only a quote opening the word is
    /// answered, as readline replaces the word from there.
    pub open_at_start: bool,
}

/// Which shell's quoting [`dequote`] undoes: in fish a backslash escapes
/// `'` and `\` inside single quotes too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Posix,
    Fish,
}

/// Undoes a word's quoting as the shell would (`'…'`, `"…"`, `\x`),
/// leaving an unterminated quote open.
pub fn dequote(raw: &str, dialect: Dialect) -> Typed {
    let mut value = String::with_capacity(raw.len());
    let mut open: Option<char> = None;
    let mut open_pos = 0;
    let mut chars = raw.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match (open, c) {
            (None, '\\') => value.extend(chars.next().map(|(_, n)| n)),
            (None, '\'' | '"') => {
                open = Some(c);
                open_pos = i;
            }
            (Some(q), _) if c == q => open = None,
            (Some('\''), '\\') if dialect == Dialect::Fish => match chars.peek() {
                Some(&(_, n @ ('\'' | '\\'))) => {
                    value.push(n);
                    chars.next();
                }
                _ => value.push('\\'),
            },
            (Some('"'), '\\') => match chars.peek() {
                Some(&(_, n @ ('"' | '\\' | '$' | '`'))) => {
                    value.push(n);
                    chars.next();
                }
                _ => value.push('\\'),
            },
            _ => value.push(c),
        }
    }
    Typed {
        value,
        open,
        open_at_start: open.is_some() && open_pos == 0,
    }
}

/// `value` written for bash's command line, in the style of the quote the
/// operator opened (single quotes when none). `None`: not to be offered
/// (unsafe characters; a `!` inside double quotes, which interactive bash
/// would expand from history).
pub fn bash(value: &str, open: Option<char>) -> Option<String> {
    if !offerable(value) {
        return None;
    }
    match open {
        None if plain(value) => Some(value.to_string()),
        Some('"') => {
            if value.contains('!') {
                return None;
            }
            let mut out = String::from('"');
            for c in value.chars() {
                if matches!(c, '"' | '\\' | '$' | '`') {
                    out.push('\\');
                }
                out.push(c);
            }
            out.push('"');
            Some(out)
        }
        _ => Some(format!("'{}'", value.replace('\'', r"'\''"))),
    }
}

/// `value` escaped for zsh's `_describe` (`value:description`): zsh's
/// `compadd` quotes what it inserts itself.
pub fn zsh_describe(value: &str) -> String {
    value.replace('\\', "\\\\").replace(':', "\\:")
}

#[cfg(test)]
#[path = "quote_tests.rs"]
mod tests;
