//! Connection errors as sentences for a human at 3 a.m.: what failed and
//! the next step. Text that comes from elsewhere (the server, the crates)
//! is scrubbed of the passwords; our own text cannot hold one. The
//! original error is not passed on: its text is not ours to trust.

use super::dial::Failure;
use super::hosts::HostSpec;
use super::{PasswordSource, Settings};
use crate::db_failure::DbFailure;

impl Settings {
    /// Replaces every secret in `text` with `********` where it stands as
    /// a whole word: text that merely contains a password's characters
    /// (a user `anna` and a password `nn`) is left alone.
    pub fn redact(&self, text: &str) -> String {
        let mut text = text.to_string();
        for secret in &self.secrets {
            text = replace_whole(&text, secret);
        }
        text
    }

    /// Every attempt failed: one error naming each, in order.
    pub(super) fn all_failed(&self, failures: &[String]) -> anyhow::Error {
        let what = match failures {
            [] => "no host to try".to_string(),
            [one] => one.clone(),
            many => many.join("; then "),
        };
        anyhow::anyhow!(
            "could not connect to {} (sslmode={}): {what}",
            self.describe(),
            self.ssl_mode
        )
    }

    /// One attempt's failure as a sentence with the next step.
    pub(super) fn sentence(&self, failure: &Failure, host: &HostSpec) -> String {
        match failure {
            Failure::Timeout => format!(
                "no answer within {:?} (connect timeout). Next step: check the host and port \
                 and any firewall in between, or allow longer with --connect-timeout",
                self.connect_timeout
            ),
            Failure::TlsSetup(why) => format!("TLS: {}", self.redact(why)),
            Failure::Postgres { err, .. } => {
                let source = host
                    .password
                    .as_ref()
                    .map(|(_, s)| s.clone())
                    .unwrap_or(PasswordSource::None);
                if let Some(db) = err.as_db_error() {
                    let said = format!("the server said \"{}\"", self.redact(db.message()));
                    let failure = crate::db::errors::failure_of(err);
                    return format!("{said}. {}", server_hint(db, failure, &source));
                }
                self.transport_hint(err, host)
                    .unwrap_or_else(|| self.crate_error_hint(err))
            }
        }
    }

    /// A TLS failure or a network cause anywhere in the error's chain.
    fn transport_hint(&self, err: &postgres::Error, host: &HostSpec) -> Option<String> {
        let mut source: Option<&(dyn std::error::Error + 'static)> = Some(err);
        while let Some(cause) = source {
            if let Some(tls) = cause.downcast_ref::<rustls::Error>() {
                return Some(self.tls_hint(tls, host));
            }
            if let Some(io) = cause.downcast_ref::<std::io::Error>() {
                if let Some(tls) = io.get_ref().and_then(|e| e.downcast_ref::<rustls::Error>()) {
                    return Some(self.tls_hint(tls, host));
                }
                match io.kind() {
                    std::io::ErrorKind::ConnectionRefused => {
                        return Some(
                            "connection refused: no server listens there. Next step: check \
                             the host and port (URL or PGHOST/PGPORT) and that the server \
                             is running."
                                .to_string(),
                        );
                    }
                    std::io::ErrorKind::NotFound => {
                        return Some(
                            "no server socket in that directory. Next step: check PGHOST \
                             (the socket directory) and PGPORT, and that the server is \
                             running."
                                .to_string(),
                        );
                    }
                    std::io::ErrorKind::TimedOut => {
                        return Some(
                            "timed out. Next step: check the host, port and firewall, or \
                             allow longer with --connect-timeout."
                                .to_string(),
                        );
                    }
                    _ => {}
                }
            }
            source = cause.source();
        }
        None
    }

    /// The postgres crate's own words, for errors neither the server nor
    /// the network explain.
    fn crate_error_hint(&self, err: &postgres::Error) -> String {
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
        } else if text.contains("bytes remaining on stream")
            || text.contains("unexpected message from server")
        {
            // What answered is not PostgreSQL (an HTTP server, say): psql's
            // words for it, by sslmode.
            let psql = if self.ssl_mode.as_str() == "disable" {
                "expected authentication request from server, but received something else"
            } else {
                "received invalid response to SSL negotiation"
            };
            format!(
                "{psql}: what listens there does not speak PostgreSQL's protocol (an HTTP \
                 server or another service on that port?). Next step: check the host and port \
                 (PostgreSQL's default is 5432), then `pushleft-controller doctor`."
            )
        } else if text.contains("password missing") {
            "the server asks for a password and none was given. Next step: put it in \
             ~/.pgpass (mode 0600) or PGPASSWORD."
                .to_string()
        } else {
            format!(
                "{}. Next step: check the connection settings (see `doctor`).",
                self.redact(&text)
            )
        }
    }

    fn tls_hint(&self, err: &rustls::Error, host: &HostSpec) -> String {
        use rustls::CertificateError;
        match err {
            rustls::Error::InvalidCertificate(CertificateError::UnknownIssuer) => format!(
                "TLS: the server's certificate is not signed by a trusted root ({}). Next \
                 step: set sslrootcert (or PGSSLROOTCERT) to the CA that signs the server's \
                 certificate, and make sure this is the server you meant.",
                self.tls.roots
            ),
            rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            ) => format!(
                "TLS: the server's certificate is not valid for the host name \"{}\" \
                 (sslmode=verify-full checks it). Next step: connect with the name the \
                 certificate carries, or make sure this is the server you meant.",
                host.label()
            ),
            other => format!(
                "TLS handshake failed: {}. Next step: check sslmode and sslrootcert \
                 against the server's certificate.",
                self.redact(&other.to_string())
            ),
        }
    }

    /// `field` itself, or `********` when it is a password (never part
    /// of one: see [`Settings::redact`]).
    pub(super) fn mask(&self, field: &str) -> String {
        if self.secrets.iter().any(|s| s == field) {
            "********".to_string()
        } else {
            field.to_string()
        }
    }
}

/// The next step for an error the server sent (by the SQLSTATE's kind).
fn server_hint(
    db: &postgres::error::DbError,
    failure: DbFailure,
    source: &PasswordSource,
) -> String {
    match failure {
        DbFailure::InvalidPassword => {
            format!("Next step: check the password (it came from {source}).")
        }
        // One SQLSTATE for both: only the server's words tell them apart.
        DbFailure::NotAuthorized if db.message().contains("no encryption") => {
            "Next step: the server only accepts TLS here: use sslmode=require (or \
             verify-full) in the URL or PGSSLMODE."
                .to_string()
        }
        DbFailure::NotAuthorized => {
            "Next step: the server's pg_hba.conf refuses this user, database or address; ask \
             the database owner, or check PGUSER/PGDATABASE."
                .to_string()
        }
        DbFailure::UnknownDatabase => {
            "Next step: check the database name (dbname in the URL or PGDATABASE).".to_string()
        }
        DbFailure::NotAcceptingConnections => {
            "Next step: the server is starting or stopping; retry in a moment.".to_string()
        }
        DbFailure::TooManyConnections => {
            "Next step: the server is out of connections; retry shortly.".to_string()
        }
        _ => "Next step: fix what the server says, then retry.".to_string(),
    }
}

/// `text` with each whole-word occurrence of `secret` replaced: the
/// characters on either side must not be letters or digits.
fn replace_whole(text: &str, secret: &str) -> String {
    if secret.is_empty() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(secret) {
        let before = rest[..at].chars().next_back().or(out.chars().next_back());
        let after = rest[at + secret.len()..].chars().next();
        let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
        out.push_str(&rest[..at]);
        if word(before) || word(after) {
            out.push_str(secret);
        } else {
            out.push_str("********");
        }
        rest = &rest[at + secret.len()..];
    }
    out.push_str(rest);
    out
}

/// The texts to scrub: each password as given and percent-encoded (the
/// form it takes in a URL), longest first so that a secret containing
/// another is replaced whole.
pub(super) fn secrets_to_redact(mut secrets: Vec<String>) -> Vec<String> {
    let encoded: Vec<String> = secrets.iter().map(|s| percent_encode(s)).collect();
    secrets.extend(encoded);
    secrets.retain(|s| !s.is_empty());
    secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
    secrets.dedup();
    secrets
}

fn percent_encode(text: &str) -> String {
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
#[path = "error_text_tests.rs"]
mod tests;
