//! The exit-code contract (README, "Output and exit codes") in one place.
//!
//! Commands fail with `anyhow::Error`. Where a failure has a documented exit
//! code, the error chain carries a [`Failure`] that says which; a database
//! error nothing explained carries the [`DbError`] `db` classified it as
//! when it left the driver, and its [`DbFailure`] says which code; anything
//! else maps to 1. `main` calls [`code_for`] and nothing else decides.

use std::fmt;

use crate::db_failure::{DbError, DbFailure};

/// The documented exit codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitCode {
    Done,
    Unexpected,
    Usage,
    NotFound,
    Refused,
    Conflict,
    WaitTimedOut,
    StuckFound,
    /// Ctrl-C (SIGINT).
    Interrupted,
    /// SIGTERM.
    Terminated,
    /// SIGHUP.
    HungUp,
    /// `sandbox -- CMD` passes CMD's own status through.
    Child(i32),
}

impl ExitCode {
    pub fn as_i32(self) -> i32 {
        match self {
            ExitCode::Done => 0,
            ExitCode::Unexpected => 1,
            ExitCode::Usage => 2,
            ExitCode::NotFound => 3,
            ExitCode::Refused => 4,
            ExitCode::Conflict => 5,
            ExitCode::WaitTimedOut => 6,
            ExitCode::StuckFound => 10,
            ExitCode::Interrupted => 130,
            ExitCode::Terminated => 143,
            ExitCode::HungUp => 129,
            ExitCode::Child(code) => code,
        }
    }
}

/// In JSON (the batch report), the number the process exits with.
impl serde::Serialize for ExitCode {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_i32(self.as_i32())
    }
}

impl ExitCode {
    /// The kind of failure a code stands for, when nothing more precise
    /// is known.
    pub fn kind(self) -> ErrorKind {
        match self {
            ExitCode::Usage => ErrorKind::BadInput,
            ExitCode::NotFound => ErrorKind::NotFound,
            ExitCode::Refused => ErrorKind::Refused,
            ExitCode::Conflict => ErrorKind::Conflict,
            ExitCode::WaitTimedOut => ErrorKind::TimedOut,
            ExitCode::Interrupted | ExitCode::Terminated | ExitCode::HungUp => {
                ErrorKind::Interrupted
            }
            ExitCode::Child(_) => ErrorKind::CommandFailed,
            ExitCode::Done | ExitCode::StuckFound | ExitCode::Unexpected => ErrorKind::Unexpected,
        }
    }
}

/// What went wrong, as the `kind` of the JSON error document: scripts tell
/// a missing deployment from a lost connection without reading English.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// Usage or bad input (exit 2).
    BadInput,
    /// Exit 3.
    NotFound,
    /// A precondition, the guard, nothing to do, no terminal (exit 4).
    Refused,
    /// Conflict, lock timeout, changed fingerprint or path (exit 5).
    Conflict,
    /// `wait` ran out of time (exit 6).
    TimedOut,
    /// Ctrl-C, SIGTERM or SIGHUP (exit 130, 143, 129).
    Interrupted,
    /// The session went away while the command worked (exit 1).
    ConnectionLost,
    /// No session could be opened (exit 1; `doctor` 4).
    ConnectionFailed,
    /// `sandbox -- CMD` could not run CMD (exit 126 or 127).
    CommandFailed,
    /// Anything else (exit 1).
    Unexpected,
}

impl ErrorKind {
    /// The next step when the message does not name one.
    pub fn default_next(self) -> Option<&'static str> {
        Some(match self {
            ErrorKind::BadInput => "fix the command line (see --help) and rerun",
            ErrorKind::NotFound => {
                "check the id, and that DATABASE_URL points at the right control plane"
            }
            ErrorKind::Conflict => "re-diagnose, then retry",
            ErrorKind::TimedOut => "resolve what blocks it, then rerun wait",
            ErrorKind::Interrupted => "rerun the command when ready",
            ErrorKind::ConnectionLost | ErrorKind::ConnectionFailed => {
                "check the database with `pushleft-controller doctor`, then rerun"
            }
            ErrorKind::Refused | ErrorKind::CommandFailed | ErrorKind::Unexpected => return None,
        })
    }
}

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

/// The exit code and kind of a database failure (README, "Output and exit
/// codes"): the one mapping.
impl DbFailure {
    /// The exit code of this failure when nothing explains it: the
    /// conflicts are safe to re-diagnose and retry (5); the rest is 1.
    pub fn code(self) -> ExitCode {
        match self {
            DbFailure::LockTimeout | DbFailure::SerializationFailure | DbFailure::Deadlock => {
                ExitCode::Conflict
            }
            DbFailure::PolicyRefused => ExitCode::Refused,
            _ => ExitCode::Unexpected,
        }
    }

    /// The kind of this failure, with exit `code`.
    pub fn kind(self, code: ExitCode) -> ErrorKind {
        match self {
            DbFailure::LostConnection | DbFailure::NotAcceptingConnections => {
                ErrorKind::ConnectionLost
            }
            DbFailure::TooManyConnections => ErrorKind::ConnectionFailed,
            _ => code.kind(),
        }
    }
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

/// The sentence that explains the database failure `db`, with exit
/// `code`; the error still says which failure it explains ([`db_failure`]).
pub fn explained(db: DbFailure, code: ExitCode, message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Failure {
        code,
        kind: db.kind(code),
        message: message.into(),
        db: Some(db),
    })
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

/// `err`, marked as being of `kind` (its exit code is unchanged).
pub fn tag(err: anyhow::Error, kind: ErrorKind) -> anyhow::Error {
    err.context(Tag(kind))
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

/// The operator pressed Ctrl-C (exit 130), or SIGTERM (143) or SIGHUP
/// (129) arrived: the code of the signal received.
pub fn interrupted(message: impl Into<String>) -> anyhow::Error {
    failure(signal_code(), message)
}

/// The exit code of the signal received ([`for_signal`]): 130 when it
/// was Ctrl-C, or none was.
pub fn signal_code() -> ExitCode {
    for_signal(crate::interrupt::signal())
}

/// The exit code for a signal that stops the tool, as a shell reports a
/// process killed by it (128 + its number): SIGHUP 129, SIGTERM 143;
/// Ctrl-C, and anything else, 130.
pub fn for_signal(signal: i32) -> ExitCode {
    match signal {
        nix::libc::SIGTERM => ExitCode::Terminated,
        nix::libc::SIGHUP => ExitCode::HungUp,
        _ => ExitCode::Interrupted,
    }
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

/// Whether the error is the database session going away under us: the
/// server terminated it (`pg_terminate_backend`, a shutdown), it crashed, or
/// the socket closed. Such an error keeps exit 1 (unexpected); the commands
/// turn it into a sentence that says whether anything was written.
pub fn is_connection_lost(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<DbError>()
            .is_some_and(|db| db.failure.ends_session())
    })
}

/// What the server (or the socket) said when the session ended, for the
/// message: the server's message, else the innermost cause.
pub fn lost_connection_cause(err: &anyhow::Error) -> String {
    err.chain()
        .find_map(|cause| cause.downcast_ref::<DbError>())
        .map(|db| match &db.server_message {
            Some(said) => said.clone(),
            None => {
                let mut innermost: &dyn std::error::Error = db;
                while let Some(cause) = innermost.source() {
                    innermost = cause;
                }
                innermost.to_string()
            }
        })
        .unwrap_or_else(|| "the connection closed".to_string())
}

/// The session was lost: exit 1, with `message` saying what was going on,
/// whether anything was written, and what to do.
pub fn connection_lost(message: impl Into<String>) -> anyhow::Error {
    explained(DbFailure::LostConnection, ExitCode::Unexpected, message)
}

/// What a command was doing when its session went away, for the one
/// sentence every command says then.
#[derive(Debug, Clone, Copy)]
pub struct Lost<'a> {
    /// "while …": e.g. "diagnosing deployment d0000001".
    pub doing: &'a str,
    /// Whether anything can have been written, as a clause that follows
    /// the cause, e.g. ". This command only reads: nothing was written".
    pub written: &'a str,
    /// The next step.
    pub next: &'a str,
}

/// Turns a lost session into the sentence an operator needs: what was
/// going on, what the server said, whether anything was written, and what
/// to do. Any other error, or one already explained, passes unchanged.
pub fn explain_lost(err: anyhow::Error, lost: Lost<'_>) -> anyhow::Error {
    let explained = err.chain().any(|cause| cause.is::<Failure>());
    if explained || !is_connection_lost(&err) {
        return err;
    }
    connection_lost(format!(
        "lost the connection to the database while {} ({}){}. Next step: {}",
        lost.doing,
        lost_connection_cause(&err),
        lost.written,
        lost.next
    ))
}

/// The next step after a read-only command lost its session.
pub fn rerun_when_up(rerun: impl fmt::Display) -> String {
    format!("check that the database is up (`pushleft-controller doctor`), then rerun `{rerun}`")
}

#[cfg(test)]
#[path = "exit_tests.rs"]
mod tests;
