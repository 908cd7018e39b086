//! Resolving settings as libpq 15 does, parameter by parameter, and
//! refusing (exit 2, naming it) every parameter we deliberately do not
//! support.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use postgres::config::ChannelBinding;

use super::env::Env;
use super::env::{home_dir, libpq_connect_timeout, parse_int};
use super::error_text::secrets_to_redact;
use super::hosts::{BadPort, host_specs};
use super::options::Options;
use super::{
    DEFAULT_CONNECT_TIMEOUT, Keepalives, RootCerts, SessionAttrs, Settings, SslMode, Timeouts,
    TlsOptions,
};
use crate::exit;

impl Settings {
    /// The settings from a URL (or `key=value` text) and an environment
    /// lookup; [`Settings::from_options`] with everything passed in.
    pub fn resolve(url: Option<&str>, env: Env, timeouts: Timeouts) -> Result<Settings> {
        Settings::resolve_with_service(url, None, env, timeouts)
    }

    /// [`Settings::resolve`] with `--service`: the named service instead
    /// of a URL (both at once are refused: the URL's host would win over
    /// the service's and could name another region).
    pub fn resolve_with_service(
        url: Option<&str>,
        service: Option<&str>,
        env: Env,
        timeouts: Timeouts,
    ) -> Result<Settings> {
        if service.is_some() && url.is_some() {
            return Err(exit::usage(
                "--service and a database URL (--database-url or DATABASE_URL) were both given; \
                 give one of them (unset DATABASE_URL to use --service)",
            ));
        }
        let options = Options::collect(url, service, env)?;
        refuse_unsupported(&options, env)?;
        let user = options
            .nonempty("user")
            .map(str::to_string)
            .unwrap_or_else(super::os_user);
        let dbname = options.nonempty("dbname").unwrap_or(&user).to_string();
        let mut warnings = Vec::new();
        let hosts = host_specs(&options, env, &user, &dbname, &mut warnings)?;
        if hosts.iter().any(|h| h.port() == Err(BadPort::NotANumber)) {
            return Err(exit::usage(format!(
                "the port ({}) is malformed: not a number, or a comma-separated list of them (the \
                 text is not shown: it may hold a password)",
                options.where_set("port")
            )));
        }
        let secrets = secrets_to_redact(
            hosts
                .iter()
                .filter_map(|h| h.password.as_ref().map(|(p, _)| p.clone()))
                .collect(),
        );
        Ok(Settings {
            hosts,
            user,
            dbname,
            options: options.nonempty("options").map(str::to_string),
            ssl_mode: ssl_mode(&options)?,
            tls: tls_options(&options, env)?,
            channel_binding: channel_binding(&options)?,
            keepalives: keepalives(&options)?,
            session_attrs: session_attrs(&options)?,
            statement_timeout: timeouts.statement,
            idle_in_transaction_timeout: timeouts.idle_in_transaction,
            connect_timeout: connect_timeout(timeouts.connect, &options)?,
            warnings,
            secrets,
        })
    }
}

/// A usage error naming a parameter we do not support.
fn unsupported(options: &Options, key: &str, why: &str) -> anyhow::Error {
    exit::usage(format!(
        "the connection parameter `{key}` (set {}) is not supported by pushleft-controller: \
         {why}. Remove it, or connect with psql",
        options.where_set(key)
    ))
}

/// Every libpq parameter we deliberately do not support, when it is set:
/// refused by name, never silently ignored.
fn refuse_unsupported(options: &Options, env: Env) -> Result<()> {
    const REFUSED: [(&str, &str); 8] = [
        ("sslpassword", "encrypted client keys are not supported"),
        ("sslcrl", "certificate revocation lists are not checked"),
        ("sslcrldir", "certificate revocation lists are not checked"),
        ("requirepeer", "the peer of a unix socket is not checked"),
        ("krbsrvname", "GSSAPI (Kerberos) is not supported"),
        ("gsslib", "GSSAPI (Kerberos) is not supported"),
        (
            "replication",
            "replication connections are not for this tool",
        ),
        ("sslcompression", "TLS compression is not available"),
    ];
    for (key, why) in REFUSED {
        if let Some(value) = options.explicit(key)
            && (key != "sslcompression" || value.starts_with('1'))
        {
            return Err(unsupported(options, key, why));
        }
    }
    if options.explicit("sslkey").is_some_and(|k| k.contains(':')) {
        return Err(unsupported(
            options,
            "sslkey",
            "OpenSSL engine keys are not supported",
        ));
    }
    match options.get("gssencmode") {
        Some("disable" | "prefer") | None => {}
        Some("require") => {
            return Err(unsupported(
                options,
                "gssencmode",
                "gssencmode=require needs GSSAPI encryption, which is not supported (use \
                 TLS: sslmode=verify-full)",
            ));
        }
        Some(other) => {
            return Err(invalid(
                options,
                "gssencmode",
                other,
                "disable, prefer, require",
            ));
        }
    }
    if let Some(encoding) = options.explicit("client_encoding") {
        let utf8 = ["utf8", "utf-8", "unicode"]
            .iter()
            .any(|e| e.eq_ignore_ascii_case(encoding))
            || (encoding == "auto" && locale_is_utf8(env));
        if !utf8 {
            return Err(unsupported(
                options,
                "client_encoding",
                "the tool speaks UTF8 only",
            ));
        }
    }
    let crl = home_dir(env).map(|h| h.join(".postgresql/root.crl"));
    if let Some(crl) = crl.filter(|c| c.exists()) {
        return Err(exit::usage(format!(
            "{} exists: libpq would check the server's certificate against this revocation \
             list, which pushleft-controller does not support. Move it away, or connect with \
             psql",
            crl.display()
        )));
    }
    Ok(())
}

/// `client_encoding=auto` takes the locale's: UTF-8 or not.
fn locale_is_utf8(env: Env) -> bool {
    ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .find_map(|v| env(v).filter(|x| !x.is_empty()))
        .is_some_and(|l| {
            let l = l.to_ascii_lowercase();
            l.contains("utf-8") || l.contains("utf8")
        })
}

fn invalid(options: &Options, key: &str, value: &str, allowed: &str) -> anyhow::Error {
    exit::usage(format!(
        "{key} {value:?} is not one of {allowed} (set {})",
        options.where_set(key)
    ))
}

fn ssl_mode(options: &Options) -> Result<SslMode> {
    let text = options.get("sslmode").unwrap_or("prefer");
    SslMode::parse(text).ok_or_else(|| {
        invalid(
            options,
            "sslmode",
            text,
            "disable, allow, prefer, require, verify-ca, verify-full",
        )
    })
}

fn session_attrs(options: &Options) -> Result<SessionAttrs> {
    Ok(match options.get("target_session_attrs").unwrap_or("any") {
        "any" => SessionAttrs::Any,
        "read-write" => SessionAttrs::ReadWrite,
        "read-only" => SessionAttrs::ReadOnly,
        "primary" => SessionAttrs::Primary,
        "standby" => SessionAttrs::Standby,
        "prefer-standby" => SessionAttrs::PreferStandby,
        other => {
            return Err(invalid(
                options,
                "target_session_attrs",
                other,
                "any, read-write, read-only, primary, standby, prefer-standby",
            ));
        }
    })
}

fn channel_binding(options: &Options) -> Result<ChannelBinding> {
    Ok(match options.get("channel_binding").unwrap_or("prefer") {
        "disable" => ChannelBinding::Disable,
        "prefer" => ChannelBinding::Prefer,
        "require" => ChannelBinding::Require,
        other => {
            return Err(invalid(
                options,
                "channel_binding",
                other,
                "disable, prefer, require",
            ));
        }
    })
}

/// An integer parameter, libpq's way; `None` when unset or empty.
fn int_param(options: &Options, key: &str) -> Result<Option<i64>> {
    match options.nonempty(key) {
        None => Ok(None),
        Some(text) => parse_int(text).map(Some).ok_or_else(|| {
            exit::usage(format!(
                "{key} {text:?} (set {}) is not an integer",
                options.where_set(key)
            ))
        }),
    }
}

fn keepalives(options: &Options) -> Result<Keepalives> {
    let secs = |v: Option<i64>| v.filter(|n| *n > 0).map(|n| Duration::from_secs(n as u64));
    Ok(Keepalives {
        off: int_param(options, "keepalives")? == Some(0),
        idle: secs(int_param(options, "keepalives_idle")?),
        interval: secs(int_param(options, "keepalives_interval")?),
        count: int_param(options, "keepalives_count")?
            .filter(|n| *n > 0)
            .map(|n| n as u32),
        tcp_user_timeout: int_param(options, "tcp_user_timeout")?
            .filter(|n| *n > 0)
            .map(|n| Duration::from_millis(n as u64)),
    })
}

/// The TLS parameters: roots (`sslrootcert`, else `~/.postgresql/root.crt`),
/// the client certificate and key, SNI and protocol versions.
fn tls_options(options: &Options, env: Env) -> Result<TlsOptions> {
    let home_file = |name: &str| home_dir(env).map(|h| h.join(".postgresql").join(name));
    let roots = match options.nonempty("sslrootcert") {
        Some("system") => RootCerts::System,
        Some(path) => RootCerts::File(PathBuf::from(path)),
        None => home_file("root.crt").map_or(RootCerts::Unknown, RootCerts::File),
    };
    let version = |key: &str| -> Result<Option<u8>> {
        match options.nonempty(key) {
            None => Ok(None),
            Some("TLSv1") => Ok(Some(0)),
            Some("TLSv1.1") => Ok(Some(1)),
            Some("TLSv1.2") => Ok(Some(2)),
            Some("TLSv1.3") => Ok(Some(3)),
            Some(other) => Err(invalid(
                options,
                key,
                other,
                "TLSv1, TLSv1.1, TLSv1.2, TLSv1.3",
            )),
        }
    };
    let min = version("ssl_min_protocol_version")?.unwrap_or(0);
    let max = version("ssl_max_protocol_version")?.unwrap_or(3);
    if min > max {
        return Err(exit::usage(
            "invalid SSL protocol version range (ssl_min_protocol_version is above \
             ssl_max_protocol_version)",
        ));
    }
    if max < 2 {
        return Err(unsupported(
            options,
            "ssl_max_protocol_version",
            "TLS before 1.2 is not supported (rustls)",
        ));
    }
    Ok(TlsOptions {
        roots,
        cert: options
            .nonempty("sslcert")
            .map(PathBuf::from)
            .or_else(|| home_file("postgresql.crt")),
        key: options
            .nonempty("sslkey")
            .map(PathBuf::from)
            .or_else(|| home_file("postgresql.key")),
        sni: options.get("sslsni").is_none_or(|v| v.starts_with('1')),
        tls12: min <= 2,
        tls13: max == 3,
    })
}

/// `--connect-timeout` (`flag`), else `connect_timeout` (libpq's rules),
/// else the default.
fn connect_timeout(flag: Option<Duration>, options: &Options) -> Result<Duration> {
    if let Some(timeout) = flag {
        return Ok(timeout);
    }
    match options.get("connect_timeout") {
        Some(text) => libpq_connect_timeout(text, &options.where_set("connect_timeout")),
        None => Ok(DEFAULT_CONNECT_TIMEOUT),
    }
}

#[cfg(test)]
#[path = "params_tests.rs"]
mod tests;
