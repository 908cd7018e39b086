//! Decisions in one place (README, "The layers"): `decide` judges, `db`
//! reads, locks and writes, and the screen renders what was decided.
//!
//! - `src/ui` names nothing of `crate::decide` (the types it renders are
//!   `model`'s, where `decide` takes them from too) and calls none of the
//!   staleness policy's judgements: a flag the screen shows (a stale
//!   heartbeat, a dead node) is decided once and carried in the report,
//!   so the table, the markdown and JSON cannot disagree;
//! - `src/db/transition` builds no refusal (`exit::refused`,
//!   `exit::conflict`): whether fail-safely may write, whether a key is a
//!   replay, whether what the database holds is what was written, is
//!   `decide::transition`'s to say, over what `db` read; `errors.rs`
//!   explains what the server answered (a lock timeout, a serialization
//!   failure), which is no decision. And no function of `src/db` takes
//!   the name of one of the judgements that moved there.

use std::fs;
use std::path::Path;

use regex::Regex;

use super::code::code_only;

/// The staleness policy's judgements, by their method names.
const JUDGEMENTS: &[&str] = &["is_stale", "is_dead", "node_state"];

/// Files of `src/db/transition` that may build a refusal, and why.
const EXPLAINS_THE_SERVER: &[(&str, &str)] = &[(
    "errors.rs",
    "the server's own errors (a lock timeout, a serialization failure, a lost \
     connection) explained with their exit codes: what happened, not a decision",
)];

/// The judgements `decide::transition`, `decide::guard` and
/// `decide::schema` hold, by the names they had under `src/db`: none may
/// come back there.
const MOVED_TO_DECIDE: &[&str] = &[
    "check_expectations",
    "nothing_to_do",
    "undecidable",
    "held_to_expectations",
    "refuse_unwritable",
    "refuse_full_trail",
    "unsafe_database",
    "check_event",
    "values_differ",
    // decide::schema: the schema check's judgements over the catalog facts.
    "judge",
    "judge_foreign_key",
    "check_tables",
    "check_unique_key",
    "check_foreign_keys",
    "check_triggers",
    "check_protected",
    "not_protecting",
    "check_written_tables",
    "check_inventory",
];

fn pattern(re: &str) -> Regex {
    Regex::new(re).expect("a valid pattern")
}

/// Why `code` (comments and literals blanked) would judge on the screen.
fn screen_judges(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    if super::crate_references(code).contains("decide") {
        found.push("uses crate::decide".to_string());
    }
    for name in JUDGEMENTS {
        if pattern(&format!(r"\.\s*{name}\s*\(")).is_match(code) {
            found.push(format!("calls {name}"));
        }
    }
    found
}

/// Why `code` would decide in `db`: the refusals it builds.
fn builds_refusals(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    for call in pattern(r"\bexit\s*::\s*(refused|conflict)\b").captures_iter(code) {
        found.push(format!("builds exit::{}", &call[1]));
    }
    let grouped = pattern(r"\bexit\s*::\s*\{([^}]*)\}");
    for import in grouped.captures_iter(code) {
        for word in ["refused", "conflict"] {
            if pattern(&format!(r"\b{word}\b")).is_match(&import[1]) {
                found.push(format!("imports exit::{word}"));
            }
        }
    }
    found
}

/// The judgements of [`MOVED_TO_DECIDE`] that `code` defines.
fn moved_judgements(code: &str) -> Vec<String> {
    super::size::functions(code)
        .into_iter()
        .filter(|(name, _, _)| MOVED_TO_DECIDE.contains(&name.as_str()))
        .map(|(name, line, _)| format!("line {line}: fn {name}"))
        .collect()
}

fn sources(dir: &Path) -> Vec<(String, String)> {
    let mut files = Vec::new();
    super::rust_files(dir, &mut files);
    files.sort();
    files
        .into_iter()
        .map(|file| {
            let text = fs::read_to_string(&file).expect("reading a source file");
            let relative = file.strip_prefix(super::src()).unwrap_or(&file);
            (relative.display().to_string(), code_only(&text))
        })
        .collect()
}

#[test]
fn the_screen_renders_what_was_decided_and_judges_nothing() {
    let mut judging = Vec::new();
    for (file, code) in sources(&super::src().join("ui")) {
        for why in screen_judges(&code) {
            judging.push(format!("{file}: {why}"));
        }
    }
    assert!(
        judging.is_empty(),
        "the screen judges (decide it in decide, carry it in the model's report):\n{}",
        judging.join("\n")
    );
}

#[test]
fn db_reads_locks_and_writes_and_decides_nothing() {
    let mut deciding = Vec::new();
    let transition = super::src().join("db").join("transition");
    for (file, code) in sources(&transition) {
        let name = Path::new(&file).file_name().and_then(|n| n.to_str());
        if EXPLAINS_THE_SERVER.iter().any(|(f, _)| Some(*f) == name) {
            continue;
        }
        for why in builds_refusals(&code) {
            deciding.push(format!("{file}: {why}"));
        }
    }
    for (file, code) in sources(&super::src().join("db")) {
        for why in moved_judgements(&code) {
            deciding.push(format!("{file}: {why}"));
        }
    }
    assert!(
        deciding.is_empty(),
        "db decides (a pure function of decide::transition over what db read):\n{}",
        deciding.join("\n")
    );
}

#[test]
fn the_screen_check_bites() {
    let judging = code_only(
        "use crate::decide::{Policy, Severity};\n\
         let dead = view.policy.is_dead(node, now);\n\
         let stale = policy\n    .is_stale(node, now);",
    );
    assert_eq!(
        screen_judges(&judging),
        ["uses crate::decide", "calls is_stale", "calls is_dead"]
    );
    let rendering = code_only(
        "use crate::model::assessment::Severity;\n\
         // as decide::blind concluded; policy.is_dead(n, now)\n\
         let dead = node.dead; let text = \"crate::decide::Policy\";\n\
         fn is_stale_label() {}",
    );
    assert!(
        screen_judges(&rendering).is_empty(),
        "{:?}",
        screen_judges(&rendering)
    );
}

#[test]
fn the_db_check_bites() {
    let deciding = code_only(
        "use crate::exit::{self, conflict};\n\
         fn nothing_to_do(v: &Verdict) -> anyhow::Error {\n    exit::refused(format!(\"{v:?}\"))\n}\n\
         fn undecidable() {}\n",
    );
    assert_eq!(
        builds_refusals(&deciding),
        ["builds exit::refused", "imports exit::conflict"]
    );
    assert_eq!(
        moved_judgements(&deciding),
        ["line 2: fn nothing_to_do", "line 5: fn undecidable"]
    );
    let schema_judging = code_only(
        "pub fn judge(doc: &Value) -> SchemaReport { todo!() }\n\
         fn read_facts() {}\n\
         pub(super) fn check_protected() {}\n",
    );
    assert_eq!(
        moved_judgements(&schema_judging),
        ["line 1: fn judge", "line 3: fn check_protected"]
    );
    let reading = code_only(
        "use crate::exit;\n\
         // exit::refused( is decide's\n\
         fn fit_to_write(in_force: &InForce) -> Result<()> { server::fit_to_write(&settings(in_force)) }\n\
         let e = exit::interrupted(\"refused\");\n",
    );
    assert!(builds_refusals(&reading).is_empty());
    assert!(moved_judgements(&reading).is_empty());
}
