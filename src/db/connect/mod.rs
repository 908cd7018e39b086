//! Connection settings, TLS and session safety: everything about reaching
//! the database lives here.
//!
//! # Where each setting comes from (first wins), as libpq does it
//!
//! 1. `--database-url URL` on the command line;
//! 2. else `DATABASE_URL` (clap merges 1 and 2 into one value);
//! 3. for every parameter the URL does not set: the libpq variable
//!    (`PGHOST`, `PGPORT`, `PGUSER`, `PGDATABASE`, `PGPASSWORD`,
//!    `PGSSLMODE`, `PGSSLROOTCERT`, `PGCONNECT_TIMEOUT`, `PGPASSFILE`);
//! 4. for the password only: the first matching line of the password file
//!    (`passfile=`, `PGPASSFILE`, else `~/.pgpass`), ignored with a warning
//!    when it is group or world readable;
//! 5. libpq's defaults: the local socket directory, port 5432, the
//!    operating-system user, a database named like the user, `sslmode=prefer`.
//!
//! `application_name` is always `pushleft-controller/<version>` (`PGAPPNAME`
//! and `application_name=` are ignored) so `pg_stat_activity` shows who is
//! holding a lock. The connect timeout is `--connect-timeout` /
//! `PUSHLEFT_CONNECT_TIMEOUT`, else `connect_timeout=`, else
//! `PGCONNECT_TIMEOUT`, else 10 s, and it bounds the whole connection
//! (TCP, TLS and authentication), not only the TCP handshake.
//!
//! # TLS
//!
//! rustls (pure Rust, no OpenSSL to install or patch on a jump host) with
//! libpq's modes: `disable` (never), `allow`/`prefer` (when the server
//! offers it, unverified), `require` (always, unverified), `verify-ca`
//! (always, the chain must lead to a trusted root), `verify-full` (and the
//! certificate must name the host). Trusted roots: `sslrootcert=` /
//! `PGSSLROOTCERT` (a PEM file, or `system`), else `~/.postgresql/root.crt`
//! when it exists, else the system's roots. Unix sockets never use TLS.
//!
//! # Secrets
//!
//! The password never leaves this module: [`Settings`] has no Debug that
//! shows it, [`Settings::describe`] and [`Target`] leave it out, malformed
//! input is never echoed, and every connection error is rewritten into a
//! sentence of ours and scrubbed of the password before it is returned.
//!
//! # Layout
//!
//! This module sits below the CLI and the user interface: it takes plain
//! [`ConnectOptions`] and prints nothing (warnings are returned by
//! [`Settings::warnings`] for the caller to show).
//!
//! - `mod.rs`: the types, [`Settings`] and its accessors;
//! - `resolve.rs`: [`Settings::resolve`], one named step per parameter;
//! - `conninfo.rs`: URL and `key=value` parsing, [`primary_from_conninfo`];
//! - `env.rs`: the `PG*` environment, libpq's defaults, [`os_user`];
//! - `pgpass.rs`: the password file ([`password_from_file`]);
//! - `tls.rs`: [`SslMode`], [`RootCerts`], the rustls configuration and
//!   verifier;
//! - `session.rs`: session options and [`Settings::connect`];
//! - `explain.rs`: connection errors as sentences, and redaction.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use postgres::Config;
use postgres::config::Host;
use serde::Serialize;

mod conninfo;
mod env;
mod explain;
mod pgpass;
mod resolve;
mod session;
#[cfg(test)]
mod test_support;
mod tls;

pub use conninfo::primary_from_conninfo;
pub use env::os_user;
use env::{DEFAULT_PORT, process_env};
pub use pgpass::password_from_file;
pub use tls::{RootCerts, SslMode};

/// `pushleft-controller/<version>`: what `pg_stat_activity` shows.
pub const APPLICATION_NAME: &str = concat!("pushleft-controller/", env!("CARGO_PKG_VERSION"));

/// The lock timeout of commands that do not take row locks on purpose.
pub const DEFAULT_LOCK_TIMEOUT: Duration = Duration::from_secs(5);

/// How long to wait for a connection when nothing says otherwise.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Where the password came from (never the password itself).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PasswordSource {
    /// No password: the server must not ask for one (trust, peer, cert).
    None,
    /// In the database URL.
    Url,
    /// `PGPASSWORD`.
    Environment,
    /// A line of this password file.
    PasswordFile(PathBuf),
}

impl fmt::Display for PasswordSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PasswordSource::None => f.write_str("no password"),
            PasswordSource::Url => f.write_str("the password in the database URL"),
            PasswordSource::Environment => f.write_str("PGPASSWORD"),
            PasswordSource::PasswordFile(path) => {
                write!(f, "the password file {}", path.display())
            }
        }
    }
}

/// Where a connection goes, without the password: for `doctor` and
/// messages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Target {
    /// Host names, addresses or socket directories, comma-separated.
    pub host: String,
    pub port: u16,
    pub database: String,
    pub user: String,
}

/// What connecting needs from the command line, as plain data: the
/// connect module sits below the CLI and must not know its types.
///
/// No `Debug`: `database_url` may hold a password.
#[derive(Clone)]
pub struct ConnectOptions {
    /// `--database-url` / `DATABASE_URL`: a URL or `key=value` text.
    pub database_url: Option<String>,
    pub statement_timeout: Duration,
    /// `None`: `connect_timeout=`, `PGCONNECT_TIMEOUT` or the default.
    pub connect_timeout: Option<Duration>,
    pub idle_in_transaction_timeout: Duration,
}

/// The session settings every connection gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    pub statement: Duration,
    pub idle_in_transaction: Duration,
    /// `None`: `connect_timeout=`, `PGCONNECT_TIMEOUT` or the default.
    pub connect: Option<Duration>,
}

/// Everything needed to open a session, resolved once.
#[derive(Clone)]
pub struct Settings {
    /// Holds the password; never printed.
    config: Config,
    ssl_mode: SslMode,
    root_certs: RootCerts,
    statement_timeout: Duration,
    idle_in_transaction_timeout: Duration,
    connect_timeout: Duration,
    password_source: PasswordSource,
    warnings: Vec<String>,
    /// Texts scrubbed from every message (the password, as given and as
    /// percent-encoded).
    secrets: Vec<String>,
}

impl fmt::Debug for Settings {
    // A derived Debug would print the password.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Settings")
            .field("target", &self.describe())
            .field("sslmode", &self.ssl_mode)
            .field("password", &self.password_source)
            .finish()
    }
}

impl Settings {
    /// The settings of this process: `options`, the libpq environment and
    /// the password file. Nothing is printed here: warnings (an unsafe
    /// password file) are kept in [`Settings::warnings`] for the caller to
    /// show, so this module stays below the user interface.
    pub fn from_options(options: &ConnectOptions) -> Result<Settings> {
        let timeouts = Timeouts {
            statement: options.statement_timeout,
            idle_in_transaction: options.idle_in_transaction_timeout,
            connect: options.connect_timeout,
        };
        Settings::resolve(options.database_url.as_deref(), &process_env, timeouts)
    }

    /// host:port/database as user — never the password.
    pub fn describe(&self) -> String {
        let target = self.target();
        self.redact(&format!(
            "{}:{}/{} as {}",
            target.host, target.port, target.database, target.user
        ))
    }

    /// Host, port, database and user (never the password).
    pub fn target(&self) -> Target {
        let mut target = target_of(&self.config);
        target.host = self.redact(&target.host);
        target.database = self.redact(&target.database);
        target.user = self.redact(&target.user);
        target
    }

    pub fn ssl_mode(&self) -> SslMode {
        self.ssl_mode
    }

    /// The trusted roots `verify-ca` and `verify-full` check against.
    pub fn root_certs(&self) -> &RootCerts {
        &self.root_certs
    }

    pub fn password_source(&self) -> &PasswordSource {
        &self.password_source
    }

    /// Things the operator should know, e.g. an ignored password file.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    pub fn statement_timeout(&self) -> Duration {
        self.statement_timeout
    }

    pub fn idle_in_transaction_timeout(&self) -> Duration {
        self.idle_in_transaction_timeout
    }

    pub fn connect_timeout(&self) -> Duration {
        self.connect_timeout
    }

    /// Whether every host is a unix socket directory (TLS never applies).
    pub fn is_unix_socket(&self) -> bool {
        let hosts = self.config.get_hosts();
        !hosts.is_empty() && hosts.iter().all(|h| matches!(h, Host::Unix(_)))
    }
}

fn target_of(config: &Config) -> Target {
    let host = config
        .get_hosts()
        .iter()
        .map(|h| match h {
            Host::Tcp(name) => name.clone(),
            Host::Unix(path) => path.display().to_string(),
        })
        .collect::<Vec<_>>()
        .join(",");
    Target {
        host,
        port: config.get_ports().first().copied().unwrap_or(DEFAULT_PORT),
        database: config.get_dbname().unwrap_or_default().to_string(),
        user: config.get_user().unwrap_or_default().to_string(),
    }
}
