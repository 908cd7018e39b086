//! Connection settings and session safety.
//!
//! Precedence: `--database-url`, then `DATABASE_URL` (clap reads both into
//! one value), then the libpq environment (`PGHOST`, `PGPORT`, ...). Every
//! session gets our `application_name` and the timeouts, so a forgotten
//! terminal never holds a lock for long.

use std::time::Duration;

use anyhow::{Context, Result};
use postgres::{Client, Config, NoTls};

use crate::cli::GlobalArgs;
use crate::exit;

/// `pushleft-controller/<version>`: what `pg_stat_activity` shows.
pub const APPLICATION_NAME: &str = concat!("pushleft-controller/", env!("CARGO_PKG_VERSION"));

/// How long a transaction of ours may sit idle before the server ends it.
const IDLE_IN_TRANSACTION_TIMEOUT: Duration = Duration::from_secs(60);

/// Everything needed to open a session, resolved once.
#[derive(Clone)]
pub struct Settings {
    config: Config,
    statement_timeout: Duration,
}

impl std::fmt::Debug for Settings {
    // The derived Debug would print the password.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Settings")
            .field("target", &self.describe())
            .finish()
    }
}

impl Settings {
    pub fn from_args(global: &GlobalArgs) -> Result<Settings> {
        let mut config = match &global.database_url {
            Some(url) => parse_url(url)?,
            None => from_libpq_env(),
        };
        config.application_name(APPLICATION_NAME);
        config.connect_timeout(global.connect_timeout);
        Ok(Settings {
            config,
            statement_timeout: global.statement_timeout,
        })
    }

    /// host:port/database as user — never the password.
    pub fn describe(&self) -> String {
        let host = self
            .config
            .get_hosts()
            .iter()
            .map(|h| match h {
                postgres::config::Host::Tcp(name) => name.clone(),
                postgres::config::Host::Unix(path) => path.display().to_string(),
            })
            .collect::<Vec<_>>()
            .join(",");
        let port = self.config.get_ports().first().copied().unwrap_or(5432);
        format!(
            "{host}:{port}/{} as {}",
            self.config.get_dbname().unwrap_or("?"),
            self.config.get_user().unwrap_or("?")
        )
    }

    /// Opens a session with the session settings of SPEC.md "Connecting".
    /// `lock_timeout` is the one a command wants for its row locks.
    pub fn connect(&self, lock_timeout: Duration) -> Result<Client> {
        let mut config = self.config.clone();
        config.options(&format!(
            "-c statement_timeout={} -c lock_timeout={} -c idle_in_transaction_session_timeout={}",
            self.statement_timeout.as_millis(),
            lock_timeout.as_millis(),
            IDLE_IN_TRANSACTION_TIMEOUT.as_millis()
        ));
        config
            .connect(NoTls)
            .with_context(|| format!("could not connect to {}", self.describe()))
    }
}

fn parse_url(url: &str) -> Result<Config> {
    // The parser's own message could echo part of the text, which may hold a
    // password: say what is wrong without repeating it.
    url.parse::<Config>().map_err(|_| {
        exit::usage(
            "the database URL (--database-url or DATABASE_URL) is malformed; expected \
             postgresql://user@host:port/dbname or key=value pairs such as \
             \"host=db1 dbname=control\"",
        )
    })
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// The libpq environment variables operators already have set up.
fn from_libpq_env() -> Config {
    let mut config = Config::new();
    let hosts = env("PGHOST").unwrap_or_else(|| {
        if std::path::Path::new("/var/run/postgresql").is_dir() {
            "/var/run/postgresql".to_string()
        } else {
            "localhost".to_string()
        }
    });
    for host in hosts.split(',') {
        if host.starts_with('/') {
            config.host_path(host);
        } else {
            config.host(host);
        }
    }
    if let Some(port) = env("PGPORT").and_then(|p| p.parse::<u16>().ok()) {
        config.port(port);
    }
    let user = env("PGUSER").unwrap_or_else(os_user);
    config.dbname(&env("PGDATABASE").unwrap_or_else(|| user.clone()));
    config.user(&user);
    if let Some(password) = env("PGPASSWORD") {
        config.password(password);
    }
    config
}

/// The operating-system user, as libpq defaults PGUSER to it.
pub fn os_user() -> String {
    nix::unistd::User::from_uid(nix::unistd::geteuid())
        .ok()
        .flatten()
        .map(|u| u.name)
        .or_else(|| env("USER"))
        .unwrap_or_else(|| "unknown".to_string())
}
