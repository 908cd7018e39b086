//! Connection strings as libpq 15 reads them: `postgresql://` URLs, the
//! `key=value` form, and (as psql does) a bare word that is a database
//! name. The result is a list of libpq keywords and their values, later
//! ones winning; nothing here looks at the environment.
//!
//! Nothing here ever quotes the input in an error: it may hold a password.
//! A URL that libpq would split in a way the operator cannot have meant
//! (an unencoded `@` that puts part of the password in the host name) is
//! refused rather than guessed at.

use anyhow::Result;

use crate::exit;

/// One libpq 15 connection parameter: its keyword, the variable it falls
/// back to, and the compiled-in default.
pub(super) struct Keyword {
    pub(super) name: &'static str,
    pub(super) env: Option<&'static str>,
    pub(super) default: Option<&'static str>,
}

const fn kw(
    name: &'static str,
    env: Option<&'static str>,
    default: Option<&'static str>,
) -> Keyword {
    Keyword { name, env, default }
}

/// Every keyword libpq 15 knows (`PQconninfoOptions`), in its order.
pub(super) const KEYWORDS: &[Keyword] = &[
    kw("service", Some("PGSERVICE"), None),
    kw("user", Some("PGUSER"), None),
    kw("password", Some("PGPASSWORD"), None),
    kw("passfile", Some("PGPASSFILE"), None),
    kw("channel_binding", Some("PGCHANNELBINDING"), Some("prefer")),
    kw("connect_timeout", Some("PGCONNECT_TIMEOUT"), None),
    kw("dbname", Some("PGDATABASE"), None),
    kw("host", Some("PGHOST"), None),
    kw("hostaddr", Some("PGHOSTADDR"), None),
    kw("port", Some("PGPORT"), Some("5432")),
    kw("client_encoding", Some("PGCLIENTENCODING"), None),
    kw("options", Some("PGOPTIONS"), None),
    kw("application_name", Some("PGAPPNAME"), None),
    kw("fallback_application_name", None, None),
    kw("keepalives", None, None),
    kw("keepalives_idle", None, None),
    kw("keepalives_interval", None, None),
    kw("keepalives_count", None, None),
    kw("tcp_user_timeout", None, None),
    kw("sslmode", Some("PGSSLMODE"), Some("prefer")),
    kw("sslcompression", Some("PGSSLCOMPRESSION"), Some("0")),
    kw("sslcert", Some("PGSSLCERT"), None),
    kw("sslkey", Some("PGSSLKEY"), None),
    kw("sslpassword", None, None),
    kw("sslrootcert", Some("PGSSLROOTCERT"), None),
    kw("sslcrl", Some("PGSSLCRL"), None),
    kw("sslcrldir", Some("PGSSLCRLDIR"), None),
    kw("sslsni", Some("PGSSLSNI"), Some("1")),
    kw("requirepeer", Some("PGREQUIREPEER"), None),
    kw(
        "ssl_min_protocol_version",
        Some("PGSSLMINPROTOCOLVERSION"),
        Some("TLSv1.2"),
    ),
    kw(
        "ssl_max_protocol_version",
        Some("PGSSLMAXPROTOCOLVERSION"),
        None,
    ),
    kw("gssencmode", Some("PGGSSENCMODE"), Some("prefer")),
    kw("krbsrvname", Some("PGKRBSRVNAME"), Some("postgres")),
    kw("gsslib", Some("PGGSSLIB"), None),
    kw("replication", None, None),
    kw(
        "target_session_attrs",
        Some("PGTARGETSESSIONATTRS"),
        Some("any"),
    ),
];

/// The keyword as libpq spells it, `None` for one it does not know.
pub(super) fn keyword(name: &str) -> Option<&'static Keyword> {
    KEYWORDS.iter().find(|k| k.name == name)
}

/// Parameters from a connection string, in order (a later one wins).
pub(super) type Pairs = Vec<(&'static str, String)>;

/// Parses `--database-url` / `DATABASE_URL` as psql parses its database
/// argument: a URL, `key=value` pairs when it holds a `=`, else a
/// database name.
pub(super) fn parse_connection_string(text: &str) -> Result<Pairs> {
    if uri_prefix_len(text).is_some() {
        parse_uri(text)
    } else if text.contains('=') {
        parse_key_values(text)
            .ok_or_else(malformed)
            .and_then(store_all)
    } else if text.is_empty() {
        Ok(Vec::new())
    } else {
        Ok(vec![("dbname", text.to_string())])
    }
}

fn uri_prefix_len(text: &str) -> Option<usize> {
    ["postgresql://", "postgres://"]
        .iter()
        .find(|p| text.starts_with(**p))
        .map(|p| p.len())
}

/// The one error for text we cannot parse; it never quotes the text.
pub(super) fn malformed() -> anyhow::Error {
    exit::usage(
        "the database URL (--database-url or DATABASE_URL) is malformed; expected \
         postgresql://user@host:port/dbname?sslmode=verify-full or key=value pairs such as \
         \"host=db1 dbname=control sslmode=require\" (the text is not shown: it may hold a \
         password)",
    )
}

fn ambiguous() -> anyhow::Error {
    exit::usage(
        "the database URL (--database-url or DATABASE_URL) cannot be read unambiguously: an \
         `@` outside user:password@host would put part of the user name or password where \
         the host or database goes. Percent-encode it in the user name and password (@ is \
         %40, : is %3A, / is %2F) and retry (the text is not shown: it may hold a password)",
    )
}

fn unknown_parameter() -> anyhow::Error {
    exit::usage(
        "the database URL is malformed: it holds a parameter libpq does not know (the text is \
         not shown: it may hold a password); supported are libpq 15's parameters, such as host, \
         hostaddr, port, dbname, user, password, passfile, service, options, connect_timeout, \
         sslmode, sslrootcert, sslcert, sslkey and target_session_attrs (see CONNECTING in man \
         pushleft-controller)",
    )
}

/// libpq's `conninfo_storeval`: the keyword must be known; `requiressl`
/// becomes `sslmode`, as in libpq 15.
fn store(key: &str, value: String) -> Result<(&'static str, String)> {
    if key == "requiressl" {
        let mode = if value.starts_with('1') {
            "require"
        } else {
            "prefer"
        };
        return Ok(("sslmode", mode.to_string()));
    }
    keyword(key)
        .map(|k| (k.name, value))
        .ok_or_else(unknown_parameter)
}

fn store_all(pairs: Vec<(String, String)>) -> Result<Pairs> {
    pairs.into_iter().map(|(k, v)| store(&k, v)).collect()
}

/// A `postgresql://` URL, as libpq's `conninfo_uri_parse_options` splits
/// it, refusing the forms where an `@` makes the split a guess.
fn parse_uri(text: &str) -> Result<Pairs> {
    let rest = &text[uri_prefix_len(text).unwrap_or(0)..];
    let before_query = rest.split('?').next().unwrap_or("");
    let authority = rest.split('/').next().unwrap_or("");
    // libpq looks for the user's `@` before the first `/`, even inside
    // the query; anything but one `@` in the authority proper is a guess.
    let ats = authority.matches('@').count();
    let path_has_at = before_query
        .split_once('/')
        .is_some_and(|(_, path)| path.contains('@'));
    let query_first = matches!(
        (authority.find('?'), authority.find('@')),
        (Some(q), Some(a)) if q < a
    );
    if ats > 1 || query_first || path_has_at {
        return Err(ambiguous());
    }
    let mut out = Vec::new();
    let mut p = rest;
    if let Some((credentials, _)) = authority.split_once('@') {
        let (user, password) = match credentials.split_once(':') {
            Some((user, password)) => (user, Some(password)),
            None => (credentials, None),
        };
        if !user.is_empty() {
            out.push(("user", decode(user)?));
        }
        if let Some(password) = password.filter(|p| !p.is_empty()) {
            out.push(("password", decode(password)?));
        }
        p = &rest[credentials.len() + 1..];
    }
    let (hosts, ports, after) = parse_netloc(p)?;
    if !hosts.is_empty() {
        out.push(("host", decode(&hosts)?));
    }
    if !ports.is_empty() {
        out.push(("port", decode(&ports)?));
    }
    let query = match after {
        Some(rest) if rest.starts_with('/') => {
            let (dbname, query) = match rest[1..].split_once('?') {
                Some((d, q)) => (d, Some(q)),
                None => (&rest[1..], None),
            };
            if !dbname.is_empty() {
                out.push(("dbname", decode(dbname)?));
            }
            query
        }
        Some(rest) => rest.strip_prefix('?'),
        None => None,
    };
    if let Some(query) = query {
        out.extend(parse_query(query)?);
    }
    Ok(out)
}

/// The host and port lists of a URL's netloc (`h1:p1,[::1]:p2`) and what
/// follows them (from the `/` or `?`), as libpq joins them.
fn parse_netloc(mut p: &str) -> Result<(String, String, Option<&str>)> {
    let mut hosts = String::new();
    let mut ports = String::new();
    loop {
        let host_end;
        if let Some(inner) = p.strip_prefix('[') {
            let close = inner.find(']').ok_or_else(malformed)?;
            if close == 0 {
                return Err(malformed());
            }
            hosts.push_str(&inner[..close]);
            p = &inner[close + 1..];
            if !matches!(p.chars().next(), None | Some(':' | '/' | '?' | ',')) {
                return Err(malformed());
            }
            host_end = 0;
        } else {
            host_end = p.find([':', '/', '?', ',']).unwrap_or(p.len());
            hosts.push_str(&p[..host_end]);
        }
        p = &p[host_end..];
        if let Some(rest) = p.strip_prefix(':') {
            let end = rest.find(['/', '?', ',']).unwrap_or(rest.len());
            ports.push_str(&rest[..end]);
            p = &rest[end..];
        }
        match p.strip_prefix(',') {
            Some(rest) => {
                hosts.push(',');
                ports.push(',');
                p = rest;
            }
            None => break,
        }
    }
    Ok((hosts, ports, (!p.is_empty()).then_some(p)))
}

/// `key=value&…` as libpq reads a URL's query: every pair needs one `=`,
/// both sides are percent-decoded, and `ssl=true` means `sslmode=require`.
fn parse_query(query: &str) -> Result<Pairs> {
    let mut out = Vec::new();
    if query.is_empty() {
        return Ok(out);
    }
    for pair in query.split('&') {
        let (key, value) = pair.split_once('=').ok_or_else(malformed)?;
        if value.contains('=') {
            return Err(malformed());
        }
        let (key, value) = (decode(key)?, decode(value)?);
        if key == "ssl" && value == "true" {
            out.push(("sslmode", "require".to_string()));
        } else {
            out.push(store(&key, value)?);
        }
    }
    Ok(out)
}

/// libpq's `isspace` (the C locale's).
fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0B' | '\x0C' | '\r')
}

/// libpq's `key = value` syntax: values may be single-quoted, and `\`
/// escapes the next character. `None` when malformed (a key without `=`,
/// an unterminated quote).
pub(super) fn parse_key_values(text: &str) -> Option<Vec<(String, String)>> {
    let mut chars = text.chars().peekable();
    let mut out = Vec::new();
    let skip_space = |chars: &mut std::iter::Peekable<std::str::Chars>| {
        while chars.peek().is_some_and(|c| is_space(*c)) {
            chars.next();
        }
    };
    loop {
        skip_space(&mut chars);
        if chars.peek().is_none() {
            return Some(out);
        }
        let mut key = String::new();
        while let Some(&c) = chars.peek() {
            if c == '=' || is_space(c) {
                break;
            }
            key.push(c);
            chars.next();
        }
        skip_space(&mut chars);
        if chars.next() != Some('=') {
            return None;
        }
        skip_space(&mut chars);
        let mut value = String::new();
        if chars.peek() == Some(&'\'') {
            chars.next();
            loop {
                match chars.next()? {
                    '\\' => value.extend(chars.next()),
                    '\'' => break,
                    c => value.push(c),
                }
            }
        } else {
            while let Some(c) = chars.next() {
                match c {
                    c if is_space(c) => break,
                    '\\' => value.extend(chars.next()),
                    c => value.push(c),
                }
            }
        }
        out.push((key, value));
    }
}

/// libpq's percent-decoding: `%` needs two hex digits, and `%00` is
/// refused.
fn decode(text: &str) -> Result<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3).ok_or_else(malformed)?;
            let byte = u8::from_str_radix(hex, 16).map_err(|_| malformed())?;
            if byte == 0 || hex.starts_with(['+', '-']) {
                return Err(malformed());
            }
            out.push(byte);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| malformed())
}

/// Where a standby's `primary_conninfo` points: `host:port` and nothing
/// else (the setting can hold a password, which must never be shown).
pub fn primary_from_conninfo(conninfo: &str) -> Option<String> {
    let pairs = parse_key_values(conninfo)?;
    let value = |key: &str| {
        pairs
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
            .filter(|v| !v.is_empty())
    };
    let host = value("host").or_else(|| value("hostaddr"))?;
    let port = value("port").unwrap_or_else(|| "5432".to_string());
    Some(format!("{host}:{port}"))
}

#[cfg(test)]
#[path = "conninfo_tests.rs"]
mod tests;
