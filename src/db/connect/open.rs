//! Opening a session as libpq 15 does: each host in order, each of its
//! addresses in order, `connect_timeout` per address; a host that cannot
//! be reached (or does not suit `target_session_attrs`) moves on to the
//! next, while an answer from a server (authentication, a missing
//! database) or a failed TLS check stops there.

use std::time::Duration;

use anyhow::Result;
use tokio_postgres::Config;

use super::dial::Outcome;
use super::hosts::HostSpec;
use super::{APPLICATION_NAME, Reached, SessionAttrs, Settings};
use crate::db::session::{Link, Session, Timeouts};

impl Settings {
    /// The startup `options` sent: exactly the user's own (`options=` in
    /// the URL, `PGOPTIONS`), as psql sends them, and none of the tool's.
    /// A pooler may refuse the parameter (pgbouncer's default) or drop it,
    /// so nothing the tool needs travels there: every transaction states
    /// its terms and pins its settings itself (`db::session::begin`).
    pub fn session_options(&self) -> String {
        self.options.clone().unwrap_or_default()
    }

    /// The limits every transaction of a session sets for itself, with the
    /// command's own `lock_timeout` for its row locks.
    pub fn timeouts(&self, lock_timeout: Duration) -> Timeouts {
        Timeouts {
            statement: self.statement_timeout,
            lock: lock_timeout,
            idle_in_transaction: self.idle_in_transaction_timeout,
        }
    }

    /// Opens a session with the session settings of README "Connecting".
    /// `lock_timeout` is the one a command wants for its row locks.
    pub fn connect(&self, lock_timeout: Duration) -> Result<Session> {
        self.connect_reporting(lock_timeout)
            .map(|(session, _)| session)
    }

    /// [`Settings::connect`], and the server it really reached.
    pub fn connect_reporting(&self, lock_timeout: Duration) -> Result<(Session, Reached)> {
        let (client, reached) = self.connect_with(&self.session_options())?;
        Ok((Session::new(client, self.timeouts(lock_timeout)), reached))
    }

    fn connect_with(&self, options: &str) -> Result<(Link, Reached)> {
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
            .channel_binding(self.channel_binding);
        if let Some((password, _)) = &host.password {
            config.password(password);
        }
        if !options.trim().is_empty() {
            config.options(options);
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
#[path = "open_tests.rs"]
mod tests;
