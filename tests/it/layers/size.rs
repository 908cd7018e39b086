//! Sizes a reader can hold: no file of `src/` over 450 lines, no function
//! over 80 (README, "Development").

use std::fs;
use std::path::Path;

use super::code::code_only;

const MAX_FILE_LINES: usize = 450;
const MAX_FN_LINES: usize = 80;

/// Folders of `src/` not held to the sizes, and why.
const EXEMPT: &[(&str, &str)] = &[(
    "testing",
    "test support compiled only for the tests (a pooler, a cluster, plans): \
     fixtures, not the tool",
)];

/// A file that holds only tests (`tests.rs` or a sibling `*_tests.rs`; see
/// `unit_tests`): its functions are not held to the function limit.
fn test_only(relative: &Path) -> bool {
    super::unit_tests::is_test_file(relative)
}

/// The byte ranges of `#[cfg(test)] mod … { … }` bodies.
fn test_modules(code: &str) -> Vec<(usize, usize)> {
    let mut ranges = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("#[cfg(test)]") {
        let start = from + at;
        from = start + 1;
        let after = code[start + "#[cfg(test)]".len()..].trim_start();
        let Some(rest) = after.strip_prefix("mod ") else {
            continue;
        };
        let Some(open) = rest.find(['{', ';']) else {
            continue;
        };
        if rest.as_bytes()[open] == b'{' {
            let open = code.len() - rest.len() + open;
            ranges.push((open, matching_brace(code, open)));
        }
    }
    ranges
}

/// The position of the brace closing the one at `open`.
fn matching_brace(code: &str, open: usize) -> usize {
    let mut depth = 0;
    for (i, b) in code.bytes().enumerate().skip(open) {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    code.len()
}

fn line_of(code: &str, at: usize) -> usize {
    code[..at].matches('\n').count() + 1
}

/// Every function with a body: (name, first line, lines from its opening
/// brace to its closing one), outside test modules.
pub fn functions(code: &str) -> Vec<(String, usize, usize)> {
    let tests = test_modules(code);
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("fn ") {
        let start = from + at;
        from = start + 3;
        let word_start =
            start == 0 || !(bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_');
        if !word_start || tests.iter().any(|(a, b)| *a < start && start < *b) {
            continue;
        }
        let name: String = code[from..]
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            continue;
        }
        let Some(open) = body_start(code, from) else {
            continue;
        };
        let close = matching_brace(code, open);
        found.push((
            name,
            line_of(code, start),
            line_of(code, close) - line_of(code, open) + 1,
        ));
    }
    found
}

/// Where a function's body opens, or `None` for a declaration (`;`).
fn body_start(code: &str, from: usize) -> Option<usize> {
    let mut nesting = 0i32;
    for (i, b) in code.bytes().enumerate().skip(from) {
        match b {
            b'(' | b'[' => nesting += 1,
            b')' | b']' => nesting -= 1,
            b'{' if nesting == 0 => return Some(i),
            b';' if nesting == 0 => return None,
            _ => {}
        }
    }
    None
}

#[test]
fn no_source_file_or_function_is_too_long() {
    let mut files = Vec::new();
    super::rust_files(&super::src(), &mut files);
    files.sort();
    let mut long = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(super::src()).unwrap_or(file);
        if EXEMPT.iter().any(|(dir, _)| relative.starts_with(dir)) {
            continue;
        }
        let text = fs::read_to_string(file).expect("reading a source file");
        let lines = text.lines().count();
        if lines > MAX_FILE_LINES {
            long.push(format!(
                "{}: {lines} lines (at most {MAX_FILE_LINES})",
                relative.display()
            ));
        }
        if test_only(relative) {
            continue;
        }
        for (name, line, length) in functions(&code_only(&text)) {
            if length > MAX_FN_LINES {
                long.push(format!(
                    "{}:{line}: fn {name} is {length} lines (at most {MAX_FN_LINES})",
                    relative.display()
                ));
            }
        }
    }
    assert!(
        long.is_empty(),
        "too long (split by concern):\n{}",
        long.join("\n")
    );
}

#[test]
fn the_size_check_counts_function_bodies() {
    let body = "    x();\n".repeat(3);
    let code = format!(
        "trait T {{\n    fn declared(&self) -> [u8; 2];\n}}\nfn short(a: [u8; 2]) -> u8 {{\n{body}}}\n\
         #[cfg(test)]\nmod tests {{\n    fn in_a_test() {{}}\n}}\nlet f: fn(u8) -> u8 = g;\n"
    );
    assert_eq!(functions(&code), [("short".to_string(), 4, 5)]);
}
