//! Opening a session: the session settings every connection gets, TLS
//! per `sslmode`, and a deadline over the whole attempt.

use std::time::Duration;

use anyhow::{Context, Result};
use postgres::{Client, Config};

use super::tls::tls_config;
use super::{Settings, SslMode};

impl Settings {
    /// The `-c` options every session starts with: `statement_timeout`,
    /// `lock_timeout` and `idle_in_transaction_session_timeout`, and the
    /// session hygiene of SPEC step 9, `search_path=pg_catalog,pg_temp`
    /// and `jit=off` (ours win over any `options=` of the URL, which stay
    /// in force otherwise). A pooler may drop startup options: every
    /// transaction sets and checks the hygiene again
    /// (`db::session::harden`), and `doctor` says when they were dropped.
    /// `session_replication_role` is not set here (only a superuser may):
    /// it is checked instead, and the tool refuses unless it is `origin`.
    pub fn session_options(&self, lock_timeout: Duration) -> String {
        let ours = format!(
            "-c statement_timeout={} -c lock_timeout={} -c idle_in_transaction_session_timeout={} \
             -c search_path=pg_catalog,pg_temp -c jit=off",
            self.statement_timeout.as_millis(),
            lock_timeout.as_millis(),
            self.idle_in_transaction_timeout.as_millis()
        );
        match self.config.get_options() {
            Some(theirs) if !theirs.trim().is_empty() => format!("{theirs} {ours}"),
            _ => ours,
        }
    }

    /// Opens a session with the session settings of SPEC.md "Connecting".
    /// `lock_timeout` is the one a command wants for its row locks.
    pub fn connect(&self, lock_timeout: Duration) -> Result<Client> {
        let mut config = self.config.clone();
        config.options(&self.session_options(lock_timeout));
        config.connect_timeout(self.connect_timeout);
        let tls = self.tls_for(&mut config)?;
        // The crate's connect_timeout covers each host's TCP handshake only;
        // a thread and a deadline bound the whole attempt (TLS and login too).
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

    /// Sets `config`'s sslmode to what the postgres crate should do and
    /// returns the rustls configuration to do it with (`None`: no TLS).
    fn tls_for(&self, config: &mut Config) -> Result<Option<rustls::ClientConfig>> {
        Ok(if self.is_unix_socket() {
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
        })
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crate::db::connect::test_support::resolve;

    #[test]
    fn session_options_keep_the_urls_and_put_ours_last() {
        let s = resolve(Some("host=h options='-c search_path=cp'"), &[]).unwrap();
        assert_eq!(
            s.session_options(Duration::from_secs(5)),
            "-c search_path=cp -c statement_timeout=30000 -c lock_timeout=5000 \
             -c idle_in_transaction_session_timeout=60000 \
             -c search_path=pg_catalog,pg_temp -c jit=off"
        );
    }
}
