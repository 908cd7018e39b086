//! Database errors: classified once where they leave the driver
//! ([`failure_of`]), and told by the one explainer (README, "When things
//! go wrong"). Every command says what it was doing ([`Doing`]) and hands
//! its error to [`explain`], which turns every kind of database failure
//! an operator can act on, and a lost connection, into the sentence they
//! read: what failed, for which deployment, whether anything was written
//! and the next step, with the exit code of its kind. Any other error
//! passes unchanged (its kind still has its code, `DbFailure::code`).
//!
//! Nothing else in the tool reads an SQLSTATE or makes a sentence that
//! explains a database failure (`tests/it/layers.rs` holds it); only the
//! refusals of a session being opened are told by `db::connect`, which
//! knows the host and where the password came from.

mod classify;
mod lost;
mod sentences;

use std::time::Duration;

pub use classify::{db_error, failure_of, retryable, server_error};
pub use lost::CommitFailed;
pub use sentences::missing_table;

use crate::db_failure::DbFailure;
use crate::exit::{self, ExitCode};

/// What the tool was doing when a database error came, as each command
/// says it: the sentence names it, says whether anything can have been
/// written, and how to go on.
#[derive(Debug, Clone, Copy)]
pub enum Doing<'a> {
    /// A command that only reads (diagnose, doctor, fleet list, stuck,
    /// history, wait).
    Reading {
        /// "while …", e.g. "diagnosing deployment d0000001".
        what: &'a str,
        /// The command line to rerun.
        rerun: &'a str,
        /// The user its reads run as, named when permission is denied.
        user: Option<&'a str>,
    },
    /// One look of `wait` at `deployment`: a lost session is told for the
    /// deployment (what fail-safely did stays done); anything else once
    /// `wait` ends, as [`Doing::Reading`].
    Waiting { deployment: &'a str },
    /// fail-safely's guarded transaction on `deployment`.
    Writing {
        /// Id or prefix, as given.
        deployment: &'a str,
        /// `--role`, named when permission is denied or the role is unknown.
        role: Option<&'a str>,
        /// How long it waited for another transaction's locks.
        lock_timeout: Duration,
        /// How often the transaction ran before it gave up on conflicts.
        attempts: u32,
    },
}

/// The sentence for `err` when it is a database failure explained for
/// `doing`; else `err` unchanged (also when it is already a sentence).
pub fn explain(err: anyhow::Error, doing: &Doing<'_>) -> anyhow::Error {
    if err.chain().any(|c| c.is::<exit::Failure>()) {
        return err;
    }
    let Some(db) = db_error(&err) else {
        return err;
    };
    if db.failure.ends_session() {
        let lost = exit::connection_lost(lost::sentence(&err, db, doing));
        // COMMIT was sent and its answer never came: in doubt, not failed.
        let committing = err.chain().any(|c| c.is::<CommitFailed>());
        return if committing {
            exit::in_doubt(lost)
        } else {
            lost
        };
    }
    let said = db.server_message.as_deref().unwrap_or_default();
    let sentence = if retryable(&err).is_some() {
        sentences::conflicts_kept(doing, said)
    } else {
        match db.failure {
            DbFailure::LockTimeout => sentences::lock_timeout(doing, said),
            DbFailure::InsufficientPrivilege => sentences::permission_denied(doing, said),
            DbFailure::PolicyRefused => sentences::policy_refused(doing, said),
            DbFailure::InvalidParameterValue => sentences::unknown_role(doing, said),
            DbFailure::DiskFull => sentences::disk_full(doing, said),
            DbFailure::TooManyConnections => sentences::too_many_connections(doing, said),
            _ => None,
        }
    };
    match sentence {
        Some((code, message)) => exit::explained(db.failure, code, message),
        None => err,
    }
}

/// A lock timeout's sentence, with who holds the locks (`holders`, asked
/// only for a lock timeout: the sessions pg_stat_activity shows, in the
/// screen's words) when they can be found; any other error unchanged.
pub fn held_by(err: anyhow::Error, holders: impl FnOnce() -> Option<String>) -> anyhow::Error {
    if exit::db_failure(&err) != Some(DbFailure::LockTimeout) {
        return err;
    }
    match holders() {
        Some(holders) => exit::explained(
            DbFailure::LockTimeout,
            ExitCode::Conflict,
            format!("{err}. {holders}"),
        ),
        None => err,
    }
}

#[cfg(test)]
mod tests;
