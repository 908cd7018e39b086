//! Reading one file of `src/`: the module it is (by its path, or a
//! `#[path]` on its declaration) and what it names: the names its `use`s
//! bring in and every path in its code.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub type Module = Vec<String>;

/// What one file says: the names its top-level `use`s bring in (local
/// name → the path as written) and every path it names, each with the
/// number of inline modules (`mod name { … }`) it sits in.
pub struct File {
    pub names: BTreeMap<String, Vec<String>>,
    pub refs: Vec<(Vec<String>, usize)>,
}

/// The module a file under `src/` is (`[]`: lib.rs; `None`: main.rs).
pub fn module_of_path(relative: &Path) -> Option<Module> {
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
pub fn path_attributes(relative: &Path, text: &str) -> Vec<(PathBuf, String)> {
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
pub fn read_file(code: &str) -> File {
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
