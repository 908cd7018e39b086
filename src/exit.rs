//! The exit-code contract (README, "Output and exit codes") in one place:
//! the documented codes, the kind of failure each stands for, and how a
//! batch's codes merge into one, the most serious.
//!
//! Commands fail with `anyhow::Error`; an error that has a documented code
//! carries it (a [`Failure`], `exit/failure.rs`), and `main` asks
//! [`code_for`] and nothing else decides. The sentences for database
//! errors are `db::errors`'.

mod failure;

pub use failure::{
    Failure, Reported, Tag, code_for, command_failed, conflict, connection_lost, db_failure,
    explained, in_doubt, interrupted, is_in_doubt, kind_for, not_found, refused, reported, tag,
    usage, wait_blocked, wait_timed_out,
};

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
    /// `wait`: everything left waits for dead nodes; waiting longer
    /// changes nothing until they return.
    WaitBlocked,
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
            ExitCode::WaitBlocked => 7,
            ExitCode::StuckFound => 10,
            ExitCode::Interrupted => 130,
            ExitCode::Terminated => 143,
            ExitCode::HungUp => 129,
            ExitCode::Child(code) => code,
        }
    }

    /// The kind of failure a code stands for, when nothing more precise
    /// is known.
    pub fn kind(self) -> ErrorKind {
        match self {
            ExitCode::Usage => ErrorKind::BadInput,
            ExitCode::NotFound => ErrorKind::NotFound,
            ExitCode::Refused => ErrorKind::Refused,
            ExitCode::Conflict => ErrorKind::Conflict,
            ExitCode::WaitTimedOut => ErrorKind::TimedOut,
            ExitCode::WaitBlocked => ErrorKind::Blocked,
            ExitCode::Interrupted | ExitCode::Terminated | ExitCode::HungUp => {
                ErrorKind::Interrupted
            }
            ExitCode::Child(_) => ErrorKind::CommandFailed,
            ExitCode::Done | ExitCode::StuckFound | ExitCode::Unexpected => ErrorKind::Unexpected,
        }
    }

    /// How serious a code is for a batch, most serious first: interrupted
    /// (130, 143, 129), unexpected (1), refused (4), conflict (5), wait
    /// blocked on a dead node (7), wait timed out (6), not found (3),
    /// usage (2), done (0).
    fn severity(self) -> u8 {
        match self {
            ExitCode::Interrupted | ExitCode::Terminated | ExitCode::HungUp => 8,
            ExitCode::Unexpected | ExitCode::Child(_) => 7,
            ExitCode::Refused => 6,
            ExitCode::Conflict => 5,
            ExitCode::WaitBlocked => 4,
            ExitCode::WaitTimedOut => 3,
            ExitCode::NotFound => 2,
            ExitCode::Usage => 1,
            _ => 0,
        }
    }
}

/// In JSON (the batch report), the number the process exits with.
impl serde::Serialize for ExitCode {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_i32(self.as_i32())
    }
}

/// A batch's exit code (of fail-safely or of wait): the most serious among
/// its deployments' `codes`; 0 when every one was applied, replayed or
/// verified.
pub fn merge(codes: impl IntoIterator<Item = ExitCode>) -> ExitCode {
    codes
        .into_iter()
        .max_by_key(|code| code.severity())
        .filter(|code| code.severity() > 0)
        .unwrap_or(ExitCode::Done)
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
    /// `wait`: everything left waits for a dead node (exit 7).
    Blocked,
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
            ErrorKind::Blocked => {
                "bring the node back (its agent returning, the node rebooted), then rerun wait"
            }
            ErrorKind::Interrupted => "rerun the command when ready",
            ErrorKind::ConnectionLost | ErrorKind::ConnectionFailed => {
                "check the database with `pushleft-controller doctor`, then rerun"
            }
            ErrorKind::Refused | ErrorKind::CommandFailed | ErrorKind::Unexpected => return None,
        })
    }
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

#[cfg(test)]
#[path = "exit_tests.rs"]
mod tests;
