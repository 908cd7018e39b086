//! Database errors an operator can act on, turned into sentences with a
//! next step (README, "When things go wrong"): a lock another session will
//! not let go of, a privilege the role lacks, a server out of disk space
//! or connections. Matched by
//! SQLSTATE, never by message text. Any other error passes unchanged.

use postgres::error::{DbError, SqlState};

use crate::exit;

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

fn db_error(err: &anyhow::Error) -> Option<&DbError> {
    err.chain()
        .find_map(|c| c.downcast_ref::<postgres::Error>())?
        .as_db_error()
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
    let code = db.code();
    let said = db.message().to_string();
    if *code == SqlState::LOCK_NOT_AVAILABLE {
        return exit::conflict(format!(
            "another session holds a lock on a table needed while {} and did not let go \
             within the lock timeout ({said}): a migration, a VACUUM FULL or a LOCK TABLE, \
             say. {}. Next step: find the blocking session (pg_stat_activity, pg_locks; \
             `pushleft-controller doctor` shows the connection), then rerun `{}`",
            doing.what, doing.written, doing.rerun
        ));
    }
    if *code == SqlState::INSUFFICIENT_PRIVILEGE {
        return exit::refused(format!(
            "permission denied while {} ({said}): this role may not read a table or a column \
             the command needs, so it shows nothing rather than part of the picture. {}. Next \
             step: GRANT SELECT on the control plane's tables (and their columns) to the role, \
             or connect as one that may; `pushleft-controller doctor` names what is missing, \
             then rerun `{}`",
            doing.what, doing.written, doing.rerun
        ));
    }
    if *code == SqlState::DISK_FULL
        || (*code == SqlState::IO_ERROR && said.contains("No space left"))
        || said.contains("No space left on device")
    {
        return anyhow::Error::new(exit::Failure {
            code: exit::ExitCode::Unexpected,
            kind: exit::ErrorKind::Unexpected,
            message: format!(
                "the database server is out of disk space ({said}) while {}. {}. Next step: \
                 free disk space on the database server (its data or WAL volume), then rerun \
                 `{}`",
                doing.what, doing.written, doing.rerun
            ),
        });
    }
    if *code == SqlState::TOO_MANY_CONNECTIONS {
        return anyhow::Error::new(exit::Failure {
            code: exit::ExitCode::Unexpected,
            kind: exit::ErrorKind::ConnectionFailed,
            message: format!(
                "the database server accepts no more connections ({said}) while {}. {}. Next \
                 step: wait for connections to free up, or connect through the pooler, then \
                 rerun `{}`",
                doing.what, doing.written, doing.rerun
            ),
        });
    }
    err
}
