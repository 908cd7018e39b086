//! The architecture, held: each layer of `src/` imports only from the
//! layers below it (README, "Development"), no module reaches itself
//! through its imports (`circles`), no command reaches into another
//! (`apart`), files and functions stay short (`size`), unit tests keep
//! one style (`unit_tests`), decisions are `decide`'s alone
//! (`decisions`), clap and the database's SQLSTATEs each stay in their
//! one folder (`one_place`), and no SQL is written in Rust outside the
//! registry's `sql/` files.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

mod apart;
mod circles;
mod code;
mod decisions;
mod one_place;
mod shape;
mod size;
mod unit_tests;

/// Top-level modules of the crate and their layer: a module may use a
/// module of a lower layer, never one of its own layer or above. `ops`
/// (what each command does) sits with `sandbox` and `docs`, the other
/// work the commands call, above everything it uses. `ui` and `db` share a
/// layer: the screen renders the model's documents and never reads the
/// database, and the database layer never prints.
const LAYERS: &[(&str, u8)] = &[
    ("commands", 8),
    ("testing", 7),
    ("ops", 6),
    ("sandbox", 6),
    ("docs", 6),
    ("cli", 5),
    ("ui", 3),
    ("db", 3),
    ("decide", 2),
    ("model", 1),
    ("exit", 0),
    ("db_failure", 0),
    ("duration", 0),
    ("interrupt", 0),
];

fn rank(module: &str) -> Option<u8> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|(_, r)| *r)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("reading src/") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The top-level module a file belongs to (`None`: lib.rs, main.rs and
/// build.rs, the build script, which is no module of the crate).
fn module_of(file: &Path) -> Option<String> {
    let relative = file.strip_prefix(src()).expect("under src/");
    let first = relative.components().next()?.as_os_str().to_string_lossy();
    // A sibling test file belongs to its module (`duration_tests.rs`).
    let name = first
        .trim_end_matches(".rs")
        .trim_end_matches("_tests")
        .to_string();
    (!["lib", "main", "build"].contains(&name.as_str())).then_some(name)
}

/// Every top-level module a source text names through `crate::`, including
/// grouped imports (`use crate::{a, b::c}`).
fn crate_references(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut rest = text;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() && name != "self" {
                    found.insert(name);
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            found.insert(name);
        }
    }
    found
}

#[test]
fn each_layer_imports_only_the_layers_below_it() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut violations = Vec::new();
    for file in &files {
        let Some(module) = module_of(file) else {
            continue;
        };
        let own = rank(&module)
            .unwrap_or_else(|| panic!("src/{module} is in no layer: add it to LAYERS"));
        let text = fs::read_to_string(file).expect("reading a source file");
        for used in crate_references(&text) {
            if used == module {
                continue;
            }
            match rank(&used) {
                Some(r) if r < own || (r == 0 && own == 0 && used != module) => {}
                _ => violations.push(format!(
                    "{} ({module}, layer {own}) uses crate::{used} (layer {:?})",
                    file.strip_prefix(src()).unwrap_or(file).display(),
                    rank(&used)
                )),
            }
        }
    }
    assert!(
        violations.is_empty(),
        "imports against the layering:\n{}",
        violations.join("\n")
    );
}

#[test]
fn the_checker_sees_grouped_and_plain_imports() {
    let found =
        crate_references("use crate::{db::sql, ui::Output};\nlet x = crate::exit::usage(y);");
    assert_eq!(found.into_iter().collect::<Vec<_>>(), ["db", "exit", "ui"]);
}

/// A string literal that starts like an SQL statement (one word alone,
/// such as an operation's name `TRUNCATE` in a message, is not one).
fn looks_like_sql(literal: &str) -> bool {
    let text = literal.trim_start();
    if !text.trim_end().contains(char::is_whitespace) {
        return false;
    }
    const STARTS: &[&str] = &[
        "SELECT ",
        "INSERT INTO",
        "DELETE FROM",
        "TRUNCATE",
        "WITH ",
        "SET LOCAL",
        "SET ROLE",
        "SAVEPOINT",
        "RELEASE SAVEPOINT",
        "ROLLBACK TO",
        "RESET ",
        "CREATE ",
        "ALTER ",
        "DROP ",
        "EXPLAIN",
        "BEGIN",
        "COMMIT",
    ];
    STARTS.iter().any(|s| text.starts_with(s))
        || (text.starts_with("UPDATE ") && text.contains(" SET "))
        || (text.starts_with("SET ") && text.contains(" = "))
}

/// The string literals of a source text (plain `"…"` ones; good enough to
/// catch SQL written inline).
fn string_literals(text: &str) -> Vec<String> {
    let mut literals = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '/' && chars.peek() == Some(&'/') {
            for c in chars.by_ref() {
                if c == '\n' {
                    break;
                }
            }
        } else if c == '\'' {
            // A char literal or a lifetime: skip a quoted char like '"'.
            let mut lookahead = chars.clone();
            if let (Some(_), Some('\'')) = (lookahead.next(), lookahead.next()) {
                chars.next();
                chars.next();
            }
        } else if c == '"' {
            let mut literal = String::new();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => {
                        chars.next();
                    }
                    '"' => break,
                    c => literal.push(c),
                }
            }
            literals.push(literal);
        }
    }
    literals
}

/// Files whose SQL-looking strings are shown to the operator and never
/// run, and why (with their unit tests, `db/doctor/indexes_tests.rs`).
const SHOWN_NOT_RUN: &[(&str, &str)] = &[(
    "db/doctor/indexes.rs",
    "the CREATE INDEX CONCURRENTLY doctor prints for a missing index, read from sql/schema.sql: \
     advice for the operator, never run by the tool",
)];

#[test]
fn no_sql_is_written_in_rust_outside_the_registry() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut inline = Vec::new();
    for file in &files {
        // The EXPLAIN check prefixes registry statements with EXPLAIN.
        if module_of(file).as_deref() == Some("testing") {
            continue;
        }
        let relative = file.strip_prefix(src()).unwrap_or(file);
        if SHOWN_NOT_RUN.iter().any(|(path, _)| {
            let tests = path.replace(".rs", "_tests.rs");
            relative == Path::new(path) || relative == Path::new(&tests)
        }) {
            continue;
        }
        let text = fs::read_to_string(file).expect("reading a source file");
        for literal in string_literals(&text) {
            if looks_like_sql(&literal) {
                inline.push(format!(
                    "{}: {literal:?}",
                    file.strip_prefix(src()).unwrap_or(file).display()
                ));
            }
        }
    }
    assert!(
        inline.is_empty(),
        "SQL in Rust strings (put it in a file under sql/ and register it in db::sql):\n{}",
        inline.join("\n")
    );
}

#[test]
fn the_sql_detector_bites() {
    let text = r#"let a = "SELECT now()"; let b = "UPDATE deployments"; // "DELETE FROM x"
        let c = 'x'; let d = "UPDATE t SET a = 1";"#;
    let found: Vec<String> = string_literals(text)
        .into_iter()
        .filter(|l| looks_like_sql(l))
        .collect();
    assert_eq!(found, ["SELECT now()", "UPDATE t SET a = 1"]);
}

/// Every file of the repository: those git tracks, or, outside a git
/// checkout (an unpacked source archive), every file under the root but
/// `target/` and `.git`.
fn repository_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tracked = std::process::Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root)
        .output()
        .ok()
        .filter(|out| out.status.success() && !out.stdout.is_empty());
    if let Some(out) = tracked {
        return out
            .stdout
            .split(|b| *b == 0)
            .filter(|path| !path.is_empty())
            .map(|path| root.join(String::from_utf8_lossy(path).as_ref()))
            .collect();
    }
    fn walk(dir: &Path, top: bool, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).expect("reading the repository") {
            let path = entry.expect("a directory entry").path();
            let name = path.file_name().unwrap_or_default();
            if name == ".git" || (top && name == "target") {
                continue;
            }
            if path.is_dir() {
                walk(&path, false, out);
            } else {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(root, true, &mut files);
    files
}

/// `word` stands in `line` as a whole word (as `grep -w` sees one: not
/// inside a run of letters, digits and underscores).
fn has_word(line: &str, word: &str) -> bool {
    let in_word = |c: char| c.is_alphanumeric() || c == '_';
    line.match_indices(word).any(|(at, _)| {
        !line[..at].chars().next_back().is_some_and(in_word)
            && !line[at + word.len()..].chars().next().is_some_and(in_word)
    })
}

/// What this test looks for, spelled in pieces so that this file does not
/// hold it: the name of the document the code was first written against,
/// and the folder beside the checkout where it lived.
fn outside_references() -> (String, String) {
    (["SP", "EC"].concat(), ["..", "/shared"].concat())
}

/// A number in the project's tracker (the word for one, then its number):
/// outside the repository too.
fn names_an_issue(line: &str) -> bool {
    let lower = line.to_lowercase();
    let word = ["iss", "ue"].concat();
    [format!("{word} "), format!("{word}s ")]
        .iter()
        .any(|word| {
            lower.match_indices(word).any(|(at, _)| {
                lower[at + word.len()..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_digit())
            })
        })
}

/// The repository stands alone (README, "Development"): no file of it
/// refers to a document outside it. What a reader needs of the design is
/// in the README and the man pages, and comments point there by section.
#[test]
fn no_file_refers_to_a_document_outside_the_repository() {
    let (name, beside) = outside_references();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = repository_files();
    assert!(
        files.iter().any(|f| f.ends_with("Cargo.toml")),
        "the repository's files were not found"
    );
    let mut found = Vec::new();
    for file in &files {
        // Listed by git but deleted in the work tree: nothing to read.
        let Ok(bytes) = fs::read(file) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        for (n, line) in text.lines().enumerate() {
            if has_word(line, &name) || line.contains(&beside) || names_an_issue(line) {
                found.push(format!(
                    "{}:{}: {}",
                    file.strip_prefix(root).unwrap_or(file).display(),
                    n + 1,
                    line.trim()
                ));
            }
        }
    }
    assert!(
        found.is_empty(),
        "references to documents outside the repository (point to the README section \
         that says it instead, adding it there if it is missing):\n{}",
        found.join("\n")
    );
}

#[test]
fn a_tracker_number_is_an_outside_reference() {
    let word = ["iss", "ue"].concat();
    assert!(names_an_issue(&format!("//! The benchmark ({word} 15).")));
    assert!(names_an_issue(&format!(
        "-- the data set of {word}s 21 and 22"
    )));
    assert!(!names_an_issue(&format!("a known {word} with the driver")));
}

#[test]
fn the_outside_reference_detector_bites() {
    let (name, beside) = outside_references();
    for line in [
        format!("//! The rule ({name}, \"Connecting\")"),
        format!("-- ({name}.md, \"The database it talks to\")"),
        format!("/// {name}'s decision table"),
        format!("({name} step 5)"),
    ] {
        assert!(has_word(&line, &name), "{line}");
    }
    for line in [
        format!("{name}IFIED"),
        format!("X_{name}"),
        format!("{}ification", name.to_lowercase()),
    ] {
        assert!(!has_word(&line, &name), "{line}");
    }
    assert!(format!("see {beside}/notes.md").contains(&beside));
}
