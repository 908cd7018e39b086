//! The transactions the tool opens, so every command reads the way SPEC
//! says: one read-only snapshot for everything that only reads; and the
//! session hygiene every one of them starts with (SPEC step 9).

use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use postgres::types::ToSql;
use postgres::{Client, GenericClient, Row, Transaction};

use super::columns::Columns;
use super::sql::{self, Schema, Statement};
use crate::exit;

/// The search path every transaction runs with: nothing a database user
/// created can shadow what we call.
pub const SEARCH_PATH: &str = "pg_catalog, pg_temp";

/// The session settings in force in a transaction after [`apply_hygiene`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hygiene {
    pub search_path: String,
    pub jit: String,
    pub session_replication_role: String,
}

impl Hygiene {
    /// Why the tool must not work in this session, if it must not.
    pub fn refusal(&self) -> Option<String> {
        if self.session_replication_role != "origin" {
            return Some(format!(
                "this session runs with session_replication_role = {}: in it no trigger fires, \
                 not even the ones that protect the audit trail, so pushleft-controller does not \
                 work in it. It comes from the connection's options (options= in the database \
                 URL, PGOPTIONS) or from ALTER ROLE / ALTER DATABASE ... SET; remove it and rerun. \
                 Nothing was written",
                self.session_replication_role
            ));
        }
        let path: String = self.search_path.split_whitespace().collect();
        if path != SEARCH_PATH.replace(' ', "") || self.jit != "off" {
            return Some(format!(
                "the session settings did not take effect (search_path = {}, jit = {}; asked \
                 for search_path = {SEARCH_PATH}, jit = off), so a function or operator a \
                 database user created could run in our place. Check for a connection pooler \
                 or proxy rewriting SET; nothing was written",
                self.search_path, self.jit
            ));
        }
        None
    }
}

/// Pins `search_path` and turns JIT off for the current transaction (SET
/// LOCAL, so a pooler that dropped the startup options, or a server
/// session someone configured, cannot undo it), and reads
/// `session_replication_role`. Reports what is in force; [`harden`] also
/// refuses when it is not what the tool needs.
pub fn apply_hygiene(client: &mut impl GenericClient) -> Result<Hygiene> {
    let row = sql::session::HARDEN
        .query_catalog_one(client, &[])
        .context("setting the session's search_path and jit (sql/session/harden.sql)")?;
    Ok(Hygiene {
        search_path: row.get("search_path"),
        jit: row.get("jit"),
        session_replication_role: row.get("session_replication_role"),
    })
}

/// [`apply_hygiene`], refusing (exit 4) in a session where triggers do not
/// fire or the settings did not take.
pub fn harden(client: &mut impl GenericClient) -> Result<()> {
    match apply_hygiene(client)?.refusal() {
        Some(why) => Err(exit::refused(why)),
        None => Ok(()),
    }
}

/// Opens a read's transaction: `REPEATABLE READ READ ONLY`, so every query
/// in it sees one instant, and the database itself refuses any write; with
/// the session hygiene in force.
pub fn read_only(client: &mut Client) -> Result<Transaction<'_>> {
    let mut tx = client
        .build_transaction()
        .isolation_level(postgres::IsolationLevel::RepeatableRead)
        .read_only(true)
        .start()
        .context("opening a read-only snapshot transaction")?;
    harden(&mut tx)?;
    Ok(tx)
}

/// The settings a one-statement read ran with, from the columns
/// `search_path`, `jit`, `session_replication_role` and `read_only` that
/// every such statement returns (see `sql/diagnose/snapshot.sql`).
pub fn settings_of(row: &Row) -> Result<RanWith> {
    Ok(RanWith {
        hygiene: Hygiene {
            search_path: row.col("search_path")?,
            jit: row.col("jit")?,
            session_replication_role: row.col("session_replication_role")?,
        },
        read_only: row.col("read_only")?,
    })
}

/// The settings a read ran with.
#[derive(Debug, Clone)]
pub struct RanWith {
    pub hygiene: Hygiene,
    /// In a read-only transaction.
    pub read_only: bool,
}

/// A read that is ONE statement, and reports the settings it ran with
/// ([`settings_of`] on its first row).
pub trait OneStatement {
    type Output;
    fn run(&mut self, client: &mut impl GenericClient) -> Result<(Self::Output, RanWith)>;
}

/// Runs a one-statement read in one round trip when it can: a session from
/// `Settings::connect_for_reading` starts with the pinned search path, JIT
/// off and read-only REPEATABLE READ transactions by default, so the
/// statement alone is a read-only transaction, and one statement sees one
/// snapshot. If any setting did not take (a pooler that dropped the startup
/// options, a session opened another way), the result is thrown away and
/// the read runs again the careful way: in [`read_only`]'s explicit
/// transaction, which sets them itself (three round trips).
pub fn read_in_one_statement<R: OneStatement>(
    client: &mut Client,
    read: &mut R,
) -> Result<R::Output> {
    let (output, ran_with) = read.run(client)?;
    if ran_with.read_only && ran_with.hygiene.refusal().is_none() {
        return Ok(output);
    }
    let mut tx = read_only(client)?;
    let (output, ran_with) = read.run(&mut tx)?;
    // Nothing was written; ending the transaction either way is the same.
    tx.rollback().context("ending the read-only transaction")?;
    match ran_with.hygiene.refusal() {
        Some(why) => Err(exit::refused(why)),
        None => Ok(output),
    }
}

/// A one-statement read whose statement returns exactly one row.
pub struct OneRow<'a> {
    pub schema: &'a Schema,
    pub statement: &'a Statement,
    pub values: &'a [&'a (dyn ToSql + Sync)],
}

impl OneStatement for OneRow<'_> {
    type Output = Row;
    fn run(&mut self, client: &mut impl GenericClient) -> Result<(Row, RanWith)> {
        let row = self
            .statement
            .query_one(client, self.schema, self.values)
            .with_context(|| format!("reading (sql/{})", self.statement.path))?;
        let ran_with = settings_of(&row)?;
        Ok((row, ran_with))
    }
}

/// Runs `read` inside one read-only snapshot with the snapshot's `now()`,
/// then ends the transaction (nothing was written: ending it either way is
/// the same).
pub fn with_snapshot<T>(
    client: &mut Client,
    read: impl FnOnce(&mut Transaction<'_>, DateTime<Utc>) -> Result<T>,
) -> Result<T> {
    let mut tx = read_only(client)?;
    let at: DateTime<Utc> = sql::session::NOW
        .query_catalog_one(&mut tx, &[])
        .context("reading the snapshot's time")?
        .get("at");
    let value = read(&mut tx, at)?;
    tx.commit().context("ending the read-only transaction")?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hygiene(path: &str, jit: &str, role: &str) -> Hygiene {
        Hygiene {
            search_path: path.into(),
            jit: jit.into(),
            session_replication_role: role.into(),
        }
    }

    #[test]
    fn only_origin_with_the_pinned_path_and_no_jit_is_accepted() {
        assert_eq!(
            hygiene("pg_catalog, pg_temp", "off", "origin").refusal(),
            None
        );
        assert_eq!(
            hygiene("pg_catalog,pg_temp", "off", "origin").refusal(),
            None
        );
        let replica = hygiene("pg_catalog, pg_temp", "off", "replica")
            .refusal()
            .unwrap();
        assert!(replica.contains("session_replication_role = replica"));
        assert!(
            hygiene("public, pg_catalog", "off", "origin")
                .refusal()
                .is_some()
        );
        assert!(
            hygiene("pg_catalog, pg_temp", "on", "origin")
                .refusal()
                .is_some()
        );
        assert!(
            hygiene("pg_catalog, pg_temp", "off", "local")
                .refusal()
                .is_some()
        );
    }
}
