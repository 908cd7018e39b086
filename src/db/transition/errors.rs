//! What a failed transition tells the operator: which conflicts are retried,
//! and database errors turned into sentences with a next step.

use uuid::Uuid;

use super::{MAX_ATTEMPTS, Request};
use crate::db::errors::{db_error, server_error};
use crate::db_failure::{DbError, DbFailure};
use crate::exit::{self, ExitCode, Lost};
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

/// The session ended under us (terminated, server stopped): say whether
/// anything can have been written, and that rerunning is safe.
pub fn explain_lost_connection(err: anyhow::Error, request: &Request) -> anyhow::Error {
    if let Some(commit) = err.chain().find_map(|c| c.downcast_ref::<CommitFailed>()) {
        let id = commit.deployment;
        return exit::explain_lost(
            err,
            Lost {
                doing: &format!("committing the change to deployment {id}"),
                written: ": it may or may not have been written",
                next: &format!(
                    "rerun the same command (same --reason, same --idempotency-key): if the \
                     change was committed it reports it without writing again, otherwise it \
                     applies it now. `{}` shows the current state",
                    NextCommand::diagnose(id)
                ),
            },
        );
    }
    exit::explain_lost(
        err,
        Lost {
            doing: &format!(
                "fail-safely was working on deployment {}",
                request.deployment
            ),
            written: ". The transaction never committed, so the server rolled it back: nothing \
                      was written",
            next: "check that the database is up (`pushleft-controller doctor`), then rerun \
                   the same command; it decides again from the current state",
        },
    )
}

/// The conflicts the whole transaction is retried on.
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

/// Turns the database errors an operator can act on into sentences.
pub fn explain_db_error(err: anyhow::Error, request: &Request) -> anyhow::Error {
    let Some(db) = db_error(&err) else {
        return err;
    };
    let failure = db.failure;
    let message = db.server_message.clone().unwrap_or_default();
    let id = &request.deployment;
    if failure == DbFailure::LockTimeout {
        return exit::explained(
            failure,
            ExitCode::Conflict,
            format!(
                "another transaction holds deployment {id} (or one of its jobs or instances, or runs with the same idempotency key) and did not let go within {}; nothing was written. Retry in a moment, or raise --lock-timeout",
                crate::duration::human(request.lock_timeout.as_secs() as i64).replace("0s", "<1s")
            ),
        );
    }
    if retryable(&err).is_some() {
        return exit::conflict(format!(
            "deployment {id}: the transaction kept conflicting with concurrent changes ({message}) after {MAX_ATTEMPTS} attempts; nothing was written. Re-diagnose and retry"
        ));
    }
    if failure == DbFailure::PolicyRefused {
        return exit::explained(
            failure,
            ExitCode::Refused,
            format!(
                "deployment {id}: the database refused the write: {}. Nothing was written. \
                 Make a plan (--plan-out FILE, which writes nothing) and have another operator \
                 apply it (fail-safely --apply FILE); `pushleft-controller doctor` shows the \
                 policy",
                crate::model::text::escaped(message.trim_start_matches("pushleft_approvals: "))
            ),
        );
    }
    if failure == DbFailure::InsufficientPrivilege {
        let role = request
            .role
            .as_deref()
            .map(|r| format!(" (running as role {r})"))
            .unwrap_or_default();
        return exit::explained(
            failure,
            ExitCode::Refused,
            format!(
                "permission denied{role}: {message}. fail-safely needs SELECT on the tables it reads, \
             SELECT ... FOR UPDATE and UPDATE on deployments, jobs and application_instances, and \
             INSERT on deployment_events; run with --role set to the owner role or grant these. \
             Nothing was written"
            ),
        );
    }
    if failure == DbFailure::InvalidParameterValue
        && let Some(role) = &request.role
    {
        return exit::refused(format!(
            "cannot run as role {role}: {message}. Check the role name (doctor --role \
             {role} checks it); nothing was written"
        ));
    }
    crate::db::errors::explain(
        err,
        crate::db::errors::Doing {
            what: &format!("fail-safely was working on deployment {id}"),
            written: "The transaction never committed: nothing was written",
            rerun: "the same command (same --reason, same --idempotency-key)",
        },
    )
}
