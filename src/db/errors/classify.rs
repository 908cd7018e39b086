//! Database errors, classified once where they leave the driver: every
//! statement of the registry, every transaction the tool pins, returns an
//! [`DbError`] whose [`DbFailure`] comes from the SQLSTATE (or the
//! socket), never from message text; the kind has its exit code, and the
//! explainer and the transition's retries ask it, not the driver.

use postgres::error::SqlState;

use crate::db_failure::{DbError, DbFailure};

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

/// The conflicts the whole transaction is retried on, by name (for the
/// note the operator sees on each retry): a serialization failure, a
/// deadlock, or another transaction that took the event's sequence number.
pub fn retryable(err: &anyhow::Error) -> Option<&'static str> {
    let db = db_error(err)?;
    match db.failure {
        DbFailure::SerializationFailure => Some("serialization failure"),
        DbFailure::Deadlock => Some("deadlock"),
        DbFailure::UniqueViolation => {
            let server = server_error(db)?;
            let sequence = server.constraint() == Some("deployment_events_deployment_sequence")
                // A partitioned deployment_events names its partition's key.
                || (server.table().is_some_and(|t| t.starts_with("deployment_events"))
                    && server.constraint().is_some_and(|c| c.contains("sequence")));
            sequence.then_some("event sequence taken")
        }
        _ => None,
    }
}
