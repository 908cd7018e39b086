//! Opening a transaction on the tool's own terms (README, "Connecting"):
//! one message that starts it with its isolation level and access mode
//! spelled out and pins every setting, then a check of what is in force
//! before anything else is sent.

use std::collections::HashMap;
use std::time::Duration;

use anyhow::{Context, Result, anyhow};
use postgres::{Client, SimpleQueryMessage};

use super::Timeouts;
use crate::db::sql::{self, Conn};
use crate::exit;

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
    fn begin_script(self, timeouts: &Timeouts) -> String {
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
pub struct InForce(HashMap<String, Setting>);

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

/// A transaction the tool opened on its own terms ([`Terms`]), every
/// setting pinned and checked. Rolled back when dropped unfinished.
pub struct Pinned<'a> {
    client: &'a mut Client,
    in_force: InForce,
    done: bool,
}

impl Conn for Pinned<'_> {
    fn client(&mut self) -> &mut Client {
        self.client
    }
}

impl Pinned<'_> {
    /// What was in force once the transaction was pinned.
    pub fn in_force(&self) -> &InForce {
        &self.in_force
    }

    /// Runs a script (several statements, no parameters) in the
    /// transaction.
    pub fn batch_execute(&mut self, script: &str) -> Result<(), postgres::Error> {
        self.client.batch_execute(script)
    }

    pub fn commit(mut self) -> Result<(), postgres::Error> {
        self.done = true;
        self.client.batch_execute("COMMIT")
    }

    pub fn rollback(mut self) -> Result<(), postgres::Error> {
        self.done = true;
        self.client.batch_execute("ROLLBACK")
    }
}

impl Drop for Pinned<'_> {
    fn drop(&mut self) {
        if !self.done {
            // On an error path: the error that got us here is what the
            // operator needs; a failed ROLLBACK (connection gone) changes
            // nothing, the server rolls back an abandoned transaction.
            let _ = self.client.batch_execute("ROLLBACK");
        }
    }
}

/// Opens a transaction on `terms`: one round trip that starts it and pins
/// the settings, then the check of what is in force. Refuses (exit 4)
/// when a setting did not take, when triggers cannot be made to fire, and
/// behind a pooler in statement mode.
///
/// `fresh`: the session's first transaction. pgbouncer in statement
/// pooling mode lets the first message through and then closes the
/// connection because it left a transaction open, mostly without saying
/// why; so the first transaction of a session sends one more (empty)
/// message at once, and a connection closed at that point is that pooler.
pub fn begin<'a>(
    client: &'a mut Client,
    terms: Terms,
    timeouts: &Timeouts,
    fresh: bool,
) -> Result<Pinned<'a>> {
    let pinned = begin_unchecked(client, terms, timeouts, fresh)?;
    if let Some(why) = pinned.in_force.mismatch(terms, timeouts) {
        return Err(exit::refused(why));
    }
    Ok(pinned)
}

/// [`begin`] without refusing what is in force: for `doctor`, which
/// reports it (and then runs nothing else in such a transaction).
pub fn begin_unchecked<'a>(
    client: &'a mut Client,
    terms: Terms,
    timeouts: &Timeouts,
    fresh: bool,
) -> Result<Pinned<'a>> {
    let messages = match client.simple_query(&terms.begin_script(timeouts)) {
        Ok(messages) => messages,
        Err(err) => {
            // The transaction may be open and aborted; end it before
            // saying why.
            let _ = client.batch_execute("ROLLBACK");
            return Err(refusal_for_begin(err, fresh));
        }
    };
    if fresh && let Err(err) = client.batch_execute("") {
        let _ = client.batch_execute("ROLLBACK");
        return Err(refusal_for_begin(err, true));
    }
    let mut in_force = HashMap::new();
    for message in messages {
        // The set_config statements answer with rows of one column; what
        // is in force comes as (name, setting, source).
        if let SimpleQueryMessage::Row(row) = message
            && row.len() == 3
        {
            let field = |i: usize| row.try_get(i).ok().flatten().unwrap_or("").to_string();
            in_force.insert(
                field(0),
                Setting {
                    value: field(1),
                    source: field(2),
                },
            );
        }
    }
    let pinned = Pinned {
        client,
        in_force: InForce(in_force),
        done: false,
    };
    if pinned.in_force.0.is_empty() {
        return Err(anyhow!(
            "sql/session/begin.sql reported no settings; nothing was written"
        ));
    }
    Ok(pinned)
}

/// Why the first message of a transaction or the empty one after it
/// failed, in words that say what to do: statement pooling, triggers that
/// cannot be made to fire; any other error as it is. `fresh`: the
/// session's first transaction, whose connection was opened a moment ago.
fn refusal_for_begin(err: postgres::Error, fresh: bool) -> anyhow::Error {
    let message = err
        .as_db_error()
        .map(|db| db.message().to_string())
        .unwrap_or_else(|| err.to_string());
    // A connection opened a moment ago that closes as soon as a
    // transaction is left open is a statement pool's doing (pgbouncer
    // closes it on the first message's answer, before or after passing
    // that answer on).
    let closed_after_begin = fresh && (err.is_closed() || err.as_db_error().is_none());
    if message.contains("statement pooling") || closed_after_begin {
        let seen = if message.contains("statement pooling") {
            format!("the pooler says: {message}")
        } else {
            "the connection closed as soon as the first transaction was opened, which is what \
             pgbouncer in statement pooling mode does; with no pooler in between, the server \
             dropped the connection at that moment"
                .to_string()
        };
        return exit::refused(format!(
            "the connection goes through a pooler in statement pooling mode ({seen}): every \
             command of pushleft-controller runs a transaction of several statements (one \
             snapshot for a read; lock, decide, write and check for fail-safely), which \
             statement pooling cannot carry. Nothing was written. Connect directly, or through \
             a pool in session or transaction mode (pgbouncer pool_mode = session or \
             transaction); `pushleft-controller doctor` shows what is in between"
        ));
    }
    if message.contains("session_replication_role") {
        return exit::refused(format!(
            "this session runs with session_replication_role set to something other than \
             origin, and this role may not set it back ({message}): in it no trigger fires, \
             not even the ones that protect the audit trail, so pushleft-controller does not \
             work in it. It comes from the connection's options (options= in the database URL, \
             PGOPTIONS), from ALTER ROLE / ALTER DATABASE ... SET, or from another client of a \
             connection pool; remove it and rerun. Nothing was written"
        ));
    }
    anyhow::Error::new(err).context("opening a transaction (sql/session/begin.sql)")
}

/// The one statement libpq's `target_session_attrs` check needs, run in a
/// pinned transaction of its own that is rolled back: whether a new
/// transaction here is read-only by default, and whether the server is a
/// standby.
pub fn session_attrs(client: &mut Client, timeouts: &Timeouts) -> Result<(bool, bool)> {
    // Not on a snapshot's terms: read-only is what is asked about, so the
    // transaction must not state it.
    let script = sql::connect::SESSION_ATTRS.text.replace(
        ":statement_timeout_ms",
        &timeouts.statement.as_millis().max(1).to_string(),
    );
    let messages = client
        .simple_query(&script)
        .context("checking target_session_attrs")?;
    let row = messages
        .iter()
        .find_map(|m| match m {
            SimpleQueryMessage::Row(row) => Some(row),
            _ => None,
        })
        .ok_or_else(|| anyhow!("sql/connect/session_attrs.sql returned no row"))?;
    let field = |i: usize| row.try_get(i).ok().flatten();
    Ok((field(0) == Some("on"), field(1) == Some("true")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn in_force(pairs: &[(&str, &str)]) -> InForce {
        InForce(
            pairs
                .iter()
                .map(|(name, value)| {
                    (
                        name.to_string(),
                        Setting {
                            value: value.to_string(),
                            source: "session".into(),
                        },
                    )
                })
                .collect(),
        )
    }

    fn pinned_snapshot() -> Vec<(&'static str, &'static str)> {
        vec![
            ("search_path", "pg_catalog, pg_temp"),
            ("jit", "off"),
            ("standard_conforming_strings", "on"),
            ("session_replication_role", "origin"),
            ("transaction_isolation", "repeatable read"),
            ("transaction_read_only", "on"),
            ("statement_timeout", "30000"),
            ("lock_timeout", "5000"),
            ("idle_in_transaction_session_timeout", "60000"),
            ("client_connection_check_interval", "1000"),
        ]
    }

    #[test]
    fn only_the_settings_asked_for_pass() {
        let timeouts = Timeouts::default();
        assert_eq!(
            in_force(&pinned_snapshot()).mismatch(Terms::Snapshot, &timeouts),
            None
        );
        let why = in_force(&pinned_snapshot())
            .mismatch(Terms::LockAndWrite, &timeouts)
            .unwrap();
        assert!(
            why.contains("transaction_isolation = repeatable read"),
            "{why}"
        );
        assert!(why.contains("transaction_read_only = on"), "{why}");
        for (name, bad) in [
            ("search_path", "public, pg_catalog"),
            ("jit", "on"),
            ("lock_timeout", "0"),
            ("client_connection_check_interval", "0"),
        ] {
            let mut settings = pinned_snapshot();
            settings.retain(|(n, _)| *n != name);
            settings.push((name, bad));
            let why = in_force(&settings)
                .mismatch(Terms::Snapshot, &timeouts)
                .unwrap_or_else(|| panic!("{name} = {bad} passed"));
            assert!(why.contains(&format!("{name} = {bad}")), "{why}");
        }
        let mut settings = pinned_snapshot();
        settings.retain(|(n, _)| *n != "session_replication_role");
        settings.push(("session_replication_role", "replica"));
        let why = in_force(&settings)
            .mismatch(Terms::Snapshot, &timeouts)
            .unwrap();
        assert!(why.contains("session_replication_role = replica"), "{why}");
        assert!(why.contains("no trigger fires"), "{why}");
        // A server without client_connection_check_interval (13) is fine.
        let mut settings = pinned_snapshot();
        settings.retain(|(n, _)| *n != "client_connection_check_interval");
        assert_eq!(
            in_force(&settings).mismatch(Terms::Snapshot, &timeouts),
            None
        );
    }

    #[test]
    fn the_script_states_its_terms_and_numbers_only() {
        let timeouts = Timeouts {
            statement: Duration::from_secs(30),
            lock: Duration::from_millis(1500),
            idle_in_transaction: Duration::from_secs(60),
        };
        let write = Terms::LockAndWrite.begin_script(&timeouts);
        assert!(write.contains("START TRANSACTION ISOLATION LEVEL READ COMMITTED, READ WRITE;"));
        assert!(write.contains("lock_timeout = 1500;"));
        let read = Terms::Snapshot.begin_script(&timeouts);
        assert!(read.contains("ISOLATION LEVEL REPEATABLE READ, READ ONLY;"));
        assert!(!read.contains(" :"), "an unrendered placeholder:\n{read}");
    }
}
