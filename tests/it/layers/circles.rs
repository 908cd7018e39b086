//! No import circle between the crate's modules, inside folders too: the
//! graph of which file's module names which other (`crate::a::b`,
//! `super::x`, `self::y`, grouped `use super::{..}`, re-exports followed
//! to the file that defines the item) has no cycle.
//!
//! A folder's `mod.rs` declares its files, re-exports and dispatches to
//! them: its references to its own files are not counted. A file's
//! references to what its parent itself defines are.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use super::code::code_only;

type Module = Vec<String>;

/// What one file says: the names its top-level `use`s bring in (local
/// name → the path as written) and every path it names, each with the
/// number of inline modules (`mod tests { … }`) it sits in.
struct File {
    names: BTreeMap<String, Vec<String>>,
    refs: Vec<(Vec<String>, usize)>,
}

pub struct Graph {
    files: BTreeMap<Module, File>,
}

/// The module a file under `src/` is (`[]`: lib.rs; `None`: main.rs).
fn module_of_path(relative: &Path) -> Option<Module> {
    let mut parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().to_string())
        .collect();
    let last = parts.pop()?;
    let stem = last.strip_suffix(".rs")?.to_string();
    match (parts.is_empty(), stem.as_str()) {
        (true, "main") => return None,
        (true, "lib") | (_, "mod") => {}
        _ => parts.push(stem),
    }
    Some(parts)
}

/// `#[path = "x.rs"] mod name;` in `file`: (the file it points at, the
/// module it makes).
fn path_attributes(relative: &Path, text: &str) -> Vec<(PathBuf, String)> {
    let dir = relative.parent().unwrap_or(Path::new(""));
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("#[path = \"") {
        rest = &rest[at + "#[path = \"".len()..];
        let Some(end) = rest.find('"') else { break };
        let target = dir.join(&rest[..end]);
        if let Some(m) = rest.find("mod ") {
            let name: String = rest[m + 4..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            found.push((target, name));
        }
    }
    found
}

fn words(code: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in code.char_indices().chain([(code.len(), ' ')]) {
        let ident = c.is_alphanumeric() || c == '_';
        match (ident, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, code[s..i].to_string()));
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// The byte ranges of inline module bodies (`mod name { … }`).
fn inline_modules(code: &str) -> Vec<(usize, usize)> {
    let bytes = code.as_bytes();
    let ws = words(code);
    let mut ranges = Vec::new();
    for pair in ws.windows(2) {
        let ((_, kw), (at, name)) = (&pair[0], &pair[1]);
        if kw != "mod" {
            continue;
        }
        let after = code[at + name.len()..].trim_start();
        if !after.starts_with('{') {
            continue;
        }
        let open = code.len() - after.len();
        let mut depth = 0;
        for (i, b) in bytes.iter().enumerate().skip(open) {
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        ranges.push((open, i));
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    ranges
}

fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphanumeric() || c == '_' {
            let word: String = chars[i..]
                .iter()
                .take_while(|c| c.is_alphanumeric() || **c == '_')
                .collect();
            i += word.chars().count();
            out.push(word);
            continue;
        }
        if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push("::".into());
            i += 2;
            continue;
        }
        if "{},*".contains(c) {
            out.push(c.to_string());
        }
        i += 1;
    }
    out
}

/// Expands a use tree (`super::{a, b::{c, d as e}, f::*}`) into paths,
/// each with the name it brings in (`*` for a glob).
fn use_tree(
    t: &[String],
    i: &mut usize,
    mut path: Vec<String>,
    out: &mut Vec<(Vec<String>, String)>,
) {
    while let Some(token) = t.get(*i) {
        match token.as_str() {
            "{" => {
                *i += 1;
                while *i < t.len() && t[*i] != "}" {
                    let before = *i;
                    use_tree(t, i, path.clone(), out);
                    if t.get(*i).is_some_and(|s| s == ",") {
                        *i += 1;
                    } else if *i == before {
                        break;
                    }
                }
                *i += 1;
                return;
            }
            "*" => {
                *i += 1;
                out.push((path, "*".into()));
                return;
            }
            "::" => *i += 1,
            "," | "}" => return,
            word => {
                path.push(word.to_string());
                *i += 1;
                if t.get(*i).is_some_and(|s| s == "::") {
                    continue;
                }
                if path.last().is_some_and(|s| s == "self") {
                    path.pop();
                }
                let mut name = path.last().cloned().unwrap_or_default();
                if t.get(*i).is_some_and(|s| s == "as") {
                    name = t.get(*i + 1).cloned().unwrap_or_default();
                    *i += 2;
                }
                out.push((path, name));
                return;
            }
        }
    }
}

fn depth_at(ranges: &[(usize, usize)], at: usize) -> usize {
    ranges.iter().filter(|(a, b)| *a < at && at < *b).count()
}

/// What a file's code names: its `use` declarations and its other paths.
fn read_file(code: &str) -> File {
    let inline = inline_modules(code);
    let mut file = File {
        names: BTreeMap::new(),
        refs: Vec::new(),
    };
    let mut uses = Vec::new();
    for (at, word) in words(code) {
        if word != "use" || uses.last().is_some_and(|(_, end)| at < *end) {
            continue;
        }
        let end = code[at..].find(';').map_or(code.len(), |e| at + e);
        let t = tokens(&code[at + 3..end]);
        let mut paths = Vec::new();
        use_tree(&t, &mut 0, Vec::new(), &mut paths);
        let depth = depth_at(&inline, at);
        for (path, name) in paths {
            if depth == 0 && name != "*" {
                file.names.insert(name, path.clone());
            }
            file.refs.push((path, depth));
        }
        uses.push((at, end));
    }
    let t: Vec<(usize, String)> = words(code);
    let bytes = code.as_bytes();
    let mut k = 0;
    while k < t.len() {
        let (at, first) = &t[k];
        let in_use = uses.iter().any(|(s, e)| s <= at && at < e);
        let continues = at.checked_sub(2).is_some_and(|p| bytes[p..*at] == *b"::");
        let mut path = vec![first.clone()];
        let mut end = at + first.len();
        while k + 1 < t.len()
            && bytes.get(end..end + 2) == Some(&b"::"[..])
            && t[k + 1].0 == end + 2
        {
            k += 1;
            path.push(t[k].1.clone());
            end = t[k].0 + t[k].1.len();
        }
        if !in_use && !continues && path.len() > 1 {
            file.refs.push((path, depth_at(&inline, *at)));
        }
        k += 1;
    }
    file
}

impl Graph {
    /// The graph of the files of a crate: (path relative to `src/`, text).
    pub fn of(sources: &[(PathBuf, String)]) -> Graph {
        let mut moved = BTreeMap::new();
        for (relative, text) in sources {
            for (target, name) in path_attributes(relative, text) {
                if let Some(mut module) = module_of_path(relative) {
                    module.push(name);
                    moved.insert(target, module);
                }
            }
        }
        let mut files = BTreeMap::new();
        for (relative, text) in sources {
            let module = moved
                .get(relative)
                .cloned()
                .or_else(|| module_of_path(relative));
            if let Some(module) = module {
                files.insert(module, read_file(&code_only(text)));
            }
        }
        Graph { files }
    }

    /// A path as named in `module` (inside `depth` inline modules), made
    /// absolute; `None` for other crates and local items.
    fn absolute(
        &self,
        module: &[String],
        depth: usize,
        path: &[String],
        hops: u8,
    ) -> Option<Module> {
        let (first, rest) = path.split_first()?;
        match first.as_str() {
            "crate" => Some(rest.to_vec()),
            "self" if depth > 0 => Some(module.to_vec()),
            "self" => Some([module, rest].concat()),
            "super" => {
                let ups = path.iter().take_while(|s| *s == "super").count();
                if ups <= depth {
                    return Some(module.to_vec());
                }
                let keep = module.len().checked_sub(ups - depth)?;
                Some([&module[..keep], &path[ups..]].concat())
            }
            _ if depth > 0 || hops > 8 => None,
            _ if self
                .files
                .contains_key(&[module, std::slice::from_ref(first)].concat()) =>
            {
                Some([module, path].concat())
            }
            _ => {
                let named = self.files.get(module)?.names.get(first)?;
                let base = self.absolute(module, 0, named, hops + 1)?;
                Some([base.as_slice(), rest].concat())
            }
        }
    }

    /// The file that defines what an absolute path names: the deepest
    /// module on it, through that module's `use`s.
    fn node(&self, path: &[String], hops: u8) -> Option<Module> {
        let k = (0..=path.len())
            .rev()
            .find(|k| self.files.contains_key(&path[..*k]))?;
        let module = &path[..k];
        if let Some(next) = path.get(k)
            && hops < 8
            && let Some(named) = self.files[module].names.get(next)
            && let Some(target) = self.absolute(module, 0, named, 0)
        {
            return self.node(&[target.as_slice(), &path[k + 1..]].concat(), hops + 1);
        }
        Some(module.to_vec())
    }

    /// Who names whom, by module (`a::b`), without a module's references
    /// to itself and to its own descendants.
    pub fn edges(&self) -> BTreeMap<String, BTreeSet<String>> {
        let mut edges = BTreeMap::new();
        for (module, file) in &self.files {
            let out: &mut BTreeSet<String> = edges.entry(name(module)).or_default();
            for (path, depth) in &file.refs {
                let target = self
                    .absolute(module, *depth, path, 0)
                    .and_then(|a| self.node(&a, 0));
                if let Some(target) = target
                    && !target.starts_with(module)
                {
                    out.insert(name(&target));
                }
            }
        }
        edges
    }
}

fn name(module: &[String]) -> String {
    if module.is_empty() {
        "crate".into()
    } else {
        module.join("::")
    }
}

/// Every circle: one per knot of modules that reach each other, shown as
/// a path from its first module back to it, then the knot's members.
pub fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let reach = |from: &str| {
        let mut seen = BTreeSet::from([from.to_string()]);
        let mut todo = vec![from.to_string()];
        while let Some(m) = todo.pop() {
            for next in edges.get(&m).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        edges.keys().map(|m| (m, reach(m.as_str()))).collect();
    let mut done = BTreeSet::new();
    let mut found = Vec::new();
    for (m, from_m) in &reaches {
        if done.contains(*m) {
            continue;
        }
        let knot: BTreeSet<String> = from_m
            .iter()
            .filter(|o| reaches.get(o).is_some_and(|r| r.contains(*m)))
            .cloned()
            .collect();
        done.extend(knot.iter().cloned());
        if knot.len() > 1 {
            let cycle = shortest_cycle(edges, m, &knot);
            let members: Vec<&str> = knot.iter().map(String::as_str).collect();
            found.push(format!(
                "{} (knot: {})",
                cycle.join(" → "),
                members.join(", ")
            ));
        }
    }
    found
}

/// The shortest path from `start` back to itself inside `knot`.
fn shortest_cycle(
    edges: &BTreeMap<String, BTreeSet<String>>,
    start: &str,
    knot: &BTreeSet<String>,
) -> Vec<String> {
    let mut came_from: BTreeMap<String, String> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start.to_string()]);
    while let Some(m) = queue.pop_front() {
        for next in edges
            .get(&m)
            .into_iter()
            .flatten()
            .filter(|n| knot.contains(*n))
        {
            if next == start {
                let mut path = vec![m.clone()];
                while let Some(prev) = came_from.get(path.last().expect("a module")) {
                    path.push(prev.clone());
                }
                path.reverse();
                path.push(start.to_string());
                return path;
            }
            if !came_from.contains_key(next) && next != start {
                came_from.insert(next.clone(), m.clone());
                queue.push_back(next.clone());
            }
        }
    }
    vec![start.to_string()]
}

fn sources() -> Vec<(PathBuf, String)> {
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
