//! The password file (`.pgpass`), read as libpq reads it, and refused as
//! libpq refuses it when others can read it.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use postgres::config::Host;

use super::env::{DEFAULT_SOCKET_DIRS, home_dir};

/// `PGPASSFILE`, else `~/.pgpass` (the URL's `passfile=` is checked first,
/// by the caller).
pub(super) fn password_file_path(env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    env("PGPASSFILE")
        .map(PathBuf::from)
        .or_else(|| home_dir(env).map(|home| home.join(".pgpass")))
}

/// The host as `.pgpass` sees it: a socket in a default directory is
/// `localhost`, any other socket directory is its path.
pub(super) fn pgpass_host(host: &Host) -> String {
    match host {
        Host::Tcp(name) => name.clone(),
        Host::Unix(path) => {
            if DEFAULT_SOCKET_DIRS.iter().any(|d| Path::new(d) == path) {
                "localhost".to_string()
            } else {
                path.display().to_string()
            }
        }
    }
}

/// The password of the first line of the password file that matches, as
/// libpq does: `host:port:database:user:password`, `*` matches anything,
/// `\` escapes `:` and `\`, lines starting with `#` are comments. A missing
/// file is no password; a file that is group or world readable, or not a
/// plain file, is ignored with the warning returned as `Err`.
pub fn password_from_file(
    path: &Path,
    host: &str,
    port: u16,
    database: &str,
    user: &str,
) -> std::result::Result<Option<String>, String> {
    let Ok(meta) = fs::metadata(path) else {
        return Ok(None);
    };
    if !meta.is_file() {
        return Err(format!(
            "password file \"{}\" is not a plain file; it is ignored",
            path.display()
        ));
    }
    if meta.permissions().mode() & 0o077 != 0 {
        return Err(format!(
            "password file \"{}\" has group or world access; permissions should be u=rw \
             (0600) or less; it is ignored (fix: chmod 600 {})",
            path.display(),
            path.display()
        ));
    }
    let Ok(text) = fs::read_to_string(path) else {
        return Err(format!(
            "password file \"{}\" could not be read; it is ignored",
            path.display()
        ));
    };
    let port = port.to_string();
    let wanted = [host, port.as_str(), database, user];
    for line in text.lines() {
        let line = line.trim_end_matches('\r');
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields = split_pgpass_line(line);
        if fields.len() < 5 {
            continue;
        }
        if fields
            .iter()
            .zip(wanted)
            .all(|(field, want)| field == "*" || field == want)
        {
            return Ok(Some(fields[4].clone()));
        }
    }
    Ok(None)
}

/// The fields of a `.pgpass` line; the fifth is the rest of the line.
fn split_pgpass_line(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        let field = fields.len() - 1;
        match c {
            '\\' => {
                if let Some(next) = chars.next() {
                    fields[field].push(next);
                }
            }
            ':' if field < 4 => fields.push(String::new()),
            c => fields[field].push(c),
        }
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::connect::PasswordSource;
    use crate::db::connect::test_support::resolve;

    fn pgpass(content: &str, mode: u32) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pgpass");
        fs::write(&path, content).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(mode)).unwrap();
        dir
    }

    #[test]
    fn pgpass_matches_like_libpq() {
        let dir = pgpass(
            "# comment\n\
             db1:5432:control:alice:first\n\
             db1:*:*:alice:second\n\
             we\\:ird:5432:*:*:pass\\:with\\\\colon:and more\n\
             *:*:*:*:fallback\n",
            0o600,
        );
        let path = dir.path().join("pgpass");
        let get = |h: &str, p: u16, d: &str, u: &str| password_from_file(&path, h, p, d, u);
        assert_eq!(
            get("db1", 5432, "control", "alice"),
            Ok(Some("first".into()))
        );
        assert_eq!(
            get("db1", 6432, "control", "alice"),
            Ok(Some("second".into()))
        );
        assert_eq!(
            get("we:ird", 5432, "x", "y"),
            Ok(Some("pass:with\\colon:and more".into()))
        );
        assert_eq!(
            get("db2", 5432, "control", "bob"),
            Ok(Some("fallback".into()))
        );
        let missing = dir.path().join("nope");
        assert_eq!(password_from_file(&missing, "h", 1, "d", "u"), Ok(None));
    }

    #[test]
    fn pgpass_is_ignored_when_others_can_read_it() {
        for mode in [0o640, 0o604, 0o660] {
            let dir = pgpass("*:*:*:*:secret\n", mode);
            let warning =
                password_from_file(&dir.path().join("pgpass"), "h", 5432, "d", "u").unwrap_err();
            assert!(warning.contains("group or world access"), "{warning}");
        }
    }

    #[test]
    fn pgpass_is_used_only_without_another_password() {
        let dir = pgpass("db1:5432:control:alice:from-file\n", 0o600);
        let file = dir.path().join("pgpass");
        let file = file.to_str().unwrap();
        let s = resolve(
            Some("host=db1 dbname=control user=alice"),
            &[("PGPASSFILE", file)],
        )
        .unwrap();
        assert_eq!(s.config.get_password(), Some(&b"from-file"[..]));
        assert!(matches!(
            s.password_source(),
            PasswordSource::PasswordFile(_)
        ));
        let s = resolve(
            Some("host=db1 dbname=control user=alice"),
            &[("PGPASSFILE", file), ("PGPASSWORD", "from-env")],
        )
        .unwrap();
        assert_eq!(s.config.get_password(), Some(&b"from-env"[..]));
        // A socket in a default directory is `localhost` to .pgpass.
        assert_eq!(
            pgpass_host(&Host::Unix("/var/run/postgresql".into())),
            "localhost"
        );
        assert_eq!(pgpass_host(&Host::Unix("/srv/pg".into())), "/srv/pg");
    }
}
