//! A database error as `db` classifies it where the error leaves the
//! driver: the kind of failure (from the SQLSTATE, or the socket) and what
//! the server said, with the driver's error inside. It is the foundation's,
//! so a kind has its exit code (`DbFailure::code`) without the driver, and
//! every layer asks an error's kind instead of reading its words. The
//! sentence an operator reads is `db::errors`' (the one explainer).

use std::fmt;

use crate::exit::{ErrorKind, ExitCode};

/// What kind of failure a database error is, classified once from its
/// SQLSTATE (or the socket) by `db` where the error left the driver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DbFailure {
    /// `lock_timeout` ran out waiting for a lock (55P03).
    LockTimeout,
    /// 40001.
    SerializationFailure,
    /// 40P01.
    Deadlock,
    /// 23505.
    UniqueViolation,
    /// The session ended under us: the server terminated it, shut down or
    /// crashed, a FATAL or PANIC error, or the socket closed.
    LostConnection,
    /// The server is starting, stopping or in recovery (57P03).
    NotAcceptingConnections,
    /// 53300.
    TooManyConnections,
    /// 42501.
    InsufficientPrivilege,
    /// 53100.
    DiskFull,
    /// A write in a read-only transaction (25006).
    ReadOnly,
    /// 42P01.
    UndefinedTable,
    /// 22023.
    InvalidParameterValue,
    /// 0A000: among others, what a standby answers `READ WRITE`.
    FeatureNotSupported,
    /// The password was refused (28P01).
    InvalidPassword,
    /// pg_hba.conf refused the user, database or address (28000).
    NotAuthorized,
    /// No such database (3D000).
    UnknownDatabase,
    /// The policy of a database that records plans refused the write, or
    /// a record was to be changed (`pushleft_approvals`' triggers:
    /// SQLSTATE PXA01 the plan, PXA02 the policy, PXA03 append-only).
    PolicyRefused,
    /// Any other database error.
    Other,
}

impl DbFailure {
    /// Whether the session is gone with it.
    pub fn ends_session(self) -> bool {
        matches!(
            self,
            DbFailure::LostConnection | DbFailure::NotAcceptingConnections
        )
    }

    /// The exit code of this failure when nothing explains it (README,
    /// "Output and exit codes"): the conflicts are safe to re-diagnose and
    /// retry (5); the rest is 1.
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

/// A database error as `db` classified it: the kind of failure, what the
/// server said, and the driver's error, whose words and causes it shows as
/// its own.
#[derive(Debug)]
pub struct DbError {
    pub failure: DbFailure,
    /// The server's message, when the server sent the error.
    pub server_message: Option<String>,
    driver: Box<dyn std::error::Error + Send + Sync>,
}

impl DbError {
    pub fn new(
        failure: DbFailure,
        server_message: Option<String>,
        driver: impl std::error::Error + Send + Sync + 'static,
    ) -> DbError {
        DbError {
            failure,
            server_message,
            driver: Box::new(driver),
        }
    }

    /// The driver's error, for the few rules that need more than the kind.
    pub fn driver<E: std::error::Error + 'static>(&self) -> Option<&E> {
        self.driver.downcast_ref()
    }
}

impl fmt::Display for DbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.driver.fmt(f)
    }
}

impl std::error::Error for DbError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.driver.source()
    }
}
