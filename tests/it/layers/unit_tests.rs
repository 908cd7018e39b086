//! One unit-test style (README, "Development"): tests sit beside their
//! code, never in a folder of their own. A module's unit tests are in a
//! file declared at the module's end under `#[cfg(test)]`: `a/mod.rs` →
//! `a/tests.rs`; `a/b.rs` → the sibling `a/b_tests.rs`, named by
//! `#[path = "b_tests.rs"] mod tests;`. A test file may split into more
//! sibling `*_tests.rs` files the same way (`decide/tests.rs`). No folder
//! of `src/` holds only test files, no `#[test]` is outside a test file,
//! no test module is inline, and a `#[path]` names only a sibling test file.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use regex::Regex;

use super::code::code_only;

/// A file that holds only unit tests: `tests.rs` or `*_tests.rs`.
pub fn is_test_file(relative: &Path) -> bool {
    relative
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n == "tests.rs" || n.ends_with("_tests.rs"))
}

fn pattern(re: &str) -> Regex {
    Regex::new(re).expect("a valid pattern")
}

fn folder_module(file: &Path) -> bool {
    file.file_name()
        .is_some_and(|n| n == "mod.rs" || n == "lib.rs" || n == "main.rs")
}

/// The test files `file` declares: `tests.rs` of a folder module, and the
/// sibling each `#[path = "…"]` names (read from the text: `code` blanks
/// literals).
fn declared(file: &Path, text: &str, code: &str) -> Vec<PathBuf> {
    let dir = file.parent().unwrap_or(Path::new(""));
    let mut out = Vec::new();
    if pattern(r"#\[cfg\(test\)\]\s*mod\s+tests\s*;").is_match(code) {
        let home = if folder_module(file) {
            dir.to_path_buf()
        } else {
            file.with_extension("")
        };
        out.push(home.join("tests.rs"));
    }
    for found in pattern(r#"#\[path = "([^"]*)"\]"#).captures_iter(text) {
        out.push(dir.join(&found[1]));
    }
    out
}

/// What breaks the style in one file, one line per finding.
fn file_findings(file: &Path, text: &str, code: &str) -> Vec<&'static str> {
    let inline =
        pattern(r"#\[cfg\(test\)\]\s*(pub(\([^)]*\))?\s+)?mod\s+\w+\s*\{|\bmod\s+tests\s*\{");
    let at_the_end = pattern(r#"#\[cfg\(test\)\]\s*(#\[path = "\s*"\]\s*)?mod\s+tests\s*;\s*$"#);
    let mut found = Vec::new();
    if inline.is_match(code) {
        found.push("an inline test module (move it to a sibling test file)");
    }
    let paths: Vec<String> = pattern(r#"#\[path = "([^"]*)"\]"#)
        .captures_iter(text)
        .map(|c| c[1].to_string())
        .collect();
    let sibling_test = pattern(r"^[a-z0-9_]+_tests\.rs$");
    if paths.iter().any(|p| !sibling_test.is_match(p))
        || pattern(r"#\s*\[\s*path\b").find_iter(code).count() != paths.len()
    {
        found.push("a #[path] to anything but a sibling `*_tests.rs`");
    }
    let test_file = is_test_file(file);
    if !test_file && pattern(r"\bmod\s+tests\s*;").is_match(code) && !at_the_end.is_match(code) {
        found.push("`mod tests;` not `#[cfg(test)]` at the module's end");
    }
    if !test_file && !paths.is_empty() && !at_the_end.is_match(code) {
        found.push("a #[path] that is not the test module at the module's end");
    }
    if !test_file && pattern(r"#\s*\[\s*test\s*\]").is_match(code) {
        found.push("a #[test] outside a test file");
    }
    found
}

/// Folders (relative to `src/`) that hold test files and nothing else.
fn test_only_folders(files: &[(PathBuf, String)]) -> BTreeSet<PathBuf> {
    let mut holds: BTreeMap<PathBuf, bool> = BTreeMap::new();
    for (file, _) in files {
        for folder in file.ancestors().skip(1) {
            if folder.as_os_str().is_empty() {
                break;
            }
            let only = holds.entry(folder.to_path_buf()).or_insert(true);
            *only &= is_test_file(file);
        }
    }
    holds
        .into_iter()
        .filter(|(_, o)| *o)
        .map(|(f, _)| f)
        .collect()
}

/// What breaks the style in `files` (path relative to `src/`, text), one
/// line per finding.
fn off_style(files: &[(PathBuf, String)]) -> Vec<String> {
    let code: BTreeMap<&Path, String> = files
        .iter()
        .map(|(p, text)| (p.as_path(), code_only(text)))
        .collect();
    let mut all_declared = BTreeSet::new();
    let mut found = Vec::new();
    for (file, text) in files {
        let code = &code[file.as_path()];
        all_declared.extend(declared(file, text, code));
        for what in file_findings(file, text, code) {
            found.push(format!("{}: {what}", file.display()));
        }
    }
    for (file, _) in files {
        if is_test_file(file) && !all_declared.contains(file) {
            found.push(format!(
                "{}: no module declares it (`#[cfg(test)]` at its end)",
                file.display()
            ));
        }
    }
    for folder in test_only_folders(files) {
        found.push(format!(
            "{}: a folder that holds only tests (put them beside their code)",
            folder.display()
        ));
    }
    found
}

#[test]
fn every_modules_unit_tests_are_beside_it() {
    let mut files = Vec::new();
    super::rust_files(&super::src(), &mut files);
    let sources: Vec<(PathBuf, String)> = files
        .into_iter()
        .map(|f| {
            let text = fs::read_to_string(&f).expect("reading a source file");
            (
                f.strip_prefix(super::src()).unwrap_or(&f).to_path_buf(),
                text,
            )
        })
        .collect();
    let found = off_style(&sources);
    assert!(
        found.is_empty(),
        "unit tests off the one style (README, \"Development\"):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_unit_test_style_check_bites() {
    let files: Vec<(PathBuf, String)> = [
        (
            "a/mod.rs",
            "pub mod x;\npub mod y;\n\n#[cfg(test)]\nmod tests;\n",
        ),
        (
            "a/tests.rs",
            "#[path = \"more_tests.rs\"]\nmod more;\n#[test]\nfn t() {}\n",
        ),
        ("a/more_tests.rs", "#[test]\nfn u() {}\n"),
        (
            "a/x.rs",
            "fn f() {}\n\n#[cfg(test)]\n#[path = \"x_tests.rs\"]\nmod tests;\n",
        ),
        ("a/x_tests.rs", "#[test]\nfn t() {}\n"),
        (
            "a/y.rs",
            "// mod tests { #[test]\nconst S: &str = \"#[path] mod tests {\";\n",
        ),
        (
            "b/inline.rs",
            "fn f() {}\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {}\n}\n",
        ),
        ("b/named.rs", "#[cfg(test)]\nmod checks {}\n"),
        (
            "b/far.rs",
            "#[cfg(test)]\n#[path = \"../far_tests.rs\"]\nmod tests;\n",
        ),
        (
            "b/early.rs",
            "#[cfg(test)]\n#[path = \"early_tests.rs\"]\nmod tests;\nfn f() {}\n",
        ),
        ("b/early_tests.rs", "#[test]\nfn t() {}\n"),
        ("b/lost_tests.rs", "#[test]\nfn t() {}\n"),
        ("b/loose.rs", "#[test]\nfn t() {}\n"),
        ("c.rs", "#[cfg(test)]\nmod tests;\n"),
        ("c/tests.rs", "#[test]\nfn t() {}\n"),
    ]
    .into_iter()
    .map(|(p, t)| (PathBuf::from(p), t.to_string()))
    .collect();
    let found = off_style(&files);
    let expected = [
        ("b/inline.rs", "an inline test module"),
        ("b/inline.rs", "a #[test] outside"),
        ("b/named.rs", "an inline test module"),
        ("b/far.rs", "a #[path] to anything but"),
        ("b/early.rs", "not `#[cfg(test)]` at the module's end"),
        ("b/early.rs", "a #[path] that is not the test module"),
        ("b/lost_tests.rs", "no module declares it"),
        ("b/loose.rs", "a #[test] outside"),
        ("c: ", "a folder that holds only tests"),
    ];
    for (file, what) in expected {
        let prefix = if file.ends_with(": ") {
            file.to_string()
        } else {
            format!("{file}: ")
        };
        assert!(
            found
                .iter()
                .any(|f| f.starts_with(&prefix) && f.contains(what)),
            "{file}: {what} in {found:#?}"
        );
    }
    assert_eq!(found.len(), expected.len(), "{found:#?}");
}
