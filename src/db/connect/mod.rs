//! Connection settings, TLS and session safety: everything about reaching
//! the database lives here. The rule (README, "Connecting"): given the same
//! environment and connection string, land where psql (libpq 15) lands —
//! or refuse with exit 2 naming the parameter we do not support.
//!
//! # Where each parameter comes from (first wins), as libpq does it
//!
//! 1. `--database-url` / `DATABASE_URL` (clap merges them): a URL,
//!    `key=value` pairs, or a bare database name, as psql reads its
//!    database argument;
//! 2. the section of the service (`service=`, else `PGSERVICE`) in
//!    `PGSERVICEFILE` or `~/.pg_service.conf`, else in
//!    `PGSYSCONFDIR/pg_service.conf`;
//! 3. the `PG*` variable (an empty one is an empty value, as in libpq);
//! 4. libpq's compiled-in default (socket directory
//!    `/var/run/postgresql`, port 5432, the operating-system user, a
//!    database named like the user, `sslmode=prefer`);
//! 5. for the password only, per host: the first matching line of the
//!    password file (`passfile`, `PGPASSFILE`, else `~/.pgpass`), ignored
//!    with a warning when group or world readable.
//!
//! `application_name` is always `pushleft-controller/<version>`
//! (`PGAPPNAME` and `application_name=` are overridden) so
//! `pg_stat_activity` shows who is holding a lock. The connect timeout is
//! `--connect-timeout` / `PUSHLEFT_CONNECT_TIMEOUT`, else
//! `connect_timeout`, else 10 s; it bounds each address's whole attempt
//! (TCP, TLS and authentication), as libpq's does.
//!
//! # Secrets
//!
//! The password never leaves this module: [`Settings`] has no Debug that
//! shows it, [`Settings::describe`], [`Target`] and [`Reached`] are built
//! from fields that cannot hold it, malformed input is never echoed, and
//! text that comes from elsewhere (the server, the crates) is scrubbed of
//! it before it is returned.
//!
//! # Layout
//!
//! This module sits below the CLI and the user interface: it takes plain
//! [`ConnectOptions`] and prints nothing (warnings are returned by
//! [`Settings::warnings`] for the caller to show).
//!
//! - `mod.rs`: the types, [`Settings`] and its accessors;
//! - `conninfo.rs`: URL and `key=value` parsing, libpq's keywords,
//!   [`primary_from_conninfo`];
//! - `options.rs`, `service.rs`, `env.rs`: the parameters from the string,
//!   the service file, the environment and the defaults;
//! - `hosts.rs`, `pgpass.rs`: the host list and each host's password;
//! - `params.rs`: [`Settings::resolve`], one named step per parameter;
//! - `tls.rs`, `verify.rs`: [`SslMode`], [`RootCerts`], the rustls
//!   configuration and libpq's certificate check;
//! - `open.rs` (each host and address in order), `dial.rs` (one attempt
//!   at one address): [`Settings::connect`]: hosts, addresses, TLS
//!   fall-backs, `target_session_attrs`;
//! - `error_text.rs`: connection errors as sentences, and redaction.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use serde::Serialize;

mod conninfo;
mod dial;
mod env;
mod error_text;
mod hosts;
mod open;
mod options;
mod params;
mod pgpass;
mod service;
#[cfg(test)]
mod test_support;
mod tls;
mod verify;

pub use crate::model::connection::{APPLICATION_NAME, Reached, Target, Transport};
pub use conninfo::primary_from_conninfo;
pub use env::os_user;
use env::process_env;
use hosts::{HostSpec, Kind};
pub use pgpass::password_from_file;
pub use service::service_names;
use tls::TlsOptions;
pub use tls::{RootCerts, SslMode};
pub use verify::Verified;

/// The lock timeout of commands that do not take row locks on purpose.
pub const DEFAULT_LOCK_TIMEOUT: Duration = Duration::from_secs(5);

/// How long to wait for each address when nothing says otherwise.
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
    /// The service's section of this service file.
    ServiceFile(PathBuf),
    /// A line of this password file.
    PasswordFile(PathBuf),
}

impl fmt::Display for PasswordSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PasswordSource::None => f.write_str("no password"),
            PasswordSource::Url => f.write_str("the password in the database URL"),
            PasswordSource::Environment => f.write_str("PGPASSWORD"),
            PasswordSource::ServiceFile(path) => {
                write!(f, "the service file {}", path.display())
            }
            PasswordSource::PasswordFile(path) => {
                write!(f, "the password file {}", path.display())
            }
        }
    }
}

/// libpq's `target_session_attrs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SessionAttrs {
    Any,
    ReadWrite,
    ReadOnly,
    Primary,
    Standby,
    PreferStandby,
}

/// What connecting needs from the command line, as plain data: the
/// connect module sits below the CLI and must not know its types.
///
/// No `Debug`: `database_url` may hold a password.
#[derive(Clone)]
pub struct ConnectOptions {
    /// `--database-url` / `DATABASE_URL`: a URL or `key=value` text.
    pub database_url: Option<String>,
    /// `--service`: a section of the connection service file.
    pub service: Option<String>,
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

/// TCP keepalive settings passed on to the socket.
#[derive(Debug, Clone, Default)]
struct Keepalives {
    off: bool,
    idle: Option<Duration>,
    interval: Option<Duration>,
    count: Option<u32>,
    tcp_user_timeout: Option<Duration>,
}

/// Everything needed to open a session, resolved once.
#[derive(Clone)]
pub struct Settings {
    /// The hosts in order, each with its password; never printed.
    hosts: Vec<HostSpec>,
    user: String,
    dbname: String,
    /// `options` / `PGOPTIONS`: the operator's own `-c` settings.
    options: Option<String>,
    ssl_mode: SslMode,
    tls: TlsOptions,
    channel_binding: postgres::config::ChannelBinding,
    keepalives: Keepalives,
    session_attrs: SessionAttrs,
    statement_timeout: Duration,
    idle_in_transaction_timeout: Duration,
    /// Per address; zero: no limit.
    connect_timeout: Duration,
    warnings: Vec<String>,
    /// Texts scrubbed from text that comes from elsewhere.
    secrets: Vec<String>,
}

impl fmt::Debug for Settings {
    // A derived Debug would print the password.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Settings")
            .field("target", &self.describe())
            .field("sslmode", &self.ssl_mode)
            .field("password", &self.password_source())
            .finish()
    }
}

impl Settings {
    /// The settings of this process: `options`, the libpq environment,
    /// service and password files. Nothing is printed here: warnings (an
    /// unsafe password file) are kept in [`Settings::warnings`] for the
    /// caller to show, so this module stays below the user interface.
    pub fn from_options(options: &ConnectOptions) -> Result<Settings> {
        let timeouts = Timeouts {
            statement: options.statement_timeout,
            idle_in_transaction: options.idle_in_transaction_timeout,
            connect: options.connect_timeout,
        };
        Settings::resolve_with_service(
            options.database_url.as_deref(),
            options.service.as_deref(),
            &process_env,
            timeouts,
        )
    }

    /// `host:port/database as user` (each host with its port) — never the
    /// password.
    pub fn describe(&self) -> String {
        let hosts: Vec<String> = self
            .hosts
            .iter()
            .map(|h| {
                let port = h
                    .port()
                    .map(|p| p.to_string())
                    .unwrap_or_else(|_| "?".into());
                format!("{}:{port}", self.mask(&h.label()))
            })
            .collect();
        format!(
            "{}/{} as {}",
            hosts.join(","),
            self.mask(&self.dbname),
            self.mask(&self.user)
        )
    }

    /// Host, port, database and user (never the password).
    pub fn target(&self) -> Target {
        Target {
            host: self
                .hosts
                .iter()
                .map(|h| self.mask(&h.label()))
                .collect::<Vec<_>>()
                .join(","),
            port: self
                .hosts
                .first()
                .and_then(|h| h.port().ok())
                .unwrap_or(env::DEFAULT_PORT),
            database: self.mask(&self.dbname),
            user: self.mask(&self.user),
        }
    }

    pub fn ssl_mode(&self) -> SslMode {
        self.ssl_mode
    }

    /// The trusted roots the server's certificate is checked against.
    pub fn root_certs(&self) -> &RootCerts {
        &self.tls.roots
    }

    /// `target_session_attrs`.
    pub fn session_attrs(&self) -> SessionAttrs {
        self.session_attrs
    }

    /// Where the first host's password comes from.
    pub fn password_source(&self) -> PasswordSource {
        self.hosts
            .first()
            .and_then(|h| h.password.as_ref())
            .map(|(_, source)| source.clone())
            .unwrap_or(PasswordSource::None)
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

    /// Per address; zero means no limit.
    pub fn connect_timeout(&self) -> Duration {
        self.connect_timeout
    }

    /// Whether every host is a unix socket directory (TLS never applies).
    pub fn is_unix_socket(&self) -> bool {
        self.hosts.iter().all(|h| h.kind == Kind::Socket)
    }
}
