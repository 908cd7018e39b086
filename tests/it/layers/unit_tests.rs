//! One unit-test style (README, "Development"): a module's unit tests are
//! in a file of their own, declared by `#[cfg(test)] mod tests;` at the
//! module's end: `a/mod.rs` → `a/tests.rs`, `a/b.rs` → `a/b/tests.rs`, or
//! a folder (`a/b/tests/mod.rs` and its files) when they need several.
//! No inline test module, no `#[path]`, no test anywhere else.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use regex::Regex;

use super::code::code_only;

/// The module whose tests a file holds (`a/b` for `a/b/tests.rs` and for
/// `a/b/tests/…`), or `None` for a file that is no module's tests.
fn tested_module(relative: &Path) -> Option<PathBuf> {
    let parts: Vec<&std::ffi::OsStr> = relative.iter().collect();
    let at = parts
        .iter()
        .position(|p| *p == "tests" || *p == "tests.rs")?;
    Some(parts[..at].iter().collect())
}

/// The files that can be the module at `dir` (`a/b.rs`, `a/b/mod.rs`; the
/// crate root for `src/` itself).
fn module_files(dir: &Path) -> [PathBuf; 2] {
    if dir.as_os_str().is_empty() {
        ["lib.rs".into(), "main.rs".into()]
    } else {
        [dir.with_extension("rs"), dir.join("mod.rs")]
    }
}

fn pattern(re: &str) -> Regex {
    Regex::new(re).expect("a valid pattern")
}

/// What breaks the style in `files` (path relative to `src/`, text), one
/// line per finding.
fn off_style(files: &[(PathBuf, String)]) -> Vec<String> {
    let inline =
        pattern(r"#\[cfg\(test\)\]\s*(pub(\([^)]*\))?\s+)?mod\s+\w+\s*\{|\bmod\s+tests\s*\{");
    let path = pattern(r"#\s*\[\s*path\b");
    let test = pattern(r"#\s*\[\s*test\s*\]");
    let declared = pattern(r"\bmod\s+tests\s*;");
    let at_the_end = pattern(r"#\[cfg\(test\)\]\s*mod\s+tests\s*;\s*$");
    let code: BTreeMap<&Path, String> = files
        .iter()
        .map(|(p, text)| (p.as_path(), code_only(text)))
        .collect();
    let ends_declaring = |file: &Path| code.get(file).is_some_and(|c| at_the_end.is_match(c));
    let mut found = Vec::new();
    for (file, text) in &code {
        let mut say = |what: &str| found.push(format!("{}: {what}", file.display()));
        if inline.is_match(text) {
            say("an inline test module (move it to the module's tests.rs)");
        }
        if path.is_match(text) {
            say("a #[path] attribute (a module's file is where Rust looks for it)");
        }
        if declared.is_match(text) && !ends_declaring(file) {
            say("`mod tests;` not `#[cfg(test)]` at the module's end");
        }
        match tested_module(file) {
            None if test.is_match(text) => {
                say("a #[test] outside the module's tests.rs or tests/");
            }
            None => {}
            Some(module) => {
                if !module_files(&module).iter().any(|m| ends_declaring(m)) {
                    say("no module declares it (`#[cfg(test)] mod tests;` at its end)");
                }
                let folder = module.join("tests");
                if file.starts_with(&folder) && !code.contains_key(folder.join("mod.rs").as_path())
                {
                    say("a tests/ folder without its mod.rs");
                }
            }
        }
    }
    found
}

#[test]
fn every_modules_unit_tests_are_in_its_own_tests_file() {
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
        ("a/tests.rs", "use super::*;\n\n#[test]\nfn t() {}\n"),
        ("a/x.rs", "fn f() {}\n\n#[cfg(test)]\nmod tests;\n"),
        ("a/x/tests/mod.rs", "mod more;\n#[test]\nfn t() {}\n"),
        ("a/x/tests/more.rs", "#[test]\nfn u() {}\n"),
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
            "b/path.rs",
            "#[cfg(test)]\n#[path = \"path_tests.rs\"]\nmod tests;\n",
        ),
        ("b/path_tests.rs", "#[test]\nfn t() {}\n"),
        ("b/early.rs", "#[cfg(test)]\nmod tests;\nfn f() {}\n"),
        ("b/early/tests.rs", "#[test]\nfn t() {}\n"),
        ("c/tests.rs", "#[test]\nfn t() {}\n"),
        ("d.rs", "#[cfg(test)]\nmod tests;\n"),
        ("d/tests/x.rs", "#[test]\nfn t() {}\n"),
    ]
    .into_iter()
    .map(|(p, t)| (PathBuf::from(p), t.to_string()))
    .collect();
    let found = off_style(&files);
    let expected = [
        ("b/inline.rs", "an inline test module"),
        ("b/inline.rs", "a #[test] outside"),
        ("b/named.rs", "an inline test module"),
        ("b/path.rs", "a #[path] attribute"),
        ("b/path.rs", "not `#[cfg(test)]` at the module's end"),
        ("b/path_tests.rs", "a #[test] outside"),
        ("b/early.rs", "not `#[cfg(test)]` at the module's end"),
        ("b/early/tests.rs", "no module declares it"),
        ("c/tests.rs", "no module declares it"),
        ("d/tests/x.rs", "a tests/ folder without its mod.rs"),
    ];
    for (file, what) in expected {
        assert!(
            found
                .iter()
                .any(|f| f.starts_with(&format!("{file}: ")) && f.contains(what)),
            "{file}: {what} in {found:#?}"
        );
    }
    assert_eq!(found.len(), expected.len(), "{found:#?}");
}
