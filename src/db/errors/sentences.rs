//! The sentences of the database failures an operator can act on (README,
//! "When things go wrong"), one function per kind: `None` where the kind
//! says nothing more for what the command was doing than the error does.

use super::Doing;
use crate::db::sql::Schema;
use crate::db_failure::{DbError, DbFailure};
use crate::exit::{self, ExitCode};

/// The sentence and its exit code.
type Sentence = Option<(ExitCode, String)>;

/// What every command that gets one of the shared sentences says of
/// itself in it.
struct Told<'a> {
    /// "while …".
    what: String,
    /// Whether anything can have been written.
    written: &'static str,
    /// The command to rerun.
    rerun: &'a str,
}

/// What `doing` says in the shared sentences; `None` for one look of
/// `wait` (its command says it once it ends).
fn told<'a>(doing: &Doing<'a>) -> Option<Told<'a>> {
    match *doing {
        Doing::Reading { what, rerun, .. } => Some(Told {
            what: what.to_string(),
            written: "This command only reads: nothing was written",
            rerun,
        }),
        Doing::Waiting { .. } => None,
        Doing::Writing { deployment, .. } => Some(Told {
            what: format!("fail-safely was working on deployment {deployment}"),
            written: "The transaction never committed: nothing was written",
            rerun: "the same command (same --reason, same --idempotency-key)",
        }),
    }
}

/// `lock_timeout` ran out (55P03): for fail-safely, the rows it locks;
/// for a read, a table lock (a migration's, say).
pub fn lock_timeout(doing: &Doing<'_>, said: &str) -> Sentence {
    if let Doing::Writing {
        deployment,
        lock_timeout,
        ..
    } = *doing
    {
        let within = crate::duration::human(lock_timeout.as_secs() as i64).replace("0s", "<1s");
        return Some((
            ExitCode::Conflict,
            format!(
                "another transaction holds deployment {deployment} (or one of its jobs or \
                 instances, or runs with the same idempotency key) and did not let go within \
                 {within}; nothing was written. Retry in a moment, or raise --lock-timeout"
            ),
        ));
    }
    let Told {
        what,
        written,
        rerun,
    } = told(doing)?;
    Some((
        ExitCode::Conflict,
        format!(
            "another session holds a lock on a table needed while {what} and did not let go \
             within the lock timeout ({said}): a migration, a VACUUM FULL or a LOCK TABLE, \
             say. {written}. Next step: find the blocking session (pg_stat_activity, pg_locks; \
             `pushleft-controller doctor` shows the connection), then rerun `{rerun}`"
        ),
    ))
}

/// The role lacks a privilege (42501): fail-safely names what it needs;
/// a read names the user it runs as.
pub fn permission_denied(doing: &Doing<'_>, said: &str) -> Sentence {
    if let Doing::Writing { role, .. } = *doing {
        let role = role
            .map(|r| format!(" (running as role {r})"))
            .unwrap_or_default();
        return Some((
            ExitCode::Refused,
            format!(
                "permission denied{role}: {said}. fail-safely needs SELECT on the tables it \
                 reads, SELECT ... FOR UPDATE and UPDATE on deployments, jobs and \
                 application_instances, and INSERT on deployment_events; run with --role set to \
                 the owner role or grant these. Nothing was written"
            ),
        ));
    }
    let Told {
        mut what,
        written,
        rerun,
    } = told(doing)?;
    // The reads run as the user they connect as (no --role for reads).
    if let Doing::Reading {
        user: Some(user), ..
    } = *doing
    {
        what = format!("{what} as role {user}");
    }
    Some((
        ExitCode::Refused,
        format!(
            "permission denied while {what} ({said}): this role may not read a table or a \
             column the command needs, so it shows nothing rather than part of the picture. \
             {written}. Next step: GRANT SELECT on the control plane's tables (and their \
             columns) to the role, or connect as one that may; `pushleft-controller doctor` \
             names what is missing, then rerun `{rerun}`"
        ),
    ))
}

/// The server is out of disk space (53100).
pub fn disk_full(doing: &Doing<'_>, said: &str) -> Sentence {
    let Told {
        what,
        written,
        rerun,
    } = told(doing)?;
    Some((
        ExitCode::Unexpected,
        format!(
            "the database server is out of disk space ({said}) while {what}. {written}. Next \
             step: free disk space on the database server (its data or WAL volume), then rerun \
             `{rerun}`"
        ),
    ))
}

/// The server takes no more connections (53300).
pub fn too_many_connections(doing: &Doing<'_>, said: &str) -> Sentence {
    let Told {
        what,
        written,
        rerun,
    } = told(doing)?;
    Some((
        ExitCode::Unexpected,
        format!(
            "the database server accepts no more connections ({said}) while {what}. {written}. \
             Next step: wait for connections to free up, or connect through the pooler, then \
             rerun `{rerun}`"
        ),
    ))
}

/// fail-safely's transaction conflicted (40001, 40P01, the event's
/// sequence taken) on every attempt.
pub fn conflicts_kept(doing: &Doing<'_>, said: &str) -> Sentence {
    let Doing::Writing {
        deployment,
        attempts,
        ..
    } = *doing
    else {
        return None;
    };
    Some((
        ExitCode::Conflict,
        format!(
            "deployment {deployment}: the transaction kept conflicting with concurrent changes \
             ({said}) after {attempts} attempts; nothing was written. Re-diagnose and retry"
        ),
    ))
}

/// The policy of a database that records plans refused fail-safely's
/// write (`pushleft_approvals`' SQLSTATEs PXA01 to PXA03).
pub fn policy_refused(doing: &Doing<'_>, said: &str) -> Sentence {
    let Doing::Writing { deployment, .. } = *doing else {
        return None;
    };
    Some((
        ExitCode::Refused,
        format!(
            "deployment {deployment}: the database refused the write: {}. Nothing was written. \
             Make a plan (--plan-out FILE, which writes nothing) and have another operator \
             apply it (fail-safely --apply FILE); `pushleft-controller doctor` shows the policy",
            crate::model::text::escaped(said.trim_start_matches("pushleft_approvals: "))
        ),
    ))
}

/// `SET LOCAL ROLE` to a role that does not exist (22023).
pub fn unknown_role(doing: &Doing<'_>, said: &str) -> Sentence {
    let Doing::Writing {
        role: Some(role), ..
    } = *doing
    else {
        return None;
    };
    Some((
        ExitCode::Refused,
        format!(
            "cannot run as role {role}: {said}. Check the role name (doctor --role {role} \
             checks it); nothing was written"
        ),
    ))
}

/// A table that does not exist, the first time a command reaches for one
/// (42P01): most likely the wrong schema, which the operator can fix.
pub fn missing_table(err: DbError, schema: &Schema) -> anyhow::Error {
    if err.failure == DbFailure::UndefinedTable {
        return exit::usage(format!(
            "there is no table deployments in schema `{}` ({}): give the schema that holds the \
             control plane's tables with --schema or PUSHLEFT_SCHEMA, and check it with \
             `pushleft-controller doctor`",
            schema.name().escape_debug(),
            err.server_message.as_deref().unwrap_or_default()
        ));
    }
    anyhow::Error::new(err)
}
