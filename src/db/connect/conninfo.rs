//! Connection strings: `postgresql://` URLs and libpq's `key=value` text.
//!
//! The postgres crate parses both, but it does not know libpq's `sslmode`
//! values beyond `require`, `sslrootcert`, `passfile` or `connect_timeout`,
//! and its errors may quote the input, password included. So the text is
//! split here first: what we handle ourselves goes into [`Ours`], what the
//! crate understands is rebuilt and handed on, and anything else is refused
//! without being echoed.

use std::path::PathBuf;

use anyhow::Result;
use postgres::Config;

use crate::exit;

/// What we take out of a connection string before the postgres crate sees
/// it (it does not know these, or we handle them ourselves).
#[derive(Debug, Default)]
pub(super) struct Ours {
    pub(super) sslmode: Option<String>,
    pub(super) sslrootcert: Option<String>,
    pub(super) passfile: Option<PathBuf>,
    pub(super) connect_timeout: Option<String>,
}

/// Parameters the postgres crate understands.
const PASSED_ON: [&str; 18] = [
    "user",
    "password",
    "dbname",
    "options",
    "host",
    "hostaddr",
    "port",
    "sslnegotiation",
    "tcp_user_timeout",
    "keepalives",
    "keepalives_idle",
    "keepalives_interval",
    "keepalives_retries",
    "target_session_attrs",
    "channel_binding",
    "load_balance_hosts",
    // Ignored in favour of our own name (set afterwards).
    "application_name",
    "fallback_application_name",
];

/// libpq parameters we do not support; named in the error (the name comes
/// from this list, never from the input, which may hold a password).
const UNSUPPORTED: [&str; 12] = [
    "sslcert",
    "sslkey",
    "sslpassword",
    "sslcrl",
    "sslcrldir",
    "sslsni",
    "sslcompression",
    "service",
    "gssencmode",
    "krbsrvname",
    "requirepeer",
    "client_encoding",
];

/// Splits a URL or key=value string into what the postgres crate parses and
/// what we handle. Malformed input is never echoed: it may hold a password.
pub(super) fn parse_connection_string(text: &str) -> Result<(Config, Ours)> {
    let text = text.trim();
    let is_url = text.starts_with("postgres://") || text.starts_with("postgresql://");
    let (rest_url, params) = if is_url {
        split_url(text).ok_or_else(malformed)?
    } else {
        (String::new(), parse_key_values(text).ok_or_else(malformed)?)
    };
    let (ours, passed) = sort_params(params)?;
    let rebuilt = rebuild(is_url, &rest_url, &passed);
    let config = rebuilt.parse::<Config>().map_err(|_| malformed())?;
    Ok((config, ours))
}

/// The one error for text we cannot parse; it never quotes the text.
fn malformed() -> anyhow::Error {
    exit::usage(
        "the database URL (--database-url or DATABASE_URL) is malformed; expected \
         postgresql://user@host:port/dbname?sslmode=verify-full or key=value pairs such as \
         \"host=db1 dbname=control sslmode=require\" (the text is not shown: it may hold a \
         password)",
    )
}

/// A URL as the part before `?` and its decoded query parameters; `None`
/// when a parameter has no `=` or bad percent-encoding.
fn split_url(text: &str) -> Option<(String, Vec<(String, String)>)> {
    let (head, query) = match text.split_once('?') {
        Some((head, query)) => (head, Some(query)),
        None => (text, None),
    };
    let mut params = Vec::new();
    for pair in query.into_iter().flat_map(|q| q.split('&')) {
        if pair.is_empty() {
            continue;
        }
        let (key, value) = pair.split_once('=')?;
        params.push((percent_decode(key)?, percent_decode(value)?));
    }
    Some((head.to_string(), params))
}

/// Parameters we handle go into [`Ours`], those the postgres crate knows
/// are passed on, and any other is a usage error naming it only when it is
/// a known libpq parameter (the input may hold a password).
fn sort_params(params: Vec<(String, String)>) -> Result<(Ours, Vec<(String, String)>)> {
    let mut ours = Ours::default();
    let mut passed: Vec<(String, String)> = Vec::new();
    for (key, value) in params {
        match key.as_str() {
            "sslmode" => ours.sslmode = Some(value),
            "sslrootcert" => ours.sslrootcert = Some(value),
            "passfile" => ours.passfile = Some(PathBuf::from(value)),
            "connect_timeout" => ours.connect_timeout = Some(value),
            "application_name" | "fallback_application_name" => {}
            key if PASSED_ON.contains(&key) => passed.push((key.to_string(), value)),
            key => {
                return Err(match UNSUPPORTED.iter().find(|k| **k == key) {
                    Some(known) => exit::usage(format!(
                        "the connection parameter `{known}` is not supported by \
                         pushleft-controller; remove it from the database URL"
                    )),
                    None => exit::usage(
                        "the database URL holds a parameter pushleft-controller does not know \
                         (not shown: the text may hold a password); supported are host, \
                         hostaddr, port, user, password, dbname, options, sslmode, sslrootcert, \
                         passfile, connect_timeout, target_session_attrs and the keepalive \
                         settings",
                    ),
                });
            }
        }
    }
    Ok((ours, passed))
}

/// The parameters passed on, in the form the text came in: the URL with a
/// re-encoded query, or quoted `key='value'` pairs.
fn rebuild(is_url: bool, rest_url: &str, passed: &[(String, String)]) -> String {
    if is_url {
        if passed.is_empty() {
            rest_url.to_string()
        } else {
            let query: Vec<String> = passed
                .iter()
                .map(|(k, v)| format!("{k}={}", percent_encode(v)))
                .collect();
            format!("{rest_url}?{}", query.join("&"))
        }
    } else {
        passed
            .iter()
            .map(|(k, v)| format!("{k}='{}'", v.replace('\\', "\\\\").replace('\'', "\\'")))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Where a standby's `primary_conninfo` points: `host:port` and nothing
/// else (the setting can hold a password, which must never be shown).
pub fn primary_from_conninfo(conninfo: &str) -> Option<String> {
    let pairs = parse_key_values(conninfo)?;
    let value = |key: &str| {
        pairs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
            .filter(|v| !v.is_empty())
    };
    let host = value("host").or_else(|| value("hostaddr"))?;
    let port = value("port").unwrap_or_else(|| "5432".to_string());
    Some(format!("{host}:{port}"))
}

/// libpq's `key = value` syntax: values may be single-quoted, and `\`
/// escapes the next character. `None` when malformed.
fn parse_key_values(text: &str) -> Option<Vec<(String, String)>> {
    let mut chars = text.chars().peekable();
    let mut out = Vec::new();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek().is_none() {
            return Some(out);
        }
        let mut key = String::new();
        while let Some(&c) = chars.peek() {
            if c == '=' || c.is_whitespace() {
                break;
            }
            key.push(c);
            chars.next();
        }
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.next() != Some('=') || key.is_empty() {
            return None;
        }
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let mut value = String::new();
        if chars.peek() == Some(&'\'') {
            chars.next();
            loop {
                match chars.next()? {
                    '\\' => value.push(chars.next()?),
                    '\'' => break,
                    c => value.push(c),
                }
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                chars.next();
                if c == '\\' {
                    value.push(chars.next()?);
                } else {
                    value.push(c);
                }
            }
        }
        out.push((key, value));
    }
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

pub(super) fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_standby_names_its_primary_without_the_password() {
        let conninfo = "user=replicator password='s3cr3t pw' host=db-primary.internal port=5433 sslmode=require";
        assert_eq!(
            super::primary_from_conninfo(conninfo).as_deref(),
            Some("db-primary.internal:5433")
        );
        assert_eq!(super::primary_from_conninfo("user=x").as_deref(), None);
        assert_eq!(
            super::primary_from_conninfo("host=/var/run/postgresql").as_deref(),
            Some("/var/run/postgresql:5432")
        );
    }
}
