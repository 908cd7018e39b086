//! A session that ended under a command (terminated, the server stopped
//! or crashed, the socket closed): the sentence says what was going on,
//! what the server said, whether anything can have been written, and
//! what to do. Exit 1, kind `connection_lost`.

use uuid::Uuid;

use super::Doing;
use crate::db_failure::DbError;
use crate::model::NextCommand;

/// COMMIT failed: whether the change is in effect is unknown.
#[derive(Debug)]
pub struct CommitFailed {
    pub deployment: Uuid,
    pub source: DbError,
}

impl std::fmt::Display for CommitFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "committing the change to deployment {}", self.deployment)
    }
}

impl std::error::Error for CommitFailed {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// The sentence for `err`, whose classified error `db` ended the session,
/// while `doing`.
pub fn sentence(err: &anyhow::Error, db: &DbError, doing: &Doing<'_>) -> String {
    let (what, written, next) = match *doing {
        Doing::Reading { what, rerun, .. } => (
            what.to_string(),
            ". This command only reads: nothing was written".to_string(),
            rerun_when_up(rerun),
        ),
        Doing::Waiting { deployment } => (
            format!("waiting for deployment {deployment}"),
            ". wait only reads: nothing was written, and what fail-safely did stays done"
                .to_string(),
            rerun_when_up(NextCommand::wait(deployment)),
        ),
        Doing::Writing { deployment, .. } => {
            match err.chain().find_map(|c| c.downcast_ref::<CommitFailed>()) {
                Some(commit) => committing(commit.deployment),
                None => (
                    format!("fail-safely was working on deployment {deployment}"),
                    ". The transaction never committed, so the server rolled it back: nothing \
                     was written"
                        .to_string(),
                    "check that the database is up (`pushleft-controller doctor`), then rerun \
                     the same command; it decides again from the current state"
                        .to_string(),
                ),
            }
        }
    };
    format!(
        "lost the connection to the database while {what} ({}){written}. Next step: {next}",
        cause(db)
    )
}

/// COMMIT's answer never came: the change may be in effect or not, and
/// rerunning the same command finds out without writing twice.
fn committing(id: Uuid) -> (String, String, String) {
    (
        format!("committing the change to deployment {id}"),
        ": it may or may not have been written".to_string(),
        format!(
            "rerun the same command (same --reason, same --idempotency-key): if the change was \
             committed it reports it without writing again, otherwise it applies it now. `{}` \
             shows the current state",
            NextCommand::diagnose(id)
        ),
    )
}

/// The next step after a read-only command lost its session.
fn rerun_when_up(rerun: impl std::fmt::Display) -> String {
    format!("check that the database is up (`pushleft-controller doctor`), then rerun `{rerun}`")
}

/// What the server (or the socket) said when the session ended: the
/// server's message, else the innermost cause.
fn cause(db: &DbError) -> String {
    match &db.server_message {
        Some(said) => said.clone(),
        None => {
            let mut innermost: &dyn std::error::Error = db;
            while let Some(cause) = innermost.source() {
                innermost = cause;
            }
            innermost.to_string()
        }
    }
}

#[cfg(test)]
#[path = "lost_tests.rs"]
mod tests;
