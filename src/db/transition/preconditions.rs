//! What makes a server unfit for fail-safely's write before anything is
//! read (steps 1 and 2 of README, "fail-safely, step by step"): a standby,
//! a read-only default somebody set on purpose, and statistics the guard
//! cannot count with. Each is a refusal (exit 4) that names the setting and
//! where it comes from.

use anyhow::{Context, Result};

use crate::db::session::{InForce, Session, origin};
use crate::db::sql;
use crate::db_failure::DbFailure;
use crate::exit;

/// `START TRANSACTION … READ WRITE` failed because the server is in
/// recovery: it refused a feature (0A000, what a standby answers READ
/// WRITE with; no SQLSTATE of its own), and it says it is a standby.
pub fn is_during_recovery(session: &mut Session, err: &anyhow::Error) -> bool {
    exit::db_failure(err) == Some(DbFailure::FeatureNotSupported)
        && session
            .read(|tx| {
                let row = sql::session::IN_RECOVERY.query_catalog_one(tx, &[])?;
                Ok(row.try_get::<_, bool>("in_recovery")?)
            })
            .unwrap_or(false)
}

/// A standby cannot take the write; name the primary when the standby
/// says where it replicates from (host and port only: primary_conninfo can
/// hold a password).
pub fn refuse_on_standby(session: &mut Session) -> anyhow::Error {
    let primary = session
        .read(|tx| {
            sql::session::PRIMARY_CONNINFO
                .query_catalog_one(tx, &[])
                .context("reading primary_conninfo")
        })
        .ok()
        .and_then(|row| row.get::<_, Option<String>>(0))
        .and_then(|conninfo| crate::db::connect::primary_from_conninfo(&conninfo))
        .map(|p| format!(" ({p}, from this standby's primary_conninfo)"))
        .unwrap_or_default();
    exit::refused(format!(
        "this server is a standby (read-only replica, in recovery): fail-safely must run \
         against the primary{primary}. Point DATABASE_URL at the primary and rerun; nothing was written"
    ))
}

/// Refuses a server whose settings make the write wrong or unprovable.
/// A read-only default set in a session (another client of a pool left
/// it) is nobody's intent for this transaction, which states READ WRITE
/// itself; one set for the server, the database, the role or in the
/// connection's options is, and is honoured.
pub fn refuse_unwritable(in_force: &InForce) -> Result<()> {
    if let Some(read_only) = in_force.get("default_transaction_read_only")
        && read_only.value == "on"
        && read_only.source != "session"
    {
        return Err(exit::refused(format!(
            "new transactions on this database are read-only by default \
             (default_transaction_read_only = on, set {}): somebody made this control plane \
             read-only on purpose (a freeze, a migration, a drill), and fail-safely does not \
             override that. Nothing was written. If writes are meant to be allowed again, \
             reset the setting where it was set (e.g. ALTER DATABASE ... RESET \
             default_transaction_read_only) and rerun",
            origin(read_only)
        )));
    }
    if let Some(counts) = in_force.get("track_counts")
        && counts.value != "on"
    {
        return Err(exit::refused(format!(
            "track_counts is off (set {}): the guard proves that the transaction changed one \
             deployments row and one deployment_events row and nothing else by the \
             per-transaction tuple counters, which PostgreSQL keeps only with track_counts on, \
             so fail-safely cannot prove its write and refuses. Nothing was written. Turn \
             track_counts back on (it is on by default) and rerun",
            origin(counts)
        )));
    }
    Ok(())
}
