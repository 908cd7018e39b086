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

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};
use postgres::config::Host;
use postgres::{Client, Config};
use serde::Serialize;

use crate::exit;

mod conninfo;
mod env;
mod pgpass;
#[cfg(test)]
mod test_support;
mod tls;

pub use conninfo::primary_from_conninfo;
use conninfo::{Ours, parse_connection_string, percent_encode};
pub use env::os_user;
use env::{DEFAULT_PORT, default_host, home_dir, libpq_connect_timeout, process_env};
pub use pgpass::password_from_file;
use pgpass::{password_file_path, pgpass_host};
use tls::tls_config;
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

    /// The settings from a URL (or `key=value` text) and an environment
    /// lookup; [`Settings::from_options`] with everything passed in.
    pub fn resolve(
        url: Option<&str>,
        env: &dyn Fn(&str) -> Option<String>,
        timeouts: Timeouts,
    ) -> Result<Settings> {
        let env = |name: &str| env(name).filter(|v| !v.is_empty());
        let (mut config, ours) = match url {
            Some(text) => parse_connection_string(text)?,
            None => (Config::new(), Ours::default()),
        };
        let mut secrets = Vec::new();
        let mut password_source = PasswordSource::None;
        if let Some(password) = config.get_password() {
            secrets.push(String::from_utf8_lossy(password).into_owned());
            password_source = PasswordSource::Url;
        }

        if config.get_hosts().is_empty() {
            let hosts = env("PGHOST").unwrap_or_else(default_host);
            for host in hosts.split(',').map(str::trim).filter(|h| !h.is_empty()) {
                if host.starts_with('/') {
                    config.host_path(host);
                } else {
                    config.host(host);
                }
            }
        }
        if config.get_ports().is_empty()
            && let Some(text) = env("PGPORT")
        {
            for port in text.split(',') {
                let port = port.trim().parse::<u16>().map_err(|_| {
                    exit::usage(format!(
                        "PGPORT={text} is not a port number (or a comma-separated list of them)"
                    ))
                })?;
                config.port(port);
            }
        }
        let user = match config.get_user() {
            Some(user) => user.to_string(),
            None => env("PGUSER").unwrap_or_else(os_user),
        };
        config.user(&user);
        if config.get_dbname().is_none() {
            config.dbname(env("PGDATABASE").as_deref().unwrap_or(&user));
        }

        let mut warnings = Vec::new();
        if config.get_password().is_none() {
            if let Some(password) = env("PGPASSWORD") {
                secrets.push(password.clone());
                config.password(password);
                password_source = PasswordSource::Environment;
            } else if let Some(path) = ours.passfile.clone().or_else(|| password_file_path(&env)) {
                let target = target_of(&config);
                let host = config
                    .get_hosts()
                    .first()
                    .map(pgpass_host)
                    .unwrap_or_default();
                match password_from_file(&path, &host, target.port, &target.database, &user) {
                    Ok(Some(password)) => {
                        secrets.push(password.clone());
                        config.password(password);
                        password_source = PasswordSource::PasswordFile(path);
                    }
                    Ok(None) => {}
                    Err(warning) => warnings.push(warning),
                }
            }
        }

        let ssl_mode = match ours.sslmode.clone().or_else(|| env("PGSSLMODE")) {
            Some(text) => SslMode::parse(&text).ok_or_else(|| {
                exit::usage(format!(
                    "sslmode {text:?} is not one of disable, allow, prefer, require, verify-ca, \
                     verify-full (set in the database URL or PGSSLMODE)"
                ))
            })?,
            None => SslMode::Prefer,
        };
        let root_certs = match ours.sslrootcert.clone().or_else(|| env("PGSSLROOTCERT")) {
            Some(text) if text == "system" => RootCerts::System,
            Some(text) => RootCerts::File(PathBuf::from(text)),
            None => match home_dir(&env).map(|h| h.join(".postgresql/root.crt")) {
                Some(path) if path.is_file() => RootCerts::File(path),
                _ => RootCerts::System,
            },
        };

        let connect_timeout = match timeouts.connect {
            Some(timeout) => timeout,
            None => match ours
                .connect_timeout
                .clone()
                .or_else(|| env("PGCONNECT_TIMEOUT"))
            {
                Some(text) => libpq_connect_timeout(&text)?,
                None => DEFAULT_CONNECT_TIMEOUT,
            },
        };

        // Percent-encoded, a password could reach a message in that form.
        let encoded: Vec<String> = secrets.iter().map(|s| percent_encode(s)).collect();
        secrets.extend(encoded);
        secrets.retain(|s| !s.is_empty());
        secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
        secrets.dedup();

        config.application_name(APPLICATION_NAME);
        Ok(Settings {
            config,
            ssl_mode,
            root_certs,
            statement_timeout: timeouts.statement,
            idle_in_transaction_timeout: timeouts.idle_in_transaction,
            connect_timeout,
            password_source,
            warnings,
            secrets,
        })
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

    /// The `-c` options every session starts with: `statement_timeout`,
    /// `lock_timeout` and `idle_in_transaction_session_timeout` (ours win
    /// over any `options=` of the URL, which stay in force otherwise).
    pub fn session_options(&self, lock_timeout: Duration) -> String {
        let ours = format!(
            "-c statement_timeout={} -c lock_timeout={} -c idle_in_transaction_session_timeout={}",
            self.statement_timeout.as_millis(),
            lock_timeout.as_millis(),
            self.idle_in_transaction_timeout.as_millis()
        );
        match self.config.get_options() {
            Some(theirs) if !theirs.trim().is_empty() => format!("{theirs} {ours}"),
            _ => ours,
        }
    }

    /// Replaces every secret in `text` with `********`.
    pub fn redact(&self, text: &str) -> String {
        let mut text = text.to_string();
        for secret in &self.secrets {
            text = text.replace(secret.as_str(), "********");
        }
        text
    }

    /// Opens a session with the session settings of SPEC.md "Connecting".
    /// `lock_timeout` is the one a command wants for its row locks.
    pub fn connect(&self, lock_timeout: Duration) -> Result<Client> {
        let mut config = self.config.clone();
        config.options(&self.session_options(lock_timeout));
        config.connect_timeout(self.connect_timeout);
        let tls = if self.is_unix_socket() {
            // libpq never asks for TLS over a unix socket, whatever sslmode.
            config.ssl_mode(postgres::config::SslMode::Disable);
            None
        } else {
            config.ssl_mode(match self.ssl_mode {
                SslMode::Disable => postgres::config::SslMode::Disable,
                SslMode::Allow | SslMode::Prefer => postgres::config::SslMode::Prefer,
                SslMode::Require | SslMode::VerifyCa | SslMode::VerifyFull => {
                    postgres::config::SslMode::Require
                }
            });
            match self.ssl_mode {
                SslMode::Disable => None,
                mode => Some(
                    tls_config(mode, &self.root_certs)
                        .map_err(|err| anyhow::anyhow!(self.redact(&format!("{err:#}"))))?,
                ),
            }
        };
        let hosts = self.config.get_hosts().len().max(1) as u32;
        let deadline = (!self.connect_timeout.is_zero())
            .then(|| self.connect_timeout * hosts + Duration::from_millis(500));
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("connect".to_string())
            .spawn(move || {
                let result = match tls {
                    Some(tls) => config.connect(tokio_postgres_rustls::MakeRustlsConnect::new(tls)),
                    None => config.connect(postgres::NoTls),
                };
                // The receiver may have given up (timeout): nothing to do.
                let _ = tx.send(result);
            })
            .context("starting the connection thread")?;
        let result = match deadline {
            Some(deadline) => rx.recv_timeout(deadline),
            None => rx
                .recv()
                .map_err(|_| std::sync::mpsc::RecvTimeoutError::Disconnected),
        };
        match result {
            Ok(Ok(client)) => Ok(client),
            Ok(Err(err)) => Err(self.explain(&err)),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                Err(anyhow::anyhow!(self.redact(&format!(
                    "could not connect to {}: no answer within {:?} (connect timeout). Next \
                     step: check the host and port and any firewall in between, or allow \
                     longer with --connect-timeout",
                    self.describe(),
                    self.connect_timeout
                ))))
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                Err(anyhow::anyhow!(self.redact(&format!(
                    "could not connect to {}: the connection attempt ended without a result \
                     (this is a bug; please report it)",
                    self.describe()
                ))))
            }
        }
    }

    /// A connection error as a sentence for a human at 3 a.m.: what failed
    /// and the next step, scrubbed of every secret. The original error is
    /// not kept in the chain: its text is not ours to trust.
    fn explain(&self, err: &postgres::Error) -> anyhow::Error {
        let what = self.cause_and_hint(err);
        anyhow::anyhow!(self.redact(&format!(
            "could not connect to {} (sslmode={}): {what}",
            self.describe(),
            self.ssl_mode
        )))
    }

    fn cause_and_hint(&self, err: &postgres::Error) -> String {
        use postgres::error::SqlState;
        if let Some(db) = err.as_db_error() {
            let said = format!("the server said \"{}\"", db.message());
            let code = db.code();
            let hint = if *code == SqlState::INVALID_PASSWORD {
                format!(
                    "Next step: check the password (it came from {}).",
                    self.password_source
                )
            } else if *code == SqlState::INVALID_AUTHORIZATION_SPECIFICATION {
                if db.message().contains("no encryption") {
                    "Next step: the server only accepts TLS here: use sslmode=require (or \
                     verify-full) in the URL or PGSSLMODE."
                        .to_string()
                } else {
                    "Next step: the server's pg_hba.conf refuses this user, database or \
                     address; ask the database owner, or check PGUSER/PGDATABASE."
                        .to_string()
                }
            } else if *code == SqlState::INVALID_CATALOG_NAME {
                "Next step: check the database name (dbname in the URL or PGDATABASE).".to_string()
            } else if *code == SqlState::CANNOT_CONNECT_NOW {
                "Next step: the server is starting or stopping; retry in a moment.".to_string()
            } else if *code == SqlState::TOO_MANY_CONNECTIONS {
                "Next step: the server is out of connections; retry shortly.".to_string()
            } else {
                "Next step: fix what the server says, then retry.".to_string()
            };
            return format!("{said}. {hint}");
        }
        let mut source: Option<&(dyn std::error::Error + 'static)> = Some(err);
        while let Some(cause) = source {
            if let Some(tls) = cause.downcast_ref::<rustls::Error>() {
                return self.tls_hint(tls);
            }
            if let Some(io) = cause.downcast_ref::<std::io::Error>() {
                if let Some(tls) = io.get_ref().and_then(|e| e.downcast_ref::<rustls::Error>()) {
                    return self.tls_hint(tls);
                }
                match io.kind() {
                    std::io::ErrorKind::ConnectionRefused => {
                        return "connection refused: no server listens there. Next step: check \
                                the host and port (URL or PGHOST/PGPORT) and that the server \
                                is running."
                            .to_string();
                    }
                    std::io::ErrorKind::NotFound if self.is_unix_socket() => {
                        return "no server socket in that directory. Next step: check PGHOST \
                                (the socket directory) and PGPORT, and that the server is \
                                running."
                            .to_string();
                    }
                    std::io::ErrorKind::TimedOut => {
                        return "timed out. Next step: check the host, port and firewall, or \
                                allow longer with --connect-timeout."
                            .to_string();
                    }
                    _ => {}
                }
            }
            source = cause.source();
        }
        // The crate's own words, with their causes ("invalid configuration:
        // password missing"); redacted by the caller.
        let mut text = err.to_string();
        let mut source = std::error::Error::source(err);
        while let Some(cause) = source {
            text.push_str(&format!(": {cause}"));
            source = cause.source();
        }
        if text.contains("server does not support TLS") {
            format!(
                "the server does not offer TLS, and sslmode={} demands it. Next step: enable \
                 ssl on the server, or (on a trusted network only) use sslmode=prefer.",
                self.ssl_mode
            )
        } else if text.contains("password missing") {
            "the server asks for a password and none was given. Next step: put it in \
             ~/.pgpass (mode 0600) or PGPASSWORD."
                .to_string()
        } else {
            format!("{text}. Next step: check the connection settings (see `doctor`).")
        }
    }

    fn tls_hint(&self, err: &rustls::Error) -> String {
        use rustls::CertificateError;
        match err {
            rustls::Error::InvalidCertificate(CertificateError::UnknownIssuer) => format!(
                "TLS: the server's certificate is not signed by a trusted root ({}). Next \
                 step: set sslrootcert (or PGSSLROOTCERT) to the CA that signs the server's \
                 certificate, and make sure this is the server you meant.",
                self.root_certs
            ),
            rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            ) => format!(
                "TLS: the server's certificate is not valid for the host name \"{}\" \
                 (sslmode=verify-full checks it). Next step: connect with the name the \
                 certificate carries, or make sure this is the server you meant.",
                self.target().host
            ),
            other => format!(
                "TLS handshake failed: {other}. Next step: check sslmode and sslrootcert \
                 against the server's certificate."
            ),
        }
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

#[cfg(test)]
mod tests {
    use super::test_support::resolve;
    use super::*;

    #[test]
    fn the_url_wins_over_the_environment_parameter_by_parameter() {
        let s = resolve(
            Some("postgresql://alice@db1:6432/control"),
            &[
                ("PGHOST", "db2"),
                ("PGPORT", "7000"),
                ("PGUSER", "bob"),
                ("PGDATABASE", "other"),
            ],
        )
        .unwrap();
        assert_eq!(s.describe(), "db1:6432/control as alice");
        let s = resolve(
            Some("dbname=control sslmode=verify-full"),
            &[
                ("PGHOST", "db2"),
                ("PGUSER", "bob"),
                ("PGSSLMODE", "disable"),
            ],
        )
        .unwrap();
        assert_eq!(s.describe(), "db2:5432/control as bob");
        assert_eq!(s.ssl_mode(), SslMode::VerifyFull);
    }

    #[test]
    fn the_libpq_environment_alone() {
        let s = resolve(
            None,
            &[
                ("PGHOST", "/var/run/pg"),
                ("PGPORT", "5433"),
                ("PGUSER", "ops"),
                ("PGSSLMODE", "require"),
                ("PGAPPNAME", "psql"),
                ("PGCONNECT_TIMEOUT", "1"),
            ],
        )
        .unwrap();
        assert_eq!(s.describe(), "/var/run/pg:5433/ops as ops");
        assert!(s.is_unix_socket());
        assert_eq!(s.ssl_mode(), SslMode::Require);
        assert_eq!(s.config.get_application_name(), Some(APPLICATION_NAME));
        assert_eq!(s.connect_timeout(), Duration::from_secs(2));
    }

    #[test]
    fn sslmode_and_sslrootcert_are_ours_in_both_forms() {
        let s = resolve(
            Some(
                "postgresql://u:p%40ss@h/d?sslmode=verify-ca&sslrootcert=%2Fetc%2Fca.pem&application_name=x&target_session_attrs=read-write",
            ),
            &[],
        )
        .unwrap();
        assert_eq!(s.ssl_mode(), SslMode::VerifyCa);
        assert_eq!(s.root_certs(), &RootCerts::File("/etc/ca.pem".into()));
        assert_eq!(s.config.get_password(), Some(&b"p@ss"[..]));
        assert_eq!(s.config.get_application_name(), Some(APPLICATION_NAME));
        let s = resolve(
            Some("host=h dbname = 'my db' password='it''s' sslrootcert=system sslmode=allow"),
            &[],
        );
        // libpq escapes quotes with a backslash, not by doubling.
        assert!(s.is_err());
        let s = resolve(
            Some(r"host=h dbname = 'my db' password='it\'s' sslrootcert=system"),
            &[],
        )
        .unwrap();
        assert_eq!(s.target().database, "my db");
        assert_eq!(s.config.get_password(), Some(&b"it's"[..]));
        assert_eq!(s.root_certs(), &RootCerts::System);
        assert_eq!(s.ssl_mode(), SslMode::Prefer);
    }

    #[test]
    fn bad_input_is_a_usage_error_that_never_echoes_it() {
        for url in [
            "postgresql://u:hunter2@h/d?sslmode=verify-fll",
            "host=h password=hunter2 bogus",
            "host=h password=hunter2 hunter3=x",
            "postgresql://u:hunter2@h:notaport/d",
            "host=h password='hunter2",
        ] {
            let err = resolve(Some(url), &[]).unwrap_err();
            assert_eq!(exit::code_for(&err), exit::ExitCode::Usage, "{url}");
            let text = format!("{err:#}");
            assert!(!text.contains("hunter"), "{url}: {text}");
        }
        let err = resolve(Some("host=h sslcert=/x"), &[]).unwrap_err();
        assert!(err.to_string().contains("`sslcert`"), "{err}");
    }

    #[test]
    fn secrets_are_redacted_from_descriptions() {
        // A mistyped URL can put part of a password where the host goes.
        let s = resolve(Some("host=s3cr3tpw dbname=d password=s3cr3tpw"), &[]).unwrap();
        assert!(!s.describe().contains("s3cr3tpw"), "{}", s.describe());
        assert!(!format!("{s:?}").contains("s3cr3tpw"));
        assert_eq!(s.password_source(), &PasswordSource::Url);
    }

    #[test]
    fn session_options_keep_the_urls_and_put_ours_last() {
        let s = resolve(Some("host=h options='-c search_path=cp'"), &[]).unwrap();
        assert_eq!(
            s.session_options(Duration::from_secs(5)),
            "-c search_path=cp -c statement_timeout=30000 -c lock_timeout=5000 \
             -c idle_in_transaction_session_timeout=60000"
        );
    }
}
