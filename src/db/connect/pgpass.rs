//! The password file (`.pgpass`), read as libpq 15 reads it, and refused
//! as libpq refuses it when others can read it.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::env::Env;
use super::env::{DEFAULT_SOCKET_DIR, home_dir};
use super::options::Options;

/// `passfile=` / `PGPASSFILE` when not empty, else `~/.pgpass`.
pub(super) fn password_file_path(options: &Options, env: Env) -> Option<PathBuf> {
    options
        .nonempty("passfile")
        .map(PathBuf::from)
        .or_else(|| home_dir(env).map(|home| home.join(".pgpass")))
}

/// The host as `.pgpass` sees it: libpq's compiled-in socket directory is
/// `localhost`; any other host, socket directory or address is itself.
pub(super) fn pgpass_host(host: &str) -> &str {
    if host.is_empty() || host == DEFAULT_SOCKET_DIR {
        "localhost"
    } else {
        host
    }
}

/// The password of the first line of the password file that matches, as
/// libpq does: `host:port:database:user:password`, a field of just `*`
/// matches anything, `\` escapes the next character, a line starting with
/// `#` is a comment, and the password ends at the first unescaped `:`.
/// `port` is the text given (empty: 5432). A missing file is no password;
/// a file that is group or world readable, or not a plain file, is
/// ignored with the warning returned as `Err`.
pub fn password_from_file(
    path: &Path,
    host: &str,
    port: &str,
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
    let Ok(bytes) = fs::read(path) else {
        return Err(format!(
            "password file \"{}\" could not be read; it is ignored",
            path.display()
        ));
    };
    let text = String::from_utf8_lossy(&bytes);
    let port = if port.is_empty() { "5432" } else { port };
    let wanted = [pgpass_host(host), port, database, user];
    for line in text.split('\n') {
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut rest = Some(line);
        for want in wanted {
            rest = rest.and_then(|r| field_matches(r, want));
        }
        if let Some(rest) = rest {
            return Ok(Some(unescape_password(rest)));
        }
    }
    Ok(None)
}

/// libpq's `pwdfMatchesString`: the rest of the line after a field that
/// matches `want`, `None` when it does not.
fn field_matches<'a>(line: &'a str, want: &str) -> Option<&'a str> {
    if let Some(rest) = line.strip_prefix("*:") {
        return Some(rest);
    }
    let bytes = line.as_bytes();
    let want = want.as_bytes();
    let (mut i, mut j) = (0, 0);
    while i < bytes.len() {
        let mut escaped = false;
        if bytes[i] == b'\\' {
            i += 1;
            escaped = true;
            if i == bytes.len() {
                return None;
            }
        }
        if bytes[i] == b':' && j == want.len() && !escaped {
            return Some(&line[i + 1..]);
        }
        if j == want.len() || bytes[i] != want[j] {
            return None;
        }
        i += 1;
        j += 1;
    }
    None
}

/// The password field: up to the first unescaped `:`, `\` escaping.
fn unescape_password(field: &str) -> String {
    let mut out = String::new();
    let mut chars = field.chars();
    while let Some(c) = chars.next() {
        match c {
            ':' => break,
            '\\' => match chars.next() {
                Some(next) => out.push(next),
                None => out.push('\\'),
            },
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
#[path = "pgpass_tests.rs"]
mod tests;
