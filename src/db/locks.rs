//! Who holds the locks fail-safely waited for, so a lock timeout names
//! the session instead of only saying that there is one.

use anyhow::{Context, Result};

use super::session::Session;
use super::sql::{self, Schema};
pub use crate::model::outcome::LockHolder;

/// The candidates, longest open first (at most three).
/// In a pinned read-only transaction of its own, like every read.
pub fn holders(session: &mut Session, schema: &Schema) -> Result<Vec<LockHolder>> {
    let rows = session.read(|tx| {
        sql::fail_safely::LOCK_HOLDERS
            .query_catalog(tx, &[&schema.name()])
            .context("looking up who holds the locks (sql/fail_safely/15_lock_holders.sql)")
    })?;
    Ok(rows
        .iter()
        .map(|row| LockHolder {
            pid: row.get("pid"),
            user: row.get("usename"),
            application: row.get("application_name"),
            client_addr: row.get("client_addr"),
            state: row.get("state"),
            transaction_age_seconds: row.get("xact_age_seconds"),
        })
        .collect())
}
