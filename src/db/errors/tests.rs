use std::time::Duration;

use super::*;
use crate::db_failure::DbError;
use crate::exit::ErrorKind;

/// A classified database error of `failure`, the server having said `said`.
fn db(failure: DbFailure, said: &str) -> anyhow::Error {
    let socket = std::io::Error::other("reset by peer");
    anyhow::Error::new(DbError::new(failure, Some(said.to_string()), socket))
}

const READING: Doing<'static> = Doing::Reading {
    what: "scanning for stuck deployments",
    rerun: "pushleft-controller stuck",
    user: None,
};

/// fail-safely on d0000001 as `role`, waiting `lock_timeout` for locks.
fn writing(role: Option<&str>, lock_timeout: Duration) -> Doing<'_> {
    Doing::Writing {
        deployment: "d0000001",
        role,
        lock_timeout,
        attempts: 5,
    }
}

const WRITING: Doing<'static> = Doing::Writing {
    deployment: "d0000001",
    role: Some("deploy_owner"),
    lock_timeout: Duration::from_secs(5),
    attempts: 5,
};

/// What `explain` makes of `failure` while `doing`: the message, the exit
/// code, the kind and the failure the sentence says it explains.
fn told(
    failure: DbFailure,
    said: &str,
    doing: &Doing<'_>,
) -> (String, ExitCode, ErrorKind, Option<DbFailure>) {
    let err = explain(db(failure, said), doing);
    (
        err.to_string(),
        exit::code_for(&err),
        exit::kind_for(&err),
        exit::db_failure(&err),
    )
}

#[test]
fn a_lost_connection_says_whether_anything_was_written() {
    let (message, code, kind, failure) = told(DbFailure::LostConnection, "terminated", &READING);
    assert_eq!(
        message,
        "lost the connection to the database while scanning for stuck deployments \
         (terminated). This command only reads: nothing was written. Next step: check that the \
         database is up (`pushleft-controller doctor`), then rerun `pushleft-controller stuck`"
    );
    assert_eq!(
        (code, kind, failure),
        (
            ExitCode::Unexpected,
            ErrorKind::ConnectionLost,
            Some(DbFailure::LostConnection)
        )
    );
    let waiting = Doing::Waiting {
        deployment: "d0000002",
    };
    let (message, ..) = told(
        DbFailure::NotAcceptingConnections,
        "shutting down",
        &waiting,
    );
    assert_eq!(
        message,
        "lost the connection to the database while waiting for deployment d0000002 (shutting \
         down). wait only reads: nothing was written, and what fail-safely did stays done. Next \
         step: check that the database is up (`pushleft-controller doctor`), then rerun \
         `pushleft-controller wait d0000002`"
    );
    let (message, ..) = told(DbFailure::LostConnection, "terminated", &WRITING);
    assert_eq!(
        message,
        "lost the connection to the database while fail-safely was working on deployment \
         d0000001 (terminated). The transaction never committed, so the server rolled it back: \
         nothing was written. Next step: check that the database is up (`pushleft-controller \
         doctor`), then rerun the same command; it decides again from the current state"
    );
}

#[test]
fn a_lock_timeout_is_a_conflict_to_retry() {
    let (message, code, kind, failure) = told(DbFailure::LockTimeout, "lock timeout", &READING);
    assert_eq!(
        message,
        "another session holds a lock on a table needed while scanning for stuck deployments \
         and did not let go within the lock timeout (lock timeout): a migration, a VACUUM FULL \
         or a LOCK TABLE, say. This command only reads: nothing was written. Next step: find \
         the blocking session (pg_stat_activity, pg_locks; `pushleft-controller doctor` shows \
         the connection), then rerun `pushleft-controller stuck`"
    );
    assert_eq!(
        (code, kind, failure),
        (
            ExitCode::Conflict,
            ErrorKind::Conflict,
            Some(DbFailure::LockTimeout)
        )
    );
    let short = writing(None, Duration::from_millis(200));
    let (message, code, ..) = told(DbFailure::LockTimeout, "lock timeout", &short);
    assert_eq!(
        message,
        "another transaction holds deployment d0000001 (or one of its jobs or instances, or \
         runs with the same idempotency key) and did not let go within <1s; nothing was \
         written. Retry in a moment, or raise --lock-timeout"
    );
    assert_eq!(code, ExitCode::Conflict);
}

#[test]
fn a_lock_timeout_names_who_holds_the_locks_when_known() {
    let err = explain(db(DbFailure::LockTimeout, "lock timeout"), &WRITING);
    let named = held_by(err, || Some("pid 42 holds them".to_string()));
    assert!(
        named
            .to_string()
            .ends_with("raise --lock-timeout. pid 42 holds them"),
        "{named}"
    );
    assert_eq!(exit::code_for(&named), ExitCode::Conflict);
    let other = explain(db(DbFailure::DiskFull, "full"), &WRITING);
    let before = other.to_string();
    let asked = std::cell::Cell::new(false);
    let after = held_by(other, || {
        asked.set(true);
        Some("nobody".to_string())
    });
    assert_eq!(after.to_string(), before);
    assert!(!asked.get(), "the holders are read only for a lock timeout");
}

#[test]
fn permission_denied_names_the_role() {
    let reading = Doing::Reading {
        what: "scanning for stuck deployments",
        rerun: "pushleft-controller stuck",
        user: Some("reader"),
    };
    let (message, code, kind, _) = told(
        DbFailure::InsufficientPrivilege,
        "permission denied for table jobs",
        &reading,
    );
    assert_eq!(
        message,
        "permission denied while scanning for stuck deployments as role reader (permission \
         denied for table jobs): this role may not read a table or a column the command needs, \
         so it shows nothing rather than part of the picture. This command only reads: nothing \
         was written. Next step: GRANT SELECT on the control plane's tables (and their columns) \
         to the role, or connect as one that may; `pushleft-controller doctor` names what is \
         missing, then rerun `pushleft-controller stuck`"
    );
    assert_eq!((code, kind), (ExitCode::Refused, ErrorKind::Refused));
    let (message, code, ..) = told(DbFailure::InsufficientPrivilege, "no", &WRITING);
    assert_eq!(
        message,
        "permission denied (running as role deploy_owner): no. fail-safely needs SELECT on the \
         tables it reads, SELECT ... FOR UPDATE and UPDATE on deployments, jobs and \
         application_instances, and INSERT on deployment_events; run with --role set to the \
         owner role or grant these. Nothing was written"
    );
    assert_eq!(code, ExitCode::Refused);
}

#[test]
fn a_full_disk_and_a_full_server_say_what_to_free() {
    let (message, code, ..) = told(DbFailure::DiskFull, "could not extend file", &WRITING);
    assert_eq!(
        message,
        "the database server is out of disk space (could not extend file) while fail-safely \
         was working on deployment d0000001. The transaction never committed: nothing was \
         written. Next step: free disk space on the database server (its data or WAL volume), \
         then rerun `the same command (same --reason, same --idempotency-key)`"
    );
    assert_eq!(code, ExitCode::Unexpected);
    let (message, code, kind, _) = told(DbFailure::TooManyConnections, "too many", &READING);
    assert_eq!(
        message,
        "the database server accepts no more connections (too many) while scanning for stuck \
         deployments. This command only reads: nothing was written. Next step: wait for \
         connections to free up, or connect through the pooler, then rerun \
         `pushleft-controller stuck`"
    );
    assert_eq!(
        (code, kind),
        (ExitCode::Unexpected, ErrorKind::ConnectionFailed)
    );
}

#[test]
fn the_writes_own_refusals() {
    let (message, code, kind, _) = told(
        DbFailure::SerializationFailure,
        "could not serialize",
        &WRITING,
    );
    assert_eq!(
        message,
        "deployment d0000001: the transaction kept conflicting with concurrent changes (could \
         not serialize) after 5 attempts; nothing was written. Re-diagnose and retry"
    );
    assert_eq!((code, kind), (ExitCode::Conflict, ErrorKind::Conflict));
    let (message, code, ..) = told(
        DbFailure::PolicyRefused,
        "pushleft_approvals: a write needs a plan",
        &WRITING,
    );
    assert_eq!(
        message,
        "deployment d0000001: the database refused the write: a write needs a plan. Nothing was \
         written. Make a plan (--plan-out FILE, which writes nothing) and have another operator \
         apply it (fail-safely --apply FILE); `pushleft-controller doctor` shows the policy"
    );
    assert_eq!(code, ExitCode::Refused);
    let (message, code, ..) = told(
        DbFailure::InvalidParameterValue,
        "role \"nobody\" does not exist",
        &WRITING,
    );
    assert_eq!(
        message,
        "cannot run as role deploy_owner: role \"nobody\" does not exist. Check the role name \
         (doctor --role deploy_owner checks it); nothing was written"
    );
    assert_eq!(code, ExitCode::Refused);
}

#[test]
fn what_a_command_cannot_act_on_passes_unchanged() {
    // A read has no refusals of its own, nor a conflict it retried.
    for failure in [
        DbFailure::SerializationFailure,
        DbFailure::PolicyRefused,
        DbFailure::InvalidParameterValue,
        DbFailure::Other,
    ] {
        let err = explain(db(failure, "said"), &READING);
        assert!(err.downcast_ref::<DbError>().is_some(), "{failure:?}");
    }
    // One look of wait tells a lost session only.
    let waiting = Doing::Waiting {
        deployment: "d0000002",
    };
    let err = explain(db(DbFailure::LockTimeout, "lock timeout"), &waiting);
    assert!(err.downcast_ref::<DbError>().is_some());
    // Without --role, an invalid parameter is no unknown role.
    let no_role = writing(None, Duration::from_secs(5));
    let err = explain(db(DbFailure::InvalidParameterValue, "bad"), &no_role);
    assert!(err.downcast_ref::<DbError>().is_some());
    // Not a database error, or already a sentence of ours.
    let plain = explain(anyhow::anyhow!("boom"), &READING);
    assert_eq!(plain.to_string(), "boom");
    let ours = explain(exit::refused("nothing to do"), &WRITING);
    assert_eq!(ours.to_string(), "nothing to do");
}

#[test]
fn a_missing_table_is_the_wrong_schema() {
    let schema = crate::db::sql::Schema::public();
    let missing = DbError::new(
        DbFailure::UndefinedTable,
        Some("relation \"public.deployments\" does not exist".to_string()),
        std::io::Error::other("x"),
    );
    let err = missing_table(missing, &schema);
    assert_eq!(exit::code_for(&err), ExitCode::Usage);
    assert!(
        err.to_string()
            .starts_with("there is no table deployments in schema `public` (relation"),
        "{err}"
    );
    let other = DbError::new(DbFailure::Other, None, std::io::Error::other("x"));
    assert!(
        missing_table(other, &schema)
            .downcast_ref::<DbError>()
            .is_some()
    );
}
