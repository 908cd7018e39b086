//! The libpq environment and defaults: `PG*` variables as libpq reads
//! them, the default host (the local socket directory), the home
//! directory and the operating-system user.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;

use crate::exit;

/// libpq's default port.
pub(super) const DEFAULT_PORT: u16 = 5432;

/// Socket directories libpq builds may default to; the first that exists is
/// the default host, and a `.pgpass` host of `localhost` matches them.
pub(super) const DEFAULT_SOCKET_DIRS: [&str; 3] =
    ["/var/run/postgresql", "/run/postgresql", "/tmp"];

/// libpq's `connect_timeout`: whole seconds, 0 for no limit, and less than
/// two counts as two.
pub(super) fn libpq_connect_timeout(text: &str) -> Result<Duration> {
    let seconds: u64 = text.trim().parse().map_err(|_| {
        exit::usage(format!(
            "connect_timeout {text:?} (URL or PGCONNECT_TIMEOUT) is not a whole number of seconds"
        ))
    })?;
    Ok(match seconds {
        0 => Duration::ZERO,
        1 => Duration::from_secs(2),
        n => Duration::from_secs(n),
    })
}

/// The environment of this process, as [`Settings::resolve`](super::Settings::resolve)
/// takes it.
pub(super) fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// libpq's default host: the local socket directory when there is one.
pub(super) fn default_host() -> String {
    DEFAULT_SOCKET_DIRS
        .iter()
        .find(|dir| Path::new(dir).is_dir() && *dir != &"/tmp")
        .map(|dir| dir.to_string())
        .or_else(|| {
            Path::new("/tmp/.s.PGSQL.5432")
                .exists()
                .then(|| "/tmp".to_string())
        })
        .unwrap_or_else(|| "localhost".to_string())
}

/// `$HOME`, else the home directory of the effective user.
pub(super) fn home_dir(env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    env("HOME").map(PathBuf::from).or_else(|| {
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
