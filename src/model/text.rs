//! The character rules for text from less trusted parties (README,
//! "Output and exit codes": text from the database): which characters must
//! never reach a terminal as themselves, and how such a character is shown
//! instead. `ui::sanitize` applies them to the screen; `decide` and `db` to
//! the messages they write and to the `--reason` they accept.

use std::borrow::Cow;

/// A control character: C0 (ESC, BEL, CR, tab, newline…), DEL and C1.
pub fn is_control(c: char) -> bool {
    c.is_control()
}

/// Unicode's bidirectional embeddings, overrides and isolates
/// (U+202A–U+202E, U+2066–U+2069): they make text display in another order
/// than it is stored.
pub fn is_bidi_override(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Every bidirectional formatting character: the embeddings, overrides
/// and isolates, and the marks (U+061C, U+200E, U+200F).
pub fn is_bidi_control(c: char) -> bool {
    is_bidi_override(c) || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}')
}

/// Invisible format characters (zero-width space and joiners, the byte
/// order mark, interlinear annotations) and the line and paragraph
/// separators.
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{200b}'..='\u{200d}' | '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fff9}'..='\u{fffb}'
    )
}

/// Whether `c` must not reach a terminal as itself.
pub fn is_unsafe(c: char) -> bool {
    is_control(c) || is_bidi_control(c) || is_invisible(c)
}

/// How an unsafe character is shown: `\n`, `\r`, `\t`, else `\u{1b}`.
pub fn push_escaped(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        _ => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
    }
}

/// `text` with every unsafe character shown as its escape, on one line.
pub fn escaped(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_unsafe(c) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// The name of a character a message points at: `U+001B`.
pub fn code_point(c: char) -> String {
    format!("U+{:04X}", u32::from(c))
}

#[cfg(test)]
mod tests;
