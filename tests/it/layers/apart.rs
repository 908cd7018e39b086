//! No command reaches into another (README, "The layers"): what several
//! commands share is an op (`src/ops/`), so no module under
//! `src/commands/<a>` names another command's module (`crate::commands::<b>`,
//! `super::<b>`, a re-export of it) nor the dispatcher's own items
//! (`commands/mod.rs`). A module of `commands/` that is no command (it has
//! no `pub fn run`: `watch.rs`, the `--watch` loop stuck and fleet list
//! share) may be used by the commands.

use std::collections::BTreeSet;
use std::path::{Component, PathBuf};

use super::circles::graph::Graph;
use super::code::code_only;

/// The commands: the modules of `commands/` (`commands/x.rs`,
/// `commands/x/mod.rs`) with the `run` the dispatcher calls.
fn commands(sources: &[(PathBuf, String)]) -> BTreeSet<String> {
    sources
        .iter()
        .filter_map(|(path, text)| {
            let parts: Vec<String> = path
                .components()
                .filter_map(|c| match c {
                    Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
                    _ => None,
                })
                .collect();
            let name = match parts.as_slice() {
                [top, file] if top == "commands" && file != "mod.rs" => file.strip_suffix(".rs")?,
                [top, folder, file] if top == "commands" && file == "mod.rs" => folder.as_str(),
                _ => return None,
            };
            code_only(text)
                .contains("pub fn run(")
                .then(|| name.to_string())
        })
        .collect()
}

/// Each reference from a module under `commands/<a>` to another command
/// or to the dispatcher, as `from → to`.
fn reaching(sources: &[(PathBuf, String)]) -> Vec<String> {
    let commands = commands(sources);
    let mut found = Vec::new();
    for (from, targets) in Graph::of(sources).edges() {
        let Some(own) = from.strip_prefix("commands::").map(first) else {
            continue;
        };
        for to in targets {
            let wrong = match to.strip_prefix("commands::").map(first) {
                Some(other) => other != own && commands.contains(other),
                None => to == "commands",
            };
            if wrong {
                found.push(format!("{from} → {to}"));
            }
        }
    }
    found
}

/// `a` of `a::b::c`.
fn first(path: &str) -> &str {
    path.split("::").next().unwrap_or(path)
}

#[test]
fn no_command_imports_another_command() {
    let sources = super::circles::sources();
    let commands = commands(&sources);
    assert!(
        ["diagnose", "fail_safely", "wait", "stuck"]
            .iter()
            .all(|c| commands.contains(*c))
            && !commands.contains("watch"),
        "the commands found: {commands:?}"
    );
    let found = reaching(&sources);
    assert!(
        found.is_empty(),
        "a command uses another command's module or the dispatcher (move what they share \
         into an op, src/ops/):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_command_apart_check_bites() {
    let files: Vec<(PathBuf, String)> = [
        ("lib.rs", "pub mod commands;"),
        (
            "commands/mod.rs",
            "pub mod a;\npub mod b;\npub mod c;\nmod shared;\npub use shared::helper;\n\
             pub struct Context;\npub fn run() {\n    a::run();\n}",
        ),
        ("commands/a.rs", "use super::b::Thing;\npub fn run() {}"),
        (
            "commands/b.rs",
            "pub struct Thing;\npub fn run() {\n    super::helper();\n    super::shared::helper();\n}",
        ),
        ("commands/c/mod.rs", "mod part;\npub fn run() {\n    part::f();\n}"),
        (
            "commands/c/part.rs",
            "use crate::commands::Context;\npub fn f() {\n    super::super::a::run();\n    super::run();\n}",
        ),
        ("commands/shared.rs", "// pub fn run() is not here\npub fn helper() {}"),
    ]
    .into_iter()
    .map(|(p, t)| (PathBuf::from(p), t.to_string()))
    .collect();
    assert_eq!(
        commands(&files).into_iter().collect::<Vec<_>>(),
        ["a", "b", "c"],
        "a module without `pub fn run` (in code) is no command"
    );
    assert_eq!(
        reaching(&files),
        [
            "commands::a → commands::b",
            "commands::c::part → commands",
            "commands::c::part → commands::a",
        ],
        "a sibling command, the dispatcher's own item and a command two levels up; \
         not a shared helper, through its re-export or directly, nor the command's own folder"
    );
}
