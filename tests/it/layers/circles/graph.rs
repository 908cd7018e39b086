//! The import graph: each module's file read, each path it names made
//! absolute and followed through re-exports to the module that defines it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use super::super::code::code_only;
use super::read::{File, Module, module_of_path, path_attributes, read_file};

pub struct Graph {
    files: BTreeMap<Module, File>,
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
