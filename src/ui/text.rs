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
    // A time is one word: `2026-12-02 02:21Z` never breaks at its blank.
    let mut joined: Vec<String> = Vec::with_capacity(words.len());
    for word in words {
        match joined.last_mut() {
            Some(date) if ends_with_date(date) && starts_with_clock(&word) => {
                date.push(' ');
                date.push_str(&word);
            }
            _ => joined.push(word),
        }
    }
    joined
}

/// `…2026-12-02`: a word that ends with a date.
fn ends_with_date(word: &str) -> bool {
    let b = word.as_bytes();
    b.len() >= 10 && {
        let d = &b[b.len() - 10..];
        d.iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            _ => c.is_ascii_digit(),
        })
    }
}

/// `02:21Z…`: a word that starts with a time of day.
fn starts_with_clock(word: &str) -> bool {
    let b = word.as_bytes();
    b.len() >= 5
        && b[..2].iter().all(u8::is_ascii_digit)
        && b[2] == b':'
        && b[3..5].iter().all(u8::is_ascii_digit)
}

/// Whether `c` belongs inside a word: letters, digits and the joiners of
/// an id or a name (`edge-07`, `teardown_requested`, a UUID). Anything else
/// (a blank, `.`, `/`, `:`, `,`, a quote, a brace) stands between words, and
/// text is only ever broken or cut there (README, "Output and exit codes").
pub fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '-' || c == '_'
}

/// The byte offsets where `text` may be broken or cut without splitting a
/// word: every offset that does not fall between two word characters.
fn breaks(text: &str) -> impl Iterator<Item = usize> + '_ {
    let mut previous: Option<char> = None;
    text.char_indices()
        .filter_map(move |(i, c)| {
            let inside = previous.is_some_and(is_word_char) && is_word_char(c);
            previous = Some(c);
            (i > 0 && !inside).then_some(i)
        })
        .chain(std::iter::once(text.len()))
}

/// `text` cut to at most `width` columns with `…`, only between words
/// (`health check…`, never `health ch…`). A text that fits is returned
/// as it is; one whose first word is already too wide becomes `…` alone.
pub fn cut_at_word(text: &str, width: usize) -> std::borrow::Cow<'_, str> {
    if width_of(text) <= width {
        return std::borrow::Cow::Borrowed(text);
    }
    let room = width.saturating_sub(1);
    // Only a head of the text can be kept: measure that, not a value of
    // thousands of characters at every break.
    let head_end = text
        .char_indices()
        .nth(4 * width + 64)
        .map_or(text.len(), |(i, _)| i);
    let text = &text[..head_end];
    let end = breaks(text)
        .take_while(|&i| width_of(&text[..i]) <= room)
        .filter(|&i| !text[..i].trim_end().is_empty())
        .last()
        .unwrap_or(0);
    // Nothing left dangling before the `…`: a blank, an opening bracket
    // or quote, a separator.
    let kept =
        text[..end].trim_end_matches([' ', ',', ';', ':', '(', '[', '{', '"', '\'', '·', '—']);
    std::borrow::Cow::Owned(format!("{kept}…"))
}

/// A word wider than `room` (a path, a JSON payload, a setting) broken
/// into pieces that fit, each ending between two words (after a `/`, a
/// `,`, a `.`); only a run of word characters wider than `room` itself is
/// broken inside (no id, fingerprint or command is that wide).
fn pieces(word: String, room: usize) -> Vec<String> {
    if width_of(&word) <= room || word.starts_with('`') {
        return vec![word];
    }
    let mut pieces = Vec::new();
    let mut rest = word.as_str();
    while width_of(rest) > room {
        let end = breaks(rest)
            .take_while(|&i| width_of(&rest[..i]) <= room)
            .last()
            .filter(|&i| i > 0)
            .unwrap_or_else(|| hard_end(rest, room));
        pieces.push(rest[..end].to_string());
        rest = &rest[end..];
    }
    if !rest.is_empty() {
        pieces.push(rest.to_string());
    }
    pieces
}

/// The end of the longest start of `text` that fits `room` columns, in
/// whole characters (at least one).
fn hard_end(text: &str, room: usize) -> usize {
    let mut end = 0;
    for (i, c) in text.char_indices() {
        let next = i + c.len_utf8();
        if end > 0 && width_of(&text[..next]) > room {
            break;
        }
        end = next;
    }
    end
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
    for word in words(text) {
        let word = if word.starts_with('`') {
            fit_command(&word, room)
        } else {
            word
        };
        let mut word = word.as_str();
        let left = width.saturating_sub(width_of(&line) + 1);
        // A long token (a path, a payload) that does not fit the rest of
        // the line fills it up to a break between its parts rather than
        // leave the line half empty; a short word moves on whole.
        if !empty
            && !word.starts_with('`')
            && width_of(word) > left
            && width_of(word) * 3 > room * 2
            && let Some(end) = breaks(word)
                .take_while(|&i| width_of(&word[..i]) <= left)
                .last()
                .filter(|&i| i > 0 && i < word.len())
        {
            line.push(' ');
            line.push_str(&word[..end]);
            word = &word[end..];
            lines.push(std::mem::replace(&mut line, rest.to_string()));
            empty = true;
        }
        let parts = if word.starts_with('`') {
            vec![word.to_string()]
        } else {
            pieces(word.to_string(), room)
        };
        for part in parts {
            let needed = width_of(&part) + usize::from(!empty);
            if !empty && width_of(&line) + needed > width {
                lines.push(std::mem::replace(&mut line, rest.to_string()));
                empty = true;
            }
            if !empty {
                line.push(' ');
            }
            line.push_str(&part);
            empty = false;
        }
    }
    lines.push(line);
    lines
}

/// The last net for a screen of `width` columns (README, "Output and
/// exit codes"): each line of `text` wider than that is wrapped at its
/// blanks under its own indent and two more; a line that holds a command
/// to copy (`Next: pushleft-controller …`) is continued between the
/// command's arguments with ` \` instead ([`command_lines`]). Lines that fit
/// (every table's do) are left as they are.
pub fn fitted(text: &str, width: usize) -> std::borrow::Cow<'_, str> {
    if text.lines().all(|line| width_of(line) <= width) {
        return std::borrow::Cow::Borrowed(text);
    }
    let lines: Vec<String> = text
        .split('\n')
        .flat_map(|line| fitted_line(line, width))
        .collect();
    std::borrow::Cow::Owned(lines.join("\n"))
}

/// One line for [`fitted`].
fn fitted_line(line: &str, width: usize) -> Vec<String> {
    if width_of(line) <= width {
        return vec![line.to_string()];
    }
    let indent: String = line.chars().take_while(|c| *c == ' ').collect();
    let body = &line[indent.len()..];
    let command_at = body
        .find("pushleft-controller ")
        .filter(|&at| !body[..at].contains('`') && (at == 0 || body[..at].ends_with(' ')));
    if let Some(at) = command_at {
        let head = format!("{indent}{}", &body[..at]);
        let lead = " ".repeat(width_of(&head));
        let room = width.saturating_sub(lead.len()).max(1);
        return command_lines(&body[at..], room)
            .into_iter()
            .enumerate()
            .map(|(n, part)| {
                if n == 0 {
                    format!("{head}{part}")
                } else {
                    format!("{lead}{part}")
                }
            })
            .collect();
    }
    wrap(body, width, &indent, &format!("{indent}  "))
}

/// [`wrap`] joined into one string.
pub fn wrapped(text: &str, width: usize, first: &str, rest: &str) -> String {
    wrap(text, width, first, rest).join("\n")
}

#[cfg(test)]
#[path = "text_tests.rs"]
mod tests;
