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

/// Characters that show as nothing, so two names holding them can look
/// identical (README, "Output and exit codes": the character rules):
/// Unicode's Default_Ignorable_Code_Point set (soft hyphen, zero-width
/// space and joiners, word joiner and invisible operators, Hangul fillers,
/// variation selectors, the byte order mark, tags…), every other format
/// character (general category Cf: Arabic number signs, interlinear
/// annotations, shorthand and musical format controls…), and the line and
/// paragraph separators.
pub fn is_invisible(c: char) -> bool {
    is_default_ignorable(c) || is_other_format(c) || matches!(c, '\u{2028}' | '\u{2029}')
}

/// Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties).
fn is_default_ignorable(c: char) -> bool {
    matches!(
        c,
        '\u{00ad}'
            | '\u{034f}'
            | '\u{061c}'
            | '\u{115f}'..='\u{1160}'
            | '\u{17b4}'..='\u{17b5}'
            | '\u{180b}'..='\u{180f}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}'
            | '\u{3164}'
            | '\u{fe00}'..='\u{fe0f}'
            | '\u{feff}'
            | '\u{ffa0}'
            | '\u{fff0}'..='\u{fff8}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0000}'..='\u{e0fff}'
    )
}

/// General category Cf outside Default_Ignorable_Code_Point.
fn is_other_format(c: char) -> bool {
    matches!(
        c,
        '\u{0600}'..='\u{0605}'
            | '\u{06dd}'
            | '\u{070f}'
            | '\u{0890}'..='\u{0891}'
            | '\u{08e2}'
            | '\u{fff9}'..='\u{fffb}'
            | '\u{110bd}'
            | '\u{110cd}'
            | '\u{13430}'..='\u{1343f}'
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
#[path = "text_tests.rs"]
mod tests;
