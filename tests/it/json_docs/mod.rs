//! The JSON OUTPUT section of each man page documents exactly the keys the
//! command prints: every key a real run serializes is documented, and every
//! documented key is serialized by some run. A script author reads the man
//! page, so a key renamed in the code and not in the page (or the reverse)
//! breaks scripts silently; here it breaks this test.
//!
//! The keys are read from the roff of `man/src/json/` as the generator uses
//! it (`docs::json::SECTIONS`): each `.TP` tag is `\fBkey\fR` (several keys
//! separated by commas when they share a paragraph), and when the key holds
//! an object or a list of objects its paragraph starts with the shape,
//! `{a, b: {c}, d: [{e}]}`, where `name: "x" | "y"` describes a value and
//! `{...}` is an object whose keys are the database's own (not checked).
//! Keys are compared by path: `verdict.findings[].code`.

use std::collections::BTreeSet;

use pushleft_controller::docs::json::SECTIONS;
use serde_json::Value;

use crate::support::{TestDb, scenario, with_null};

mod actions;
mod reads;

/// Key paths, sorted so that a failure lists them in a stable order.
type Keys = BTreeSet<String>;

/// What a JSON OUTPUT section documents.
#[derive(Debug, Default)]
struct Documented {
    keys: Keys,
    /// Objects documented as `{...}`: their keys are data, not ours.
    opaque: Keys,
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// Every key `value` serializes, by path; the elements of a list share the
/// path `list[]`.
fn serialized(value: &Value, path: &str, opaque: &Keys, keys: &mut Keys) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                let path = join(path, key);
                if !opaque.contains(&path) {
                    serialized(inner, &path, opaque, keys);
                }
                keys.insert(path);
            }
        }
        Value::Array(items) => {
            let path = format!("{path}[]");
            for item in items {
                serialized(item, &path, opaque, keys);
            }
        }
        _ => {}
    }
}

/// The keys a JSON OUTPUT section documents (see the module comment for
/// the format).
fn documented(roff: &str) -> Documented {
    let lines: Vec<&str> = roff.lines().collect();
    let mut doc = Documented::default();
    for (i, _) in lines.iter().enumerate().filter(|(_, l)| **l == ".TP") {
        let tag = lines.get(i + 1).copied().unwrap_or_default();
        let keys = tag_keys(tag);
        let body = lines
            .iter()
            .skip(i + 2)
            .take_while(|l| !l.starts_with('.'))
            .copied()
            .collect::<Vec<_>>()
            .join(" ");
        if body.starts_with(['{', '[']) {
            assert_eq!(
                keys.len(),
                1,
                "a shape after the tag {tag:?} of several keys"
            );
            Shape::new(&body, &mut doc).value(&keys[0]);
        }
        doc.keys.extend(keys);
    }
    doc
}

/// `\fBa\fR, \fBb\fR` -> [a, b]; anything else is a malformed tag.
fn tag_keys(tag: &str) -> Vec<String> {
    tag.split(", ")
        .map(|part| {
            part.strip_prefix("\\fB")
                .and_then(|rest| rest.strip_suffix("\\fR"))
                .filter(|key| is_key(key))
                .unwrap_or_else(|| panic!("a JSON OUTPUT .TP tag is not \\fBkey\\fR: {tag:?}"))
                .to_string()
        })
        .collect()
}

fn is_key(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(is_key_byte)
}

/// A reader of one shape, `{a, b: {c}, d: [{e}], f: "x" | "y"}`, that
/// records the key paths it names; what follows the shape is prose.
struct Shape<'a> {
    text: &'a str,
    pos: usize,
    doc: &'a mut Documented,
}

impl<'a> Shape<'a> {
    fn new(text: &'a str, doc: &'a mut Documented) -> Shape<'a> {
        Shape { text, pos: 0, doc }
    }

    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    fn skip_spaces(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start().len();
    }

    #[track_caller]
    fn expect(&mut self, token: char) {
        self.skip_spaces();
        assert!(
            self.rest().starts_with(token),
            "expected {token:?} at {:?} in the shape {:?}",
            self.rest(),
            self.text
        );
        self.pos += token.len_utf8();
    }

    /// An object or a list at `path` (the key that holds it).
    fn value(&mut self, path: &str) {
        self.skip_spaces();
        if self.rest().starts_with('{') {
            self.object(path);
        } else {
            self.expect('[');
            self.value(&format!("{path}[]"));
            self.expect(']');
        }
    }

    fn object(&mut self, path: &str) {
        self.expect('{');
        if let Some(rest) = self.rest().strip_prefix("...}") {
            self.pos = self.text.len() - rest.len();
            self.doc.opaque.insert(path.to_string());
            return;
        }
        loop {
            self.skip_spaces();
            let len = self.rest().bytes().take_while(|b| is_key_byte(*b)).count();
            let key = &self.rest()[..len];
            assert!(
                is_key(key),
                "expected a key at {:?} in the shape {:?}",
                self.rest(),
                self.text
            );
            self.pos += len;
            let key_path = join(path, key);
            self.doc.keys.insert(key_path.clone());
            self.skip_spaces();
            if let Some(rest) = self.rest().strip_prefix(':') {
                let trimmed = rest.trim_start();
                self.pos = self.text.len() - trimmed.len();
                if trimmed.starts_with(['{', '[']) {
                    self.value(&key_path);
                } else {
                    // A description of the value: up to the next `,` or `}`.
                    let end = trimmed.find([',', '}']).unwrap_or(trimmed.len());
                    self.pos += end;
                }
            }
            self.skip_spaces();
            if self.rest().starts_with(',') {
                self.pos += 1;
            } else {
                self.expect('}');
                return;
            }
        }
    }
}

fn is_key_byte(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'
}

fn section(page: &str) -> &'static str {
    SECTIONS
        .iter()
        .find(|(name, _)| *name == page)
        .map(|(_, roff)| *roff)
        .unwrap_or_else(|| panic!("{page} has no JSON OUTPUT section"))
}

/// Fails, listing both differences, unless the documents (real outputs of
/// the command of `page`) serialize exactly the keys its page documents.
#[track_caller]
fn assert_documented(page: &str, documents: &[Value]) {
    let doc = documented(section(page));
    let mut real = Keys::new();
    for document in documents {
        serialized(document, "", &doc.opaque, &mut real);
    }
    let not_serialized: Vec<&String> = doc.keys.difference(&real).collect();
    let not_documented: Vec<&String> = real.difference(&doc.keys).collect();
    let file = page.trim_start_matches("pushleft-controller-");
    assert!(
        not_serialized.is_empty() && not_documented.is_empty(),
        "man/src/json/{file}.roff and the real output of {page} disagree\n  \
         documented, never serialized: {not_serialized:?}\n  \
         serialized, not documented:   {not_documented:?}\n\
         (fix the page and run `cargo run -- generate`, or fix the code)"
    );
}

/// Runs the binary and returns its JSON document, after checking the exit
/// status.
fn json(db: &TestDb, args: &[&str], code: i32) -> Value {
    let mut args = args.to_vec();
    args.extend(["-o", "json"]);
    db.run(&args).assert_code(code).json()
}

#[test]
fn every_documented_json_output_is_checked_here() {
    let pages: Vec<&str> = SECTIONS.iter().map(|(page, _)| *page).collect();
    assert_eq!(
        pages,
        [
            "pushleft-controller-doctor",
            "pushleft-controller-diagnose",
            "pushleft-controller-fail-safely",
            "pushleft-controller-fleet-list",
            "pushleft-controller-stuck",
            "pushleft-controller-history",
            "pushleft-controller-wait",
        ],
        "a new JSON OUTPUT section needs its test in tests/it/json_docs/"
    );
}

#[test]
fn the_shape_reader_sees_nested_keys_values_and_opaque_objects() {
    let doc = documented(
        ".SH \"JSON OUTPUT\"\n.TP\n\\fBa\\fR, \\fBb\\fR\nProse {not, a, shape}.\n\
         .TP\n\\fBv\\fR\n{p: \\(dqx\\(dq | \\(dqy\\(dq, l: [{c}],\n\
         o: {...}, n: {d}}: then prose, {e}.\n.PP\n{f}\n",
    );
    let keys: Vec<&str> = doc.keys.iter().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "a", "b", "v", "v.l", "v.l[].c", "v.n", "v.n.d", "v.o", "v.p"
        ]
    );
    assert_eq!(doc.opaque.into_iter().collect::<Vec<_>>(), ["v.o"]);
}
