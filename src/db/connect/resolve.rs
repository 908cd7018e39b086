//! Resolving settings as libpq does, parameter by parameter: the URL, else
//! the `PG*` variable, else the password file (password only), else
//! libpq's default.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use postgres::Config;

use super::conninfo::{Ours, parse_connection_string};
use super::env::{default_host, home_dir, libpq_connect_timeout};
use super::explain::secrets_to_redact;
use super::pgpass::{password_file_path, password_from_file, pgpass_host};
use super::{
    APPLICATION_NAME, DEFAULT_CONNECT_TIMEOUT, PasswordSource, RootCerts, Settings, SslMode,
    Timeouts, os_user, target_of,
};
use crate::exit;

impl Settings {
    /// The settings from a URL (or `key=value` text) and an environment
    /// lookup; [`Settings::from_options`] with everything passed in.
    pub fn resolve(
        url: Option<&str>,
        env: &dyn Fn(&str) -> Option<String>,
        timeouts: Timeouts,
    ) -> Result<Settings> {
        // libpq treats an empty variable as unset.
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

        hosts_and_ports_from_env(&mut config, &env)?;
        let user = user_and_database_from_env(&mut config, &env);

        let mut warnings = Vec::new();
        if config.get_password().is_none() {
            match password_outside_the_url(&config, &ours, &env, &user) {
                Ok(Some((password, source))) => {
                    secrets.push(password.clone());
                    config.password(password);
                    password_source = source;
                }
                Ok(None) => {}
                Err(warning) => warnings.push(warning),
            }
        }

        let ssl_mode = ssl_mode(&ours, &env)?;
        let root_certs = root_certs(&ours, &env);
        let connect_timeout = connect_timeout(timeouts.connect, &ours, &env)?;

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
            secrets: secrets_to_redact(secrets),
        })
    }
}

/// `PGHOST` and `PGPORT`, each only when the URL names no host or no port;
/// no host at all is libpq's default (the local socket directory).
fn hosts_and_ports_from_env(
    config: &mut Config,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<()> {
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
    Ok(())
}

/// The user (URL, else `PGUSER`, else the operating-system user) and the
/// database (URL, else `PGDATABASE`, else named like the user); returns
/// the user, which the password file lookup needs.
fn user_and_database_from_env(config: &mut Config, env: &dyn Fn(&str) -> Option<String>) -> String {
    let user = match config.get_user() {
        Some(user) => user.to_string(),
        None => env("PGUSER").unwrap_or_else(os_user),
    };
    config.user(&user);
    if config.get_dbname().is_none() {
        config.dbname(env("PGDATABASE").as_deref().unwrap_or(&user));
    }
    user
}

/// For a URL without a password: `PGPASSWORD`, else the matching line of
/// the password file (`passfile=`, else `PGPASSFILE`, else `~/.pgpass`).
/// `Err` is a warning for the operator: the password file was ignored.
fn password_outside_the_url(
    config: &Config,
    ours: &Ours,
    env: &dyn Fn(&str) -> Option<String>,
    user: &str,
) -> std::result::Result<Option<(String, PasswordSource)>, String> {
    if let Some(password) = env("PGPASSWORD") {
        return Ok(Some((password, PasswordSource::Environment)));
    }
    let Some(path) = ours.passfile.clone().or_else(|| password_file_path(env)) else {
        return Ok(None);
    };
    let target = target_of(config);
    let host = config
        .get_hosts()
        .first()
        .map(pgpass_host)
        .unwrap_or_default();
    let password = password_from_file(&path, &host, target.port, &target.database, user)?;
    Ok(password.map(|password| (password, PasswordSource::PasswordFile(path))))
}

/// `sslmode=`, else `PGSSLMODE`, else `prefer`; anything else is a usage
/// error.
fn ssl_mode(ours: &Ours, env: &dyn Fn(&str) -> Option<String>) -> Result<SslMode> {
    Ok(match ours.sslmode.clone().or_else(|| env("PGSSLMODE")) {
        Some(text) => SslMode::parse(&text).ok_or_else(|| {
            exit::usage(format!(
                "sslmode {text:?} is not one of disable, allow, prefer, require, verify-ca, \
                 verify-full (set in the database URL or PGSSLMODE)"
            ))
        })?,
        None => SslMode::Prefer,
    })
}

/// `sslrootcert=`, else `PGSSLROOTCERT` (a file, or `system`), else
/// `~/.postgresql/root.crt` when it exists, else the system's roots.
fn root_certs(ours: &Ours, env: &dyn Fn(&str) -> Option<String>) -> RootCerts {
    match ours.sslrootcert.clone().or_else(|| env("PGSSLROOTCERT")) {
        Some(text) if text == "system" => RootCerts::System,
        Some(text) => RootCerts::File(PathBuf::from(text)),
        None => match home_dir(env).map(|h| h.join(".postgresql/root.crt")) {
            Some(path) if path.is_file() => RootCerts::File(path),
            _ => RootCerts::System,
        },
    }
}

/// `--connect-timeout` (`flag`), else `connect_timeout=`, else
/// `PGCONNECT_TIMEOUT` (both with libpq's rules), else the default.
fn connect_timeout(
    flag: Option<Duration>,
    ours: &Ours,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Duration> {
    if let Some(timeout) = flag {
        return Ok(timeout);
    }
    match ours
        .connect_timeout
        .clone()
        .or_else(|| env("PGCONNECT_TIMEOUT"))
    {
        Some(text) => libpq_connect_timeout(&text),
        None => Ok(DEFAULT_CONNECT_TIMEOUT),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::connect::test_support::resolve;

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
}
