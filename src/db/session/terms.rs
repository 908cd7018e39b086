//! What a transaction states and what is checked in force once it is
//! pinned: its terms (isolation level and access mode), the settings every
//! transaction pins, and the check that they took effect (`pin` opens the
//! transaction with them).

use std::collections::HashMap;
use std::time::Duration;

use super::Timeouts;
use crate::db::sql;

/// The search path every transaction runs with: nothing a database user
/// created can shadow what we call.
pub const SEARCH_PATH: &str = "pg_catalog, pg_temp";

/// How often a backend checks, while a statement runs, that its client is
/// still there (PostgreSQL 14+), in milliseconds.
pub const CLIENT_CHECK_INTERVAL_MS: u64 = 1000;

/// The terms a transaction states in its `START TRANSACTION`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Terms {
    /// `REPEATABLE READ, READ ONLY`: every read of a command sees one
    /// instant, and the database itself refuses any write.
    Snapshot,
    /// `READ COMMITTED, READ WRITE`: fail-safely's. Each statement sees
    /// what committed before it started, so what it reads after its row
    /// locks are granted is current; under a repeatable-read snapshot taken
    /// before the lock wait, a dispatch committed during the wait would be
    /// invisible.
    LockAndWrite,
}

impl Terms {
    fn isolation(self) -> &'static str {
        match self {
            Terms::Snapshot => "repeatable read",
            Terms::LockAndWrite => "read committed",
        }
    }

    fn read_only(self) -> bool {
        self == Terms::Snapshot
    }

    /// The first message of a transaction on these terms.
    pub(super) fn begin_script(self, timeouts: &Timeouts) -> String {
        let ms = |d: Duration| crate::duration::millis(d).max(1).to_string();
        sql::session::BEGIN
            .text
            .replace(":isolation", &self.isolation().to_uppercase())
            .replace(
                ":access",
                if self.read_only() {
                    "READ ONLY"
                } else {
                    "READ WRITE"
                },
            )
            .replace(":statement_timeout_ms", &ms(timeouts.statement))
            .replace(":lock_timeout_ms", &ms(timeouts.lock))
            .replace(
                ":idle_in_transaction_timeout_ms",
                &ms(timeouts.idle_in_transaction),
            )
    }
}

/// A setting as the server reported it right after the pin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    pub value: String,
    /// `pg_settings.source`: default, configuration file, database, user,
    /// database user, client, session, ...
    pub source: String,
}

/// What was in force in a transaction once it was pinned.
#[derive(Debug, Clone, Default)]
pub struct InForce(pub(super) HashMap<String, Setting>);

impl InForce {
    pub fn get(&self, name: &str) -> Option<&Setting> {
        self.0.get(name)
    }

    /// The value of `name` ("" when the server does not have it).
    pub fn value(&self, name: &str) -> &str {
        self.get(name).map(|s| s.value.as_str()).unwrap_or("")
    }

    pub fn in_recovery(&self) -> bool {
        self.value("in_recovery") == "true"
    }

    pub fn server_version_num(&self) -> i32 {
        self.value("server_version_num").parse().unwrap_or(0)
    }

    /// Why these settings are not what a transaction on `terms` with
    /// `timeouts` must run with, if they are not: a pooler or proxy that
    /// rewrote or dropped a SET, say.
    pub fn mismatch(&self, terms: Terms, timeouts: &Timeouts) -> Option<String> {
        if let Some(role) = self.get("session_replication_role")
            && role.value != "origin"
        {
            return Some(format!(
                "this session runs with session_replication_role = {} (set {}): in it no \
                 trigger fires, not even the ones that protect the audit trail, so \
                 pushleft-controller does not work in it. Remove it where it was set \
                 (options= in the database URL, PGOPTIONS, ALTER ROLE / ALTER DATABASE ... \
                 SET) and rerun. Nothing was written",
                role.value,
                origin(role)
            ));
        }
        let ms = |d: Duration| crate::duration::millis(d).max(1).to_string();
        let path: String = self.value("search_path").split_whitespace().collect();
        let mut wrong = Vec::new();
        if path != SEARCH_PATH.replace(' ', "") {
            wrong.push(format!("search_path = {}", self.value("search_path")));
        }
        let expected = [
            ("jit", "off".to_string()),
            ("standard_conforming_strings", "on".to_string()),
            ("transaction_isolation", terms.isolation().to_string()),
            (
                "transaction_read_only",
                if terms.read_only() { "on" } else { "off" }.to_string(),
            ),
            ("statement_timeout", ms(timeouts.statement)),
            ("lock_timeout", ms(timeouts.lock)),
            (
                "idle_in_transaction_session_timeout",
                ms(timeouts.idle_in_transaction),
            ),
        ];
        for (name, want) in expected {
            if self.value(name) != want {
                wrong.push(format!("{name} = {}", self.value(name)));
            }
        }
        if let Some(check) = self.get("client_connection_check_interval")
            && check.value != CLIENT_CHECK_INTERVAL_MS.to_string()
        {
            wrong.push(format!(
                "client_connection_check_interval = {}",
                check.value
            ));
        }
        (!wrong.is_empty()).then(|| {
            format!(
                "the transaction's settings did not take effect ({}), so code a database user \
                 created could run in our place, or a lock wait could outlast its timeout. \
                 Check for a connection pooler or proxy rewriting SET; nothing was written",
                wrong.join(", ")
            )
        })
    }
}

/// Where a setting's value comes from, in the words of the command that
/// set it (`pg_settings.source`).
pub fn origin(setting: &Setting) -> String {
    match setting.source.as_str() {
        "database" => "for this database (ALTER DATABASE ... SET)".to_string(),
        "user" => "for this role (ALTER ROLE ... SET)".to_string(),
        "database user" => {
            "for this role in this database (ALTER ROLE ... IN DATABASE ... SET)".to_string()
        }
        "configuration file" => {
            "in the server's configuration (postgresql.conf or ALTER SYSTEM)".to_string()
        }
        "client" => "in the connection's options (options= in the URL, or PGOPTIONS)".to_string(),
        "session" => "in this server session by an earlier client (SET)".to_string(),
        "default" => "as the server's built-in default".to_string(),
        other => format!("by the server ({other})"),
    }
}

#[cfg(test)]
#[path = "terms_tests.rs"]
mod tests;
