//! Opening a transaction on the tool's own terms (README, "Connecting"):
//! one message that starts it with its isolation level and access mode
//! spelled out and pins every setting, then a check of what is in force
//! before anything else is sent.

use std::collections::HashMap;

use anyhow::{Context, Result, anyhow};
use postgres::SimpleQueryMessage;

use super::Timeouts;
use super::link::Link;
use super::terms::{InForce, Setting, Terms};
use crate::db::sql::{self, Conn};
use crate::db_failure::DbError;
use crate::exit;

/// A transaction the tool opened on its own terms ([`Terms`]), every
/// setting pinned and checked. Rolled back when dropped unfinished.
pub struct Pinned<'a> {
    client: &'a mut Link,
    in_force: InForce,
    done: bool,
}

impl Conn for Pinned<'_> {
    type Wire = Link;

    fn client(&mut self) -> &mut Link {
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
    pub fn batch_execute(&mut self, script: &str) -> Result<(), DbError> {
        sql::trace::script(None, script);
        Ok(self.client.batch_execute(script)?)
    }

    /// Runs several statements without parameters in ONE message (one
    /// round trip) and returns every row and command completion they
    /// sent, in order.
    pub fn simple_query(&mut self, script: &str) -> Result<Vec<SimpleQueryMessage>, DbError> {
        sql::trace::script(None, script);
        Ok(self.client.simple_query(script)?)
    }

    /// [`Pinned::simple_query`] with a script that ends the transaction
    /// (its last statement is ROLLBACK or COMMIT): what it read comes back
    /// with the end, in the same round trip. On an error the transaction
    /// is rolled back.
    pub fn end_with(mut self, script: &str) -> Result<Vec<SimpleQueryMessage>, DbError> {
        self.done = true;
        sql::trace::script(None, script);
        let result = self.client.simple_query(script);
        if result.is_err() {
            let _ = self.client.batch_execute("ROLLBACK");
        }
        Ok(result?)
    }

    pub fn commit(mut self) -> Result<(), DbError> {
        self.done = true;
        sql::trace::script(None, "COMMIT");
        Ok(self.client.batch_execute("COMMIT")?)
    }

    pub fn rollback(mut self) -> Result<(), DbError> {
        self.done = true;
        sql::trace::script(None, "ROLLBACK");
        Ok(self.client.batch_execute("ROLLBACK")?)
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
/// behind a pooler in statement mode (pgbouncer closes the connection at
/// the end of a message that leaves a transaction open, and says why).
pub fn begin<'a>(client: &'a mut Link, terms: Terms, timeouts: &Timeouts) -> Result<Pinned<'a>> {
    let pinned = begin_unchecked(client, terms, timeouts)?;
    if let Some(why) = pinned.in_force.mismatch(terms, timeouts) {
        return Err(exit::refused(why));
    }
    Ok(pinned)
}

/// [`begin`] without refusing what is in force: for what reports it
/// instead (and then runs nothing else in such a transaction).
pub fn begin_unchecked<'a>(
    client: &'a mut Link,
    terms: Terms,
    timeouts: &Timeouts,
) -> Result<Pinned<'a>> {
    open(client, terms, timeouts)
}

/// [`begin`], then, once what is in force is verified and `verify` found
/// nothing to refuse, `script` (statements without parameters) in the
/// next message, whose rows come back with the transaction.
pub fn begin_then<'a>(
    client: &'a mut Link,
    terms: Terms,
    timeouts: &Timeouts,
    verify: impl FnOnce(&InForce) -> Result<()>,
    script: &str,
) -> Result<(Pinned<'a>, Vec<SimpleQueryMessage>)> {
    let pinned = begin(client, terms, timeouts)?;
    verify(&pinned.in_force)?;
    sql::trace::script(None, script);
    match pinned.client.simple_query(script) {
        Ok(messages) => Ok((pinned, messages)),
        Err(err) => Err(match refusal_for_first_answer(&err) {
            Some(refusal) => refusal,
            None => anyhow::Error::new(err),
        }),
    }
}

/// The transaction's first message and what is in force after it, with
/// nothing else sent.
fn open<'a>(client: &'a mut Link, terms: Terms, timeouts: &Timeouts) -> Result<Pinned<'a>> {
    let script = terms.begin_script(timeouts);
    sql::trace::script(Some(sql::session::BEGIN.path), &script);
    let messages = match client.simple_query(&script) {
        Ok(messages) => messages,
        Err(err) => {
            // The transaction may be open and aborted; end it before
            // saying why.
            let _ = client.batch_execute("ROLLBACK");
            return Err(refusal_for_begin(err));
        }
    };
    let (in_force, _) = in_force_and_rows(messages);
    let pinned = Pinned {
        client,
        in_force,
        done: false,
    };
    if pinned.in_force.0.is_empty() {
        return Err(anyhow!(
            "sql/session/begin.sql reported no settings; nothing was written"
        ));
    }
    Ok(pinned)
}

/// What a transaction's first message says is in force — its rows of
/// (name, setting, source) — and any other rows it returned (a statement
/// sent in the same message). The `set_config` answers of the pinning
/// statements are neither.
pub(super) fn in_force_and_rows(
    messages: Vec<SimpleQueryMessage>,
) -> (InForce, Vec<postgres::SimpleQueryRow>) {
    let mut in_force = HashMap::new();
    let mut rows = Vec::new();
    for message in messages {
        let SimpleQueryMessage::Row(row) = message else {
            continue;
        };
        match row.columns().first().map(|c| c.name()) {
            Some("name") if row.len() == 3 => {
                let field = |i: usize| row.try_get(i).ok().flatten().unwrap_or("").to_string();
                let setting = Setting {
                    value: field(1),
                    source: field(2),
                };
                in_force.insert(field(0), setting);
            }
            Some("set_config") => {}
            _ => rows.push(row),
        }
    }
    (InForce(in_force), rows)
}

/// A read-only snapshot in ONE round trip: the transaction's first
/// message, `script` (catalog reads without parameters, run after the
/// pinning statements of the same message) and its COMMIT, in one message.
/// What was in force is checked after it, as for every transaction; the
/// rows `script` returned come back. It cannot tell statement pooling
/// (the transaction does not outlive its message): the transaction after
/// it does.
pub fn read_in_one_message(
    client: &mut Link,
    timeouts: &Timeouts,
    script: &str,
) -> Result<Vec<postgres::SimpleQueryRow>> {
    let terms = Terms::Snapshot;
    let whole = format!("{};\n{script};\nCOMMIT", terms.begin_script(timeouts));
    sql::trace::script(Some(sql::session::BEGIN.path), &whole);
    let messages = client.simple_query(&whole).map_err(|err| {
        let _ = client.batch_execute("ROLLBACK");
        refusal_for_begin(err)
    })?;
    let (in_force, rows) = in_force_and_rows(messages);
    if let Some(why) = in_force.mismatch(terms, timeouts) {
        return Err(exit::refused(why));
    }
    Ok(rows)
}

/// Why the first message of a transaction failed, in words that say what
/// to do: statement pooling (when the pooler said so), triggers that
/// cannot be made to fire; any other error as it is. A connection that
/// closed without a word is a lost connection, never a pooler's doing
/// until something proves it.
pub(super) fn refusal_for_begin(err: postgres::Error) -> anyhow::Error {
    match refusal_for_first_answer(&err) {
        Some(refusal) => refusal,
        None => anyhow::Error::new(DbError::from(err))
            .context("opening a transaction (sql/session/begin.sql)"),
    }
}

/// The refusal for statement pooling: what proves it (the pooler's words,
/// or what the flight's proof found).
pub(super) fn statement_pooling(seen: &str) -> anyhow::Error {
    exit::refused(format!(
        "the connection goes through a pooler in statement pooling mode ({seen}): every \
         command of pushleft-controller runs a transaction of several statements (one \
         snapshot for a read; lock, decide, write and check for fail-safely), which \
         statement pooling cannot carry. Nothing was written. Connect directly, or through \
         a pool in session or transaction mode (pgbouncer pool_mode = session or \
         transaction); `pushleft-controller doctor` shows what is in between"
    ))
}

/// [`refusal_for_begin`]'s refusals (statement pooling, triggers that
/// cannot be made to fire); None for any other error.
pub(super) fn refusal_for_first_answer(err: &postgres::Error) -> Option<anyhow::Error> {
    let message = err
        .as_db_error()
        .map(|db| db.message().to_string())
        .unwrap_or_else(|| err.to_string());
    // pgbouncer in statement mode closes the connection at the end of a
    // message that leaves a transaction open, with these words.
    if message.contains("statement pooling") {
        return Some(statement_pooling(&format!("the pooler says: {message}")));
    }
    if message.contains("session_replication_role") {
        return Some(exit::refused(format!(
            "this session runs with session_replication_role set to something other than \
             origin, and this role may not set it back ({message}): in it no trigger fires, \
             not even the ones that protect the audit trail, so pushleft-controller does not \
             work in it. It comes from the connection's options (options= in the database URL, \
             PGOPTIONS), from ALTER ROLE / ALTER DATABASE ... SET, or from another client of a \
             connection pool; remove it and rerun. Nothing was written"
        )));
    }
    None
}

/// The one statement libpq's `target_session_attrs` check needs, run in a
/// pinned transaction of its own that is rolled back: whether a new
/// transaction here is read-only by default, and whether the server is a
/// standby.
pub fn session_attrs(client: &mut Link, timeouts: &Timeouts) -> Result<(bool, bool)> {
    // Not on a snapshot's terms: read-only is what is asked about, so the
    // transaction must not state it.
    let script = sql::connect::SESSION_ATTRS.text.replace(
        ":statement_timeout_ms",
        &timeouts.statement.as_millis().max(1).to_string(),
    );
    sql::trace::script(Some(sql::connect::SESSION_ATTRS.path), &script);
    let messages = client
        .simple_query(&script)
        .map_err(DbError::from)
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
