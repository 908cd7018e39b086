//! Database errors, classified once where they leave the driver: every
//! statement of the registry, every transaction the tool pins, returns an
//! [`DbError`] whose [`DbFailure`] comes from the SQLSTATE (or the
//! socket), never from message text; `exit` maps it to an exit code and
//! the rules here and in `transition` ask it, not the driver.
//!
//! The errors an operator can act on become sentences with a next step
//! (README, "When things go wrong"): a lock another session will not let
//! go of, a privilege the role lacks, a server out of disk space or
//! connections. Any other error passes unchanged.

use postgres::error::SqlState;

use crate::db_failure::{DbError, DbFailure};
use crate::exit::{self, ExitCode};

/// The kind of failure `err` is: the connection's refusals first (they
/// come FATAL), then a session that ended, then the statement's SQLSTATE.
pub fn failure_of(err: &postgres::Error) -> DbFailure {
    let Some(db) = err.as_db_error() else {
        // The socket itself failed (closed, reset, broken pipe, end of
        // file), or the driver did (a value of an unexpected type).
        let socket = err.is_closed()
            || std::error::Error::source(err).is_some_and(|s| s.is::<std::io::Error>());
        return if socket {
            DbFailure::LostConnection
        } else {
            DbFailure::Other
        };
    };
    let code = db.code();
    const REFUSALS: &[(SqlState, DbFailure)] = &[
        (SqlState::INVALID_PASSWORD, DbFailure::InvalidPassword),
        (
            SqlState::INVALID_AUTHORIZATION_SPECIFICATION,
            DbFailure::NotAuthorized,
        ),
        (SqlState::INVALID_CATALOG_NAME, DbFailure::UnknownDatabase),
        (
            SqlState::TOO_MANY_CONNECTIONS,
            DbFailure::TooManyConnections,
        ),
        (
            SqlState::CANNOT_CONNECT_NOW,
            DbFailure::NotAcceptingConnections,
        ),
    ];
    const STATEMENT: &[(SqlState, DbFailure)] = &[
        (SqlState::LOCK_NOT_AVAILABLE, DbFailure::LockTimeout),
        (
            SqlState::T_R_SERIALIZATION_FAILURE,
            DbFailure::SerializationFailure,
        ),
        (SqlState::T_R_DEADLOCK_DETECTED, DbFailure::Deadlock),
        (SqlState::UNIQUE_VIOLATION, DbFailure::UniqueViolation),
        (
            SqlState::INSUFFICIENT_PRIVILEGE,
            DbFailure::InsufficientPrivilege,
        ),
        (SqlState::DISK_FULL, DbFailure::DiskFull),
        (SqlState::READ_ONLY_SQL_TRANSACTION, DbFailure::ReadOnly),
        (SqlState::UNDEFINED_TABLE, DbFailure::UndefinedTable),
        (
            SqlState::INVALID_PARAMETER_VALUE,
            DbFailure::InvalidParameterValue,
        ),
        (
            SqlState::FEATURE_NOT_SUPPORTED,
            DbFailure::FeatureNotSupported,
        ),
    ];
    let find = |table: &[(SqlState, DbFailure)]| {
        table
            .iter()
            .find(|(state, _)| state == code)
            .map(|(_, failure)| *failure)
    };
    if let Some(failure) = find(REFUSALS) {
        return failure;
    }
    // pushleft_approvals' own refusals (sql/approvals/install.sql).
    if code.code().starts_with("PXA") {
        return DbFailure::PolicyRefused;
    }
    if *code == SqlState::ADMIN_SHUTDOWN
        || *code == SqlState::CRASH_SHUTDOWN
        || matches!(db.severity(), "FATAL" | "PANIC")
    {
        return DbFailure::LostConnection;
    }
    find(STATEMENT).unwrap_or(DbFailure::Other)
}

/// The driver's error, classified: what crosses into the rest of the tool.
impl From<postgres::Error> for DbError {
    fn from(err: postgres::Error) -> DbError {
        let failure = failure_of(&err);
        let server_message = err.as_db_error().map(|db| db.message().to_string());
        DbError::new(failure, server_message, err)
    }
}

/// The classified database error in `err`'s chain.
pub fn db_error(err: &anyhow::Error) -> Option<&DbError> {
    err.chain().find_map(|c| c.downcast_ref::<DbError>())
}

/// What the server sent with `err` (its constraint, its table), for the
/// rules that need more than the kind.
pub fn server_error(err: &DbError) -> Option<&postgres::error::DbError> {
    err.driver::<postgres::Error>()?.as_db_error()
}

/// What a command was doing, for the sentence.
#[derive(Debug, Clone, Copy)]
pub struct Doing<'a> {
    /// "while …", e.g. "scanning for stuck deployments".
    pub what: &'a str,
    /// Whether anything can have been written, as a clause, e.g. "this
    /// command only reads: nothing was written".
    pub written: &'a str,
    /// The command to rerun.
    pub rerun: &'a str,
}

/// The sentence for `err`, if it is one of the errors above; else `err`.
pub fn explain(err: anyhow::Error, doing: Doing<'_>) -> anyhow::Error {
    // Already a sentence of ours.
    if err.chain().any(|c| c.is::<exit::Failure>()) {
        return err;
    }
    let Some(db) = db_error(&err) else {
        return err;
    };
    let said = db.server_message.clone().unwrap_or_default();
    match db.failure {
        DbFailure::LockTimeout => exit::explained(
            DbFailure::LockTimeout,
            ExitCode::Conflict,
            format!(
                "another session holds a lock on a table needed while {} and did not let go \
                 within the lock timeout ({said}): a migration, a VACUUM FULL or a LOCK TABLE, \
                 say. {}. Next step: find the blocking session (pg_stat_activity, pg_locks; \
                 `pushleft-controller doctor` shows the connection), then rerun `{}`",
                doing.what, doing.written, doing.rerun
            ),
        ),
        DbFailure::InsufficientPrivilege => exit::explained(
            DbFailure::InsufficientPrivilege,
            ExitCode::Refused,
            format!(
                "permission denied while {} ({said}): this role may not read a table or a \
                 column the command needs, so it shows nothing rather than part of the \
                 picture. {}. Next step: GRANT SELECT on the control plane's tables (and their \
                 columns) to the role, or connect as one that may; `pushleft-controller doctor` \
                 names what is missing, then rerun `{}`",
                doing.what, doing.written, doing.rerun
            ),
        ),
        DbFailure::DiskFull => exit::explained(
            DbFailure::DiskFull,
            ExitCode::Unexpected,
            format!(
                "the database server is out of disk space ({said}) while {}. {}. Next step: \
                 free disk space on the database server (its data or WAL volume), then rerun \
                 `{}`",
                doing.what, doing.written, doing.rerun
            ),
        ),
        DbFailure::TooManyConnections => exit::explained(
            DbFailure::TooManyConnections,
            ExitCode::Unexpected,
            format!(
                "the database server accepts no more connections ({said}) while {}. {}. Next \
                 step: wait for connections to free up, or connect through the pooler, then \
                 rerun `{}`",
                doing.what, doing.written, doing.rerun
            ),
        ),
        _ => err,
    }
}
