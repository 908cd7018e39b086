//! What only one folder of `src/` does (README, "The layers"): the command
//! line is `cli`'s, so clap is known under `src/cli/` only; the database's
//! errors are told by the one explainer, so SQLSTATEs are read, and
//! sentences that explain a database failure are made, under
//! `src/db/errors/` only.

use std::fs;
use std::path::{Path, PathBuf};

use regex::Regex;

use super::code::code_only;

/// The folder that knows clap.
const CLI: &str = "cli/";

/// Files outside [`CLI`] that use clap, and why.
const CLAP_OUTSIDE_CLI: &[(&str, &str)] = &[
    (
        "docs/manpages.rs",
        "the man-page generator: clap_mangen renders each page from the built clap::Command \
         (`cli::command`), whose subcommands and examples the generator walks for its pages \
         and their EXAMPLES and SEE ALSO",
    ),
    (
        "commands/generate.rs",
        "`generate` writes the completion scripts: each is clap_complete's registration for \
         its shell (the scripts ask the binary, whose line `cli` parses)",
    ),
];

/// The folder of the explainer (`db::errors`).
const EXPLAINER: &str = "db/errors/";

/// Where the errors that explain a database failure are defined.
const EXIT: &str = "exit/";

/// Files outside [`EXPLAINER`] that make a sentence for a database
/// failure, and why.
const SENTENCES_OUTSIDE_THE_EXPLAINER: &[(&str, &str)] = &[(
    "ui/failure_tests.rs",
    "a test of how the error document splits a sentence's next step off: it makes a \
     lost-connection sentence to render, explaining nothing",
)];

fn pattern(re: &str) -> Regex {
    Regex::new(re).expect("a valid pattern")
}

fn listed(relative: &str, exceptions: &[(&str, &str)]) -> bool {
    exceptions.iter().any(|(path, _)| *path == relative)
}

/// Whether the code of a file (comments and literals blanked) names clap
/// or one of its crates (`clap::`, `clap_complete::`, `clap_mangen::`).
fn uses_clap(code: &str) -> bool {
    pattern(r"\bclap(_[a-z]+)?\s*::").is_match(code)
}

/// The classes of PostgreSQL's SQLSTATEs that are digits only: a number
/// such as a setting's `30000` is none of them.
const NUMERIC_CLASSES: &[&str] = &[
    "00", "01", "02", "03", "08", "09", "20", "21", "22", "23", "24", "25", "26", "27", "28", "34",
    "38", "39", "40", "42", "44", "53", "54", "55", "57", "58", "72",
];

/// A string literal that is an SQLSTATE: five digits or capitals, with a
/// digit and a capital (`55P03`, `PXA01`), or digits of an SQLSTATE's
/// class (`40001`).
fn is_sqlstate(literal: &str) -> bool {
    let shape = literal.len() == 5
        && literal
            .chars()
            .all(|c| c.is_ascii_digit() || c.is_ascii_uppercase());
    let digits = literal.chars().filter(char::is_ascii_digit).count();
    shape
        && match digits {
            0 => false,
            5 => NUMERIC_CLASSES.contains(&&literal[..2]),
            _ => true,
        }
}

/// Whether a file reads an SQLSTATE: the driver's `SqlState`, or a code
/// spelled out in a string.
fn reads_sqlstate(text: &str, code: &str) -> bool {
    pattern(r"\bSqlState\b").is_match(code)
        || super::string_literals(text).iter().any(|l| is_sqlstate(l))
}

/// Whether a file makes an error that says it explains a database
/// failure (`exit::explained`, `exit::connection_lost`).
fn makes_db_sentence(code: &str) -> bool {
    pattern(r"\b(explained|connection_lost)\s*\(").is_match(code)
}

/// What breaks the rules in one file (path relative to `src/`, with `/`).
fn findings(relative: &str, text: &str) -> Vec<String> {
    let code = code_only(text);
    let mut found = Vec::new();
    if uses_clap(&code) && !relative.starts_with(CLI) && !listed(relative, CLAP_OUTSIDE_CLI) {
        found.push(format!(
            "{relative}: uses clap outside src/{CLI} (the command line is cli's: move it there)"
        ));
    }
    if reads_sqlstate(text, &code) && !relative.starts_with(EXPLAINER) {
        found.push(format!(
            "{relative}: reads an SQLSTATE outside src/{EXPLAINER} (ask the DbFailure db::errors \
             classified it as)"
        ));
    }
    if makes_db_sentence(&code)
        && !relative.starts_with(EXPLAINER)
        && !relative.starts_with(EXIT)
        && !listed(relative, SENTENCES_OUTSIDE_THE_EXPLAINER)
    {
        found.push(format!(
            "{relative}: makes a database failure's sentence outside src/{EXPLAINER} (say what \
             the command was doing, db::errors::Doing, and call db::errors::explain)"
        ));
    }
    found
}

fn sources() -> Vec<(String, String)> {
    let mut files: Vec<PathBuf> = Vec::new();
    super::rust_files(&super::src(), &mut files);
    files.sort();
    files
        .iter()
        .map(|file| {
            let relative = file.strip_prefix(super::src()).unwrap_or(file);
            let text = fs::read_to_string(file).expect("reading a source file");
            (slashed(relative), text)
        })
        .collect()
}

fn slashed(relative: &Path) -> String {
    relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

#[test]
fn clap_sqlstates_and_their_sentences_each_live_in_one_folder() {
    let sources = sources();
    assert!(
        sources.iter().any(|(path, _)| path == "db/errors/mod.rs"),
        "the explainer was not found"
    );
    let found: Vec<String> = sources
        .iter()
        .flat_map(|(path, text)| findings(path, text))
        .collect();
    assert!(found.is_empty(), "{}", found.join("\n"));
    // Each exception still needs its exception.
    for (path, why) in CLAP_OUTSIDE_CLI {
        let text = sources.iter().find(|(p, _)| p == path).map(|(_, t)| t);
        assert!(
            text.is_some_and(|t| uses_clap(&code_only(t))),
            "{path} no longer uses clap ({why}): drop it from CLAP_OUTSIDE_CLI"
        );
    }
    for (path, why) in SENTENCES_OUTSIDE_THE_EXPLAINER {
        let text = sources.iter().find(|(p, _)| p == path).map(|(_, t)| t);
        assert!(
            text.is_some_and(|t| makes_db_sentence(&code_only(t))),
            "{path} no longer makes one ({why}): drop it from SENTENCES_OUTSIDE_THE_EXPLAINER"
        );
    }
}

#[test]
fn the_one_place_checks_bite() {
    let clap = "use clap::ValueEnum;\n#[derive(clap::ValueEnum)]\nenum E { A }";
    assert_eq!(findings("ui/output.rs", clap).len(), 1);
    assert!(findings("cli/values.rs", clap).is_empty());
    assert!(findings("docs/manpages.rs", "fn f(c: clap::Command) {}").is_empty());
    assert_eq!(
        findings("main.rs", "use clap::FromArgMatches;\nfn main() {}").len(),
        1
    );
    assert_eq!(
        findings("commands/x.rs", "let s = clap_complete::env::Bash;").len(),
        1
    );
    // Words about clap are not clap: a comment, a string, a name.
    let words = "// clap::Command is cli's\nlet s = \"clap::Arg\";\nreport_clap_error(err, None);";
    assert!(findings("ui/x.rs", words).is_empty());

    let by_constant = "if *code == SqlState::LOCK_NOT_AVAILABLE { retry() }";
    assert_eq!(findings("db/transition/x.rs", by_constant).len(), 1);
    let by_string = r#"let busy = db.code().code() == "55P03";"#;
    assert_eq!(findings("commands/x.rs", by_string).len(), 1);
    assert!(findings("db/errors/classify.rs", by_constant).is_empty());
    let numeric = r#"if db.code().code() == "40001" { retry() }"#;
    assert_eq!(findings("db/stuck.rs", numeric).len(), 1);
    // Capitals without a digit, a number that is no SQLSTATE.
    let neither = r#"let shell = env("SHELL"); let ms = ("statement_timeout", "30000");"#;
    assert!(findings("sandbox/x.rs", neither).is_empty());

    let sentence = "exit::explained(DbFailure::LockTimeout, ExitCode::Conflict, text)";
    assert_eq!(
        findings("commands/fail_safely/request.rs", sentence).len(),
        1
    );
    assert_eq!(
        findings("db/transition/errors.rs", "connection_lost(text)").len(),
        1
    );
    assert!(findings("db/errors/sentences.rs", sentence).is_empty());
    assert!(findings("exit/failure.rs", "pub fn explained(db: DbFailure)").is_empty());
    assert!(findings("ui/failure_tests.rs", "connection_lost(\"gone\")").is_empty());
    assert!(findings("x.rs", "let explained = true;").is_empty());
}
