//! libpq's environment and compiled-in defaults: the default socket
//! directory, the home directory, the operating-system user, and integer
//! parameters as libpq parses them.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;

use crate::exit;

/// An environment lookup: `None` for an unset variable. An empty value is
/// a value, as in libpq (`PGSSLMODE=` is an invalid sslmode).
pub(super) type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

/// libpq's default port.
pub(super) const DEFAULT_PORT: u16 = 5432;

/// libpq's compiled-in socket directory (`DEFAULT_PGSOCKET_DIR` of
/// Debian's and Ubuntu's builds): the host when none is given, and the
/// one directory a `.pgpass` host of `localhost` matches.
pub(super) const DEFAULT_SOCKET_DIR: &str = "/var/run/postgresql";

/// libpq's `parse_int_param`: an optionally signed decimal integer with
/// blanks around it, nothing else.
pub(super) fn parse_int(text: &str) -> Option<i64> {
    let trimmed = text.trim_matches(|c: char| c.is_ascii_whitespace() || c == '\x0B');
    let digits = trimmed.strip_prefix(['+', '-']).unwrap_or(trimmed);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    trimmed
        .parse::<i64>()
        .ok()
        .filter(|n| i32::try_from(*n).is_ok())
}

/// libpq's `connect_timeout`, per address: whole seconds, zero or less
/// for no limit ([`Duration::ZERO`]), and one counts as two.
pub(super) fn libpq_connect_timeout(text: &str, set_where: &str) -> Result<Duration> {
    let seconds = parse_int(text).ok_or_else(|| {
        exit::usage(format!(
            "connect_timeout {text:?} ({set_where}) is not a whole number of seconds"
        ))
    })?;
    Ok(match seconds {
        i64::MIN..=0 => Duration::ZERO,
        1 => Duration::from_secs(2),
        n => Duration::from_secs(n as u64),
    })
}

/// The environment of this process, as [`Settings::resolve`](super::Settings::resolve)
/// takes it.
pub(super) fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// `$HOME` when set and not empty, else the home directory of the
/// effective user (libpq's `pqGetHomeDirectory`).
pub(super) fn home_dir(env: Env) -> Option<PathBuf> {
    env("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            nix::unistd::User::from_uid(nix::unistd::geteuid())
                .ok()
                .flatten()
                .map(|u| u.dir)
        })
}

/// The operating-system user, as libpq defaults PGUSER to it.
pub fn os_user() -> String {
    nix::unistd::User::from_uid(nix::unistd::geteuid())
        .ok()
        .flatten()
        .map(|u| u.name)
        .or_else(|| std::env::var("USER").ok())
        .unwrap_or_else(|| "unknown".to_string())
}

#[cfg(test)]
#[path = "env_tests.rs"]
mod tests;
