//! Connection service files, as libpq 15 reads them: the service named by
//! `service=` (else `PGSERVICE`) is looked up in `PGSERVICEFILE` (else
//! `~/.pg_service.conf`), and only when that file has no such section in
//! `PGSYSCONFDIR/pg_service.conf` (else the compiled-in
//! `/etc/postgresql-common`). Its lines fill in the parameters the
//! connection string left out, before the environment does.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::Result;

use super::conninfo::keyword;
use super::env::{Env, home_dir};
use crate::exit;

/// libpq's compiled-in `SYSCONFDIR` (Debian's and Ubuntu's builds).
pub(super) const SYSCONFDIR: &str = "/etc/postgresql-common";

/// The lines of one service section: (keyword, value) in file order.
pub(super) type Section = Vec<(&'static str, String)>;

/// The service's section and the file it is in, to fill in the parameters
/// not set yet (`service` is the `service=` parameter); none without a
/// service; a named service that no file defines is an error, as in libpq.
pub(super) fn section(service: Option<&str>, env: Env) -> Result<Option<(PathBuf, Section)>> {
    let name = match service {
        Some(name) => name.to_string(),
        None => match env("PGSERVICE") {
            Some(name) => name,
            None => return Ok(None),
        },
    };
    let user_file = env("PGSERVICEFILE")
        .map(PathBuf::from)
        .or_else(|| home_dir(env).map(|home| home.join(".pg_service.conf")));
    if let Some(path) = user_file
        && fs::metadata(&path).is_ok()
        && let Some(lines) = read_section(&path, &name)?
    {
        return Ok(Some((path, lines)));
    }
    let dir = env("PGSYSCONFDIR").unwrap_or_else(|| SYSCONFDIR.to_string());
    let system_file = Path::new(&dir).join("pg_service.conf");
    if fs::metadata(&system_file).is_ok()
        && let Some(lines) = read_section(&system_file, &name)?
    {
        return Ok(Some((system_file, lines)));
    }
    Err(exit::usage(format!(
        "definition of service \"{name}\" not found (looked in PGSERVICEFILE or \
         ~/.pg_service.conf, then {}). Next step: check the service name, or set \
         PGSERVICEFILE to the file that defines it",
        system_file.display()
    )))
}

/// Every service the files define, the user's file first, each once: the
/// regions of `--all-services`.
pub fn service_names() -> Result<Vec<String>> {
    let env: Env = &super::env::process_env;
    let user_file = env("PGSERVICEFILE")
        .map(PathBuf::from)
        .or_else(|| home_dir(env).map(|home| home.join(".pg_service.conf")));
    let dir = env("PGSYSCONFDIR").unwrap_or_else(|| SYSCONFDIR.to_string());
    let system_file = Path::new(&dir).join("pg_service.conf");
    let mut names: Vec<String> = Vec::new();
    for path in user_file.into_iter().chain([system_file]) {
        let Ok(text) = fs::read(&path) else {
            continue;
        };
        for line in String::from_utf8_lossy(&text).lines() {
            let line = line.trim();
            if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']'))
                && !names.iter().any(|n| n == name)
            {
                names.push(name.to_string());
            }
        }
    }
    Ok(names)
}

/// The lines of the section `[name]` of `path`; `None` when the file has
/// no such section.
fn read_section(path: &Path, name: &str) -> Result<Option<Section>> {
    let text = fs::read(path).map_err(|err| {
        exit::usage(format!(
            "service file \"{}\" could not be read: {err}",
            path.display()
        ))
    })?;
    let text = String::from_utf8_lossy(&text);
    let syntax = |line: usize| {
        exit::usage(format!(
            "syntax error in service file \"{}\", line {line}",
            path.display()
        ))
    };
    let mut found = false;
    let mut lines = Section::new();
    for (number, line) in text.split('\n').enumerate() {
        let number = number + 1;
        let line = line.trim_matches(|c: char| c.is_ascii_whitespace() || c == '\x0B');
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(group) = line.strip_prefix('[') {
            if found {
                break;
            }
            found = group.starts_with(name) && group[name.len()..].starts_with(']');
            continue;
        }
        if !found {
            continue;
        }
        if line.starts_with("ldap") {
            return Err(exit::usage(format!(
                "service file \"{}\", line {number}: LDAP service lookup is not supported by \
                 pushleft-controller; write the parameters into the service file",
                path.display()
            )));
        }
        let (key, value) = line.split_once('=').ok_or_else(|| syntax(number))?;
        if key == "service" {
            return Err(exit::usage(format!(
                "nested service specifications not supported in service file \"{}\", line \
                 {number}",
                path.display()
            )));
        }
        let keyword = keyword(key).ok_or_else(|| syntax(number))?;
        lines.push((keyword.name, value.to_string()));
    }
    Ok(found.then_some(lines))
}
