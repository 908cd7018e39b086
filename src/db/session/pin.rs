//! Opening a transaction on the tool's own terms (README, "Connecting"):
//! one message that starts it with its isolation level and access mode
//! spelled out and pins every setting, then a check of what is in force
//! before anything else is sent.

use std::collections::HashMap;

use anyhow::{Context, Result, anyhow};
use postgres::{Client, SimpleQueryMessage};

use super::Timeouts;
use super::terms::{InForce, Setting, Terms};
use crate::db::sql::{self, Conn};
use crate::exit;

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
        sql::trace::script(None, script);
        self.client.batch_execute(script)
    }

    pub fn commit(mut self) -> Result<(), postgres::Error> {
        self.done = true;
        sql::trace::script(None, "COMMIT");
        self.client.batch_execute("COMMIT")
    }

    pub fn rollback(mut self) -> Result<(), postgres::Error> {
        self.done = true;
        sql::trace::script(None, "ROLLBACK");
        self.client.batch_execute("ROLLBACK")
    }
}

impl Drop for Pinned<'_> {
    fn drop(&mut self) {
        if !self.done {
            // On an error path: the error that got us here is what the
            // operator needs; a failed ROLLBACK (connection gone) changes
            // nothing, the server rolls back an abandoned transaction.
            sql::trace::script(None, "ROLLBACK");
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
    let script = terms.begin_script(timeouts);
    sql::trace::script(Some(sql::session::BEGIN.path), &script);
    let messages = match client.simple_query(&script) {
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
    sql::trace::script(Some(sql::connect::SESSION_ATTRS.path), &script);
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
