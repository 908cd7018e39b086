//! Errors that carry their exit code: a [`Failure`] says which code (and
//! kind) its sentence stands for; a database error nothing explained
//! carries the [`DbError`] `db` classified it as when it left the driver,
//! and its [`DbFailure`] says which code; anything else maps to 1.

use std::fmt;

use super::{ErrorKind, ExitCode, signal_code};
use crate::db_failure::{DbError, DbFailure};

/// A failure whose exit code is part of the contract. The message is the
/// whole sentence an operator reads: what failed and what to do next.
#[derive(Debug)]
pub struct Failure {
    pub code: ExitCode,
    pub kind: ErrorKind,
    pub message: String,
    /// The database failure the sentence explains, if it explains one.
    pub db: Option<DbFailure>,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

fn failure(code: ExitCode, message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Failure {
        code,
        kind: code.kind(),
        message: message.into(),
        db: None,
    })
}

/// The sentence that explains the database failure `db`, with exit
/// `code`; the error still says which failure it explains ([`db_failure`]).
/// Only the explainer (`db::errors`) makes one.
pub fn explained(db: DbFailure, code: ExitCode, message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Failure {
        code,
        kind: db.kind(code),
        message: message.into(),
        db: Some(db),
    })
}

/// The session was lost: exit 1, with `message` saying what was going on,
/// whether anything was written, and what to do (`db::errors` says it).
pub fn connection_lost(message: impl Into<String>) -> anyhow::Error {
    explained(DbFailure::LostConnection, ExitCode::Unexpected, message)
}

/// `sandbox -- CMD` could not run CMD: the shell's 127 (not found) or 126
/// (found, not executable).
pub fn command_failed(code: i32, message: impl Into<String>) -> anyhow::Error {
    failure(ExitCode::Child(code), message)
}

/// Bad input or usage: exit 2.
pub fn usage(message: impl Into<String>) -> anyhow::Error {
    failure(ExitCode::Usage, message)
}

/// The thing asked for does not exist: exit 3.
pub fn not_found(message: impl Into<String>) -> anyhow::Error {
    failure(ExitCode::NotFound, message)
}

/// A precondition, the guard, "nothing to do" or a missing terminal: exit 4.
pub fn refused(message: impl Into<String>) -> anyhow::Error {
    failure(ExitCode::Refused, message)
}

/// A conflict, a lock timeout or a changed fingerprint; safe to re-diagnose
/// and retry: exit 5.
pub fn conflict(message: impl Into<String>) -> anyhow::Error {
    failure(ExitCode::Conflict, message)
}

/// `wait` ran out of time: exit 6.
pub fn wait_timed_out(message: impl Into<String>) -> anyhow::Error {
    failure(ExitCode::WaitTimedOut, message)
}

/// `wait`: everything left waits for dead nodes: exit 7.
pub fn wait_blocked(message: impl Into<String>) -> anyhow::Error {
    failure(ExitCode::WaitBlocked, message)
}

/// The operator pressed Ctrl-C (exit 130), or SIGTERM (143) or SIGHUP
/// (129) arrived: the code of the signal received.
pub fn interrupted(message: impl Into<String>) -> anyhow::Error {
    failure(signal_code(), message)
}

/// The exit code for an error: the first [`Failure`] in its chain, else
/// what its database failure maps to ([`DbFailure::code`]), else 1.
pub fn code_for(err: &anyhow::Error) -> ExitCode {
    for cause in err.chain() {
        if let Some(f) = cause.downcast_ref::<Failure>() {
            return f.code;
        }
    }
    err.chain()
        .filter_map(|cause| cause.downcast_ref::<DbError>())
        .map(|db| db.failure.code())
        .find(|code| *code != ExitCode::Unexpected)
        .unwrap_or(ExitCode::Unexpected)
}

/// The kind of an error: a [`Tag`], else the first [`Failure`]'s, else a
/// lost session, else what its exit code stands for.
pub fn kind_for(err: &anyhow::Error) -> ErrorKind {
    // A context value is found through the error itself, not its chain.
    if let Some(Tag(kind)) = err.downcast_ref::<Tag>() {
        return *kind;
    }
    for cause in err.chain() {
        if let Some(f) = cause.downcast_ref::<Failure>() {
            return f.kind;
        }
    }
    if is_connection_lost(err) {
        return ErrorKind::ConnectionLost;
    }
    code_for(err).kind()
}

/// Whether the error is the database session going away under us: the
/// server terminated it (`pg_terminate_backend`, a shutdown), it crashed, or
/// the socket closed. Such an error keeps exit 1 (unexpected).
fn is_connection_lost(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<DbError>()
            .is_some_and(|db| db.failure.ends_session())
    })
}

/// The database failure an error is or explains: its first [`Failure`]'s,
/// else its [`DbError`]'s.
pub fn db_failure(err: &anyhow::Error) -> Option<DbFailure> {
    if let Some(f) = err.chain().find_map(|c| c.downcast_ref::<Failure>()) {
        return f.db;
    }
    err.chain()
        .find_map(|c| c.downcast_ref::<DbError>())
        .map(|db| db.failure)
}

/// A kind attached to an error without changing its words (see
/// [`tag`]); renderers skip it when they print the chain.
#[derive(Debug)]
pub struct Tag(pub ErrorKind);

impl fmt::Display for Tag {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        Ok(())
    }
}

impl std::error::Error for Tag {}

/// `err`, marked as being of `kind` (its exit code is unchanged).
pub fn tag(err: anyhow::Error, kind: ErrorKind) -> anyhow::Error {
    err.context(Tag(kind))
}

/// Marks a write whose COMMIT was sent and whose answer never came (the
/// session went away): it may or may not be in effect. A batch counts it
/// as in doubt, not failed (README, "A big incident"); renderers skip it
/// when they print the chain.
#[derive(Debug)]
pub struct InDoubt;

impl fmt::Display for InDoubt {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        Ok(())
    }
}

impl std::error::Error for InDoubt {}

/// `err`, marked as a COMMIT in doubt (its words and exit code unchanged).
pub fn in_doubt(err: anyhow::Error) -> anyhow::Error {
    err.context(InDoubt)
}

/// Whether `err` is a COMMIT in doubt ([`in_doubt`]).
pub fn is_in_doubt(err: &anyhow::Error) -> bool {
    // A context value is found through the error itself, not its chain.
    err.downcast_ref::<InDoubt>().is_some()
}

/// Marks an error whose JSON document the command printed itself (`wait`
/// on a timeout): `main` prints no second document.
#[derive(Debug)]
pub struct Reported;

impl fmt::Display for Reported {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        Ok(())
    }
}

impl std::error::Error for Reported {}

/// `err`, its JSON document already printed.
pub fn reported(err: anyhow::Error) -> anyhow::Error {
    err.context(Reported)
}

#[cfg(test)]
#[path = "failure_tests.rs"]
mod tests;
