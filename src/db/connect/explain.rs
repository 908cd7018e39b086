//! Connection errors as sentences for a human at 3 a.m.: what failed and
//! the next step, with every secret scrubbed out. The original error is
//! not passed on: its text is not ours to trust.

use super::Settings;
use super::conninfo::percent_encode;

impl Settings {
    /// Replaces every secret in `text` with `********`.
    pub fn redact(&self, text: &str) -> String {
        let mut text = text.to_string();
        for secret in &self.secrets {
            text = text.replace(secret.as_str(), "********");
        }
        text
    }

    /// A connection error as a sentence for a human at 3 a.m.: what failed
    /// and the next step, scrubbed of every secret. The original error is
    /// not kept in the chain: its text is not ours to trust.
    pub(super) fn explain(&self, err: &postgres::Error) -> anyhow::Error {
        let what = self.cause_and_hint(err);
        anyhow::anyhow!(self.redact(&format!(
            "could not connect to {} (sslmode={}): {what}",
            self.describe(),
            self.ssl_mode
        )))
    }

    /// What went wrong and the next step, from the most telling part of
    /// the error: the server's answer, else a TLS or network cause, else
    /// the crate's own words.
    fn cause_and_hint(&self, err: &postgres::Error) -> String {
        if let Some(db) = err.as_db_error() {
            let said = format!("the server said \"{}\"", db.message());
            let hint = self.server_hint(db);
            return format!("{said}. {hint}");
        }
        if let Some(hint) = self.transport_hint(err) {
            return hint;
        }
        self.crate_error_hint(err)
    }

    /// The next step for an error the server sent (by SQLSTATE).
    fn server_hint(&self, db: &postgres::error::DbError) -> String {
        use postgres::error::SqlState;
        let code = db.code();
        if *code == SqlState::INVALID_PASSWORD {
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
        }
    }

    /// A TLS failure or a network cause anywhere in the error's chain.
    fn transport_hint(&self, err: &postgres::Error) -> Option<String> {
        let mut source: Option<&(dyn std::error::Error + 'static)> = Some(err);
        while let Some(cause) = source {
            if let Some(tls) = cause.downcast_ref::<rustls::Error>() {
                return Some(self.tls_hint(tls));
            }
            if let Some(io) = cause.downcast_ref::<std::io::Error>() {
                if let Some(tls) = io.get_ref().and_then(|e| e.downcast_ref::<rustls::Error>()) {
                    return Some(self.tls_hint(tls));
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
                    std::io::ErrorKind::NotFound if self.is_unix_socket() => {
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

/// The texts to scrub from every message: each secret as given and
/// percent-encoded (the form it takes in a URL), longest first so that a
/// secret containing another is replaced whole.
pub(super) fn secrets_to_redact(mut secrets: Vec<String>) -> Vec<String> {
    // Percent-encoded, a password could reach a message in that form.
    let encoded: Vec<String> = secrets.iter().map(|s| percent_encode(s)).collect();
    secrets.extend(encoded);
    secrets.retain(|s| !s.is_empty());
    secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
    secrets.dedup();
    secrets
}

#[cfg(test)]
mod tests {
    use crate::db::connect::PasswordSource;
    use crate::db::connect::test_support::resolve;

    #[test]
    fn secrets_are_redacted_from_descriptions() {
        // A mistyped URL can put part of a password where the host goes.
        let s = resolve(Some("host=s3cr3tpw dbname=d password=s3cr3tpw"), &[]).unwrap();
        assert!(!s.describe().contains("s3cr3tpw"), "{}", s.describe());
        assert!(!format!("{s:?}").contains("s3cr3tpw"));
        assert_eq!(s.password_source(), &PasswordSource::Url);
    }
}
