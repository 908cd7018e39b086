//! The transactions the tool opens, so every command reads the way SPEC
//! says: one read-only snapshot for everything that only reads.

use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use postgres::{Client, Transaction};

use super::sql;

/// Opens a read's transaction: `REPEATABLE READ READ ONLY`, so every query
/// in it sees one instant, and the database itself refuses any write.
pub fn read_only(client: &mut Client) -> Result<Transaction<'_>> {
    client
        .build_transaction()
        .isolation_level(postgres::IsolationLevel::RepeatableRead)
        .read_only(true)
        .start()
        .context("opening a read-only snapshot transaction")
}

/// Runs `read` inside one read-only snapshot with the snapshot's `now()`,
/// then ends the transaction (nothing was written: ending it either way is
/// the same).
pub fn with_snapshot<T>(
    client: &mut Client,
    read: impl FnOnce(&mut Transaction<'_>, DateTime<Utc>) -> Result<T>,
) -> Result<T> {
    let mut tx = read_only(client)?;
    let at: DateTime<Utc> = tx
        .query_one(sql::session::NOW.text, &[])
        .context("reading the snapshot's time")?
        .get("at");
    let value = read(&mut tx, at)?;
    tx.commit().context("ending the read-only transaction")?;
    Ok(value)
}
