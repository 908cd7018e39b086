//! What steps 1 and 2 of pushleft-controller-fail-safely(1), STEP BY STEP read before
//! anything else: whether the server is a standby, and the settings in
//! force. Whether that makes the server unfit for the write is
//! `decide::transition::server`'s to say.

use anyhow::{Context, Result};

use crate::db::session::{InForce, Session, origin};
use crate::db::sql;
use crate::db_failure::DbFailure;
use crate::decide::transition::server::{self, Setting, Settings};
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

/// A standby cannot take the write: `decide`'s refusal, naming the
/// primary when the standby says where it replicates from (host and port
/// only: primary_conninfo can hold a password).
pub fn refuse_on_standby(session: &mut Session) -> anyhow::Error {
    let primary = session
        .read(|tx| {
            sql::session::PRIMARY_CONNINFO
                .query_catalog_one(tx, &[])
                .context("reading primary_conninfo")
        })
        .ok()
        .and_then(|row| row.get::<_, Option<String>>(0))
        .and_then(|conninfo| crate::db::connect::primary_from_conninfo(&conninfo));
    server::on_standby(primary.as_deref())
}

/// The settings the write depends on, as step 1 found them in force, for
/// `decide` to judge ([`server::fit_to_write`]).
pub fn fit_to_write(in_force: &InForce) -> Result<()> {
    let setting = |name: &str| {
        in_force.get(name).map(|found| Setting {
            value: &found.value,
            source: &found.source,
            set: origin(found),
        })
    };
    server::fit_to_write(&Settings {
        default_transaction_read_only: setting("default_transaction_read_only"),
        track_counts: setting("track_counts"),
    })
}
