//! No import circle between the crate's modules, inside folders too: the
//! graph of which file's module names which other (`crate::a::b`,
//! `super::x`, `self::y`, grouped `use super::{..}`, re-exports followed
//! to the file that defines the item) has no cycle.
//!
//! A folder's `mod.rs` declares its files, re-exports and dispatches to
//! them: its references to its own files are not counted. A file's
//! references to what its parent itself defines are.

use std::fs;
use std::path::PathBuf;

pub(super) mod graph;
mod read;
mod search;

use graph::Graph;
use search::circles;

/// Every file of `src/`: (its path relative to `src/`, its text).
pub(super) fn sources() -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    super::rust_files(&super::src(), &mut files);
    files
        .into_iter()
        .map(|f| {
            let text = fs::read_to_string(&f).expect("reading a source file");
            (
                f.strip_prefix(super::src()).unwrap_or(&f).to_path_buf(),
                text,
            )
        })
        .collect()
}

#[test]
fn no_module_reaches_itself_through_its_imports() {
    let circles = circles(&Graph::of(&sources()).edges());
    assert!(
        circles.is_empty(),
        "import circles between modules (move what both sides share into a module both use):\n{}",
        circles.join("\n")
    );
}

#[test]
fn the_circle_detector_bites() {
    let files: Vec<(PathBuf, String)> = [
        ("lib.rs", "pub mod m;"),
        ("m/mod.rs", "pub mod a;\npub mod b;\npub mod c;\nmod d;\nmod e;\npub use a::A;\nfn helper() {}"),
        (
            "m/a.rs",
            "use super::{b::B, c};\npub struct A;\n#[cfg(test)]\nmod tests {\n    use super::*;\n    use super::super::d;\n}",
        ),
        ("m/b.rs", "// use super::c::C;\nconst S: &str = \"super::d::X\";\npub struct B(super::A);"),
        ("m/c.rs", "pub fn f() {\n    self::g();\n    crate::m::d::h();\n}\nfn g() {}"),
        ("m/d.rs", "pub fn h() {\n    super::helper();\n}"),
        ("m/e.rs", "#[cfg(test)]\n#[path = \"e_tests.rs\"]\nmod tests;"),
        ("m/e_tests.rs", "use super::super::c::f;"),
    ]
    .into_iter()
    .map(|(p, t)| (PathBuf::from(p), t.to_string()))
    .collect();
    let edges = Graph::of(&files).edges();
    let of = |m: &str| edges[m].iter().map(String::as_str).collect::<Vec<_>>();
    assert_eq!(
        of("m"),
        Vec::<&str>::new(),
        "a mod.rs's own files are not counted"
    );
    assert_eq!(of("m::a"), ["m::b", "m::c", "m::d"]);
    assert_eq!(
        of("m::b"),
        ["m::a"],
        "through the re-export; not the comment or string"
    );
    assert_eq!(of("m::c"), ["m::d"]);
    assert_eq!(of("m::d"), ["m"]);
    assert_eq!(
        of("m::e::tests"),
        ["m::c"],
        "a #[path] file is its declarer's child"
    );
    assert_eq!(circles(&edges), ["m::a → m::b → m::a (knot: m::a, m::b)"]);
}
