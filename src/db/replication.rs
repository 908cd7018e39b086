//! Right after a write's COMMIT, on the same session: how many of the
//! primary's standbys have replayed it (`model::replication`;
//! `sql/replication/after_commit.sql`).

use anyhow::{Context, Result};

use crate::db::columns::Columns;
use crate::db::session::Session;
use crate::db::sql;
use crate::model::replication::Replication;

/// The standbys and what they had replayed, read in a read-only
/// transaction after the write's COMMIT.
pub fn after_commit(session: &mut Session) -> Result<Replication> {
    session.read(|tx| {
        let row = sql::replication::AFTER_COMMIT
            .query_catalog_one(tx, &[])
            .context("reading pg_stat_replication after COMMIT")?;
        Ok(Replication {
            commit_lsn: row.col("commit_lsn")?,
            standbys: row.col("standbys")?,
            synchronous: row.col("synchronous")?,
            confirmed: row.col("confirmed")?,
            unknown: row.col("unknown")?,
        })
    })
}
