//! Opening a session as libpq 15 does: each host in order, each of its
//! addresses in order, `connect_timeout` per address; a host that cannot
//! be reached (or does not suit `target_session_attrs`) moves on to the
//! next, while an answer from a server (authentication, a missing
//! database) or a failed TLS check stops there.

use std::time::Duration;

use anyhow::Result;
use postgres::{Client, Config};

use super::attempt::Outcome;
use super::hosts::HostSpec;
use super::{APPLICATION_NAME, Reached, SessionAttrs, Settings};

/// The startup options of a reading session (a backslash keeps the space
/// in the value).
const READ_ONLY_DEFAULTS: &str =
    " -c default_transaction_read_only=on -c default_transaction_isolation=repeatable\\ read";

impl Settings {
    /// The `-c` options every session starts with: `statement_timeout`,
    /// `lock_timeout` and `idle_in_transaction_session_timeout`, and the
    /// session hygiene of SPEC step 9, `search_path=pg_catalog,pg_temp`
    /// and `jit=off` (ours win over any `options=` / `PGOPTIONS`, which stay
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
        match &self.options {
            Some(theirs) if !theirs.trim().is_empty() => format!("{theirs} {ours}"),
            _ => ours,
        }
    }

    /// Opens a session with the session settings of SPEC.md "Connecting".
    /// `lock_timeout` is the one a command wants for its row locks.
    pub fn connect(&self, lock_timeout: Duration) -> Result<Client> {
        self.connect_reporting(lock_timeout)
            .map(|(client, _)| client)
    }

    /// A session for commands that only read: [`Settings::connect`] whose
    /// transactions are `REPEATABLE READ READ ONLY` by default, so a read
    /// that is one statement needs no BEGIN and no COMMIT, one round trip
    /// in all (`db::session::read_in_one_statement` checks that the
    /// defaults took). Not with `target_session_attrs=read-write` or
    /// `read-only`: libpq decides those by `transaction_read_only`, which
    /// these defaults would change; such sessions read in an explicit
    /// transaction instead.
    pub fn connect_for_reading(&self, lock_timeout: Duration) -> Result<Client> {
        let mut options = self.session_options(lock_timeout);
        if !matches!(
            self.session_attrs,
            SessionAttrs::ReadWrite | SessionAttrs::ReadOnly
        ) {
            options.push_str(READ_ONLY_DEFAULTS);
        }
        self.connect_with(&options).map(|(client, _)| client)
    }

    /// [`Settings::connect`], and the server it really reached.
    pub fn connect_reporting(&self, lock_timeout: Duration) -> Result<(Client, Reached)> {
        self.connect_with(&self.session_options(lock_timeout))
    }

    fn connect_with(&self, options: &str) -> Result<(Client, Reached)> {
        let passes = match self.session_attrs {
            // libpq: standbys first, then anything.
            SessionAttrs::PreferStandby => vec![SessionAttrs::Standby, SessionAttrs::Any],
            other => vec![other],
        };
        let mut failures = Vec::new();
        for want in &passes {
            for host in &self.hosts {
                match self.try_host(host, *want, options, &mut failures) {
                    Outcome::Connected(client, reached) => return Ok((*client, reached)),
                    Outcome::Stop(why) => {
                        failures.push(why);
                        return Err(self.all_failed(&failures));
                    }
                    Outcome::NextAddress(why) | Outcome::NextHost(why) => failures.push(why),
                }
            }
        }
        Err(self.all_failed(&failures))
    }

    /// The configuration every attempt starts from: who, which database,
    /// the session options and the socket settings.
    pub(super) fn base_config(&self, host: &HostSpec, options: &str) -> Config {
        let mut config = Config::new();
        config
            .user(&self.user)
            .dbname(&self.dbname)
            .application_name(APPLICATION_NAME)
            .options(options)
            .channel_binding(self.channel_binding);
        if let Some((password, _)) = &host.password {
            config.password(password);
        }
        let k = &self.keepalives;
        config.keepalives(!k.off);
        if let Some(idle) = k.idle {
            config.keepalives_idle(idle);
        }
        if let Some(interval) = k.interval {
            config.keepalives_interval(interval);
        }
        if let Some(count) = k.count {
            config.keepalives_retries(count);
        }
        if let Some(timeout) = k.tcp_user_timeout {
            config.tcp_user_timeout(timeout);
        }
        config
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
        let s = resolve(Some("host=h"), &[("PGOPTIONS", "-c work_mem=8MB")]).unwrap();
        assert!(
            s.session_options(Duration::from_secs(5))
                .starts_with("-c work_mem=8MB -c")
        );
    }
}
