//! A source text reduced to its code: comments and the insides of string
//! and char literals blanked (newlines kept, so lines still count), which
//! is what the circle and size checks read.

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn blank(c: char) -> char {
    if c == '\n' { '\n' } else { ' ' }
}

/// The number of `#` of a raw string starting at `i` (`r"`, `r#"`, `br"`),
/// or `None` when no raw string starts there.
fn raw_string_at(chars: &[char], i: usize) -> Option<usize> {
    if chars[i] != 'r' {
        return None;
    }
    let before = |k: usize| i.checked_sub(k).map(|at| chars[at]);
    let starts_word = !before(1).is_some_and(is_ident)
        || (before(1) == Some('b') && !before(2).is_some_and(is_ident));
    if !starts_word {
        return None;
    }
    let hashes = chars[i + 1..].iter().take_while(|c| **c == '#').count();
    (chars.get(i + 1 + hashes) == Some(&'"')).then_some(hashes)
}

/// The text with comments and literals blanked, as described above.
pub fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i = block_comment(&chars, i, &mut out);
        } else if let Some(hashes) = raw_string_at(&chars, i) {
            i = raw_string(&chars, i, hashes, &mut out);
        } else if c == '"' {
            i = string(&chars, i, &mut out);
        } else if c == '\'' {
            i = char_or_lifetime(&chars, i, &mut out);
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn block_comment(chars: &[char], mut i: usize, out: &mut String) -> usize {
    let mut depth = 0;
    while i < chars.len() {
        let pair = (chars[i], chars.get(i + 1).copied());
        if pair == ('/', Some('*')) {
            depth += 1;
            out.push_str("  ");
            i += 2;
        } else if pair == ('*', Some('/')) {
            depth -= 1;
            out.push_str("  ");
            i += 2;
            if depth == 0 {
                break;
            }
        } else {
            out.push(blank(chars[i]));
            i += 1;
        }
    }
    i
}

fn raw_string(chars: &[char], mut i: usize, hashes: usize, out: &mut String) -> usize {
    // `r`, the hashes and the opening quote stay.
    for _ in 0..hashes + 2 {
        out.push(chars[i]);
        i += 1;
    }
    while i < chars.len() {
        let closes = chars[i] == '"'
            && chars[i + 1..]
                .iter()
                .take(hashes)
                .filter(|c| **c == '#')
                .count()
                == hashes;
        if closes {
            for _ in 0..=hashes {
                out.push(chars[i]);
                i += 1;
            }
            break;
        }
        out.push(blank(chars[i]));
        i += 1;
    }
    i
}

fn string(chars: &[char], mut i: usize, out: &mut String) -> usize {
    out.push('"');
    i += 1;
    while i < chars.len() && chars[i] != '"' {
        if chars[i] == '\\' {
            out.push(' ');
            i += 1;
        }
        if i < chars.len() {
            out.push(blank(chars[i]));
            i += 1;
        }
    }
    if i < chars.len() {
        out.push('"');
        i += 1;
    }
    i
}

fn char_or_lifetime(chars: &[char], i: usize, out: &mut String) -> usize {
    let end = if chars.get(i + 1) == Some(&'\\') {
        // The escaped character comes first: `'\''`, `'\n'`, `'\u{7f}'`.
        chars
            .get(i + 3..)
            .and_then(|rest| rest.iter().position(|c| *c == '\''))
            .map(|at| i + 3 + at)
    } else if chars.get(i + 2) == Some(&'\'') {
        Some(i + 2)
    } else {
        None
    };
    match end {
        Some(end) => {
            out.push('\'');
            for _ in i + 1..end {
                out.push(' ');
            }
            out.push('\'');
            end + 1
        }
        None => {
            // A lifetime or a loop label.
            out.push('\'');
            i + 1
        }
    }
}

#[test]
fn comments_and_literals_are_blanked_and_lines_kept() {
    let text = "let a = \"x{\"; // y{\n/* z{ /* w */ */ let b = '{'; let c: &'a str = r#\"q\"#;";
    let code = code_only(text);
    assert_eq!(code.lines().count(), 2);
    assert!(!code.contains('{') && !code.contains('x') && !code.contains('q'));
    assert!(code.contains("let b") && code.contains("&'a str"));
}
