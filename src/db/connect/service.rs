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
use super::env::home_dir;
use super::options::{Env, Options, Origin};
use crate::exit;

/// libpq's compiled-in `SYSCONFDIR` (Debian's and Ubuntu's builds).
pub(super) const SYSCONFDIR: &str = "/etc/postgresql-common";

/// Fills `options` from the service's section; a named service that no
/// file defines is an error, as in libpq.
pub(super) fn apply(options: &mut Options, env: Env) -> Result<()> {
    let name = match options.get("service") {
        Some(name) => name.to_string(),
        None => match env("PGSERVICE") {
            Some(name) => name,
            None => return Ok(()),
        },
    };
    let user_file = env("PGSERVICEFILE")
        .map(PathBuf::from)
        .or_else(|| home_dir(env).map(|home| home.join(".pg_service.conf")));
    if let Some(path) = user_file
        && fs::metadata(&path).is_ok()
        && read_section(&path, &name, options)?
    {
        return Ok(());
    }
    let dir = env("PGSYSCONFDIR").unwrap_or_else(|| SYSCONFDIR.to_string());
    let system_file = Path::new(&dir).join("pg_service.conf");
    if fs::metadata(&system_file).is_ok() && read_section(&system_file, &name, options)? {
        return Ok(());
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

/// Applies the section `[name]` of `path`; whether the file has it.
fn read_section(path: &Path, name: &str, options: &mut Options) -> Result<bool> {
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
        options.set_if_unset(
            keyword.name,
            value.to_string(),
            Origin::Service(path.to_path_buf()),
        );
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn collect(
        files: &[(&str, &str)],
        vars: &[(&str, &str)],
        url: Option<&str>,
    ) -> Result<Options> {
        let dir = tempfile::tempdir().unwrap();
        let mut map: HashMap<String, String> = HashMap::new();
        map.insert("HOME".into(), dir.path().display().to_string());
        map.insert(
            "PGSYSCONFDIR".into(),
            dir.path().join("etc").display().to_string(),
        );
        fs::create_dir(dir.path().join("etc")).unwrap();
        for (name, text) in files {
            fs::write(dir.path().join(name), text).unwrap();
        }
        for (k, v) in vars {
            map.insert(k.to_string(), v.to_string());
        }
        Options::collect(url, None, &move |k| map.get(k).cloned())
    }

    #[test]
    fn the_users_file_first_then_the_system_one_and_the_url_wins() {
        let user = "[a]\nhost=from-user\nport=1\n[b]\nhost=b\n";
        let system = "[a]\nhost=from-system\n[c]\n  dbname=c  \n";
        let files = [(".pg_service.conf", user), ("etc/pg_service.conf", system)];
        let o = collect(
            &files,
            &[("PGSERVICE", "a"), ("PGHOST", "env")],
            Some("port=2"),
        )
        .unwrap();
        assert_eq!(o.get("host"), Some("from-user"));
        assert_eq!(o.get("port"), Some("2"));
        let o = collect(&files, &[], Some("service=c")).unwrap();
        assert_eq!(o.get("dbname"), Some("c"));
        let err = collect(&files, &[], Some("service=zz")).unwrap_err();
        assert!(err.to_string().contains("\"zz\" not found"), "{err}");
    }

    #[test]
    fn syntax_errors_and_nested_services_are_refused() {
        for text in [
            "[a]\nhost\n",
            "[a]\nservice=b\n",
            "[a]\nhost = x\n",
            "[a]\nldap://x\n",
        ] {
            let files = [(".pg_service.conf", text)];
            assert!(
                collect(&files, &[("PGSERVICE", "a")], None).is_err(),
                "{text}"
            );
        }
    }
}
