//! One attempt of the guarded transaction, step by step: the steps are
//! numbered here in the order they run, as in the README ("fail-safely,
//! step by step"), and the files of `sql/fail_safely/` in the same order.
//! The guard's reads live in `guard.rs`, the writes and the read-back in
//! `write.rs`, the replay in `replay.rs`; every judgement on what they read
//! (may it write, what, did the database hold what was written) is asked
//! of `decide::transition` and `decide::guard`, inside the transaction.

use crate::db::session::{Pinned, Session, Terms, Timeouts};
use anyhow::{Context, Result};
use postgres::SimpleQueryMessage;
use uuid::Uuid;

use super::errors::CommitFailed;
use super::first::{self, FirstMessage};
use super::guard;
use super::preconditions::{fit_to_write, is_during_recovery, refuse_on_standby};
use super::write::{Who, read_back, write};
use super::{EventOut, Outcome, Request, replay};
use crate::db::deployment_id::{self, IdQuery};
use crate::db::schema_check::SchemaReport;
use crate::db::snapshot;
use crate::db::sql::{self, Schema};
use crate::decide::guard::runbook_writes_only;
use crate::decide::input::default_key;
use crate::decide::transition::server::{SchemaFound, safe_to_write};
use crate::decide::transition::written::{Written, check_reread};
use crate::decide::{self, transition};
use crate::exit;
use crate::model::replication::Replication;
use crate::model::{BreakGlassPath, DeploymentSnapshot, NextCommand};

/// One attempt: steps 1 to 4 here (one round trip each, the third only for
/// a prefix or `--role`), the rest in [`attempt_in`].
pub fn attempt_once(session: &mut Session, request: &Request) -> Result<Outcome> {
    // While the transaction is open, Ctrl-C only sets a flag, checked before
    // COMMIT: the operator learns for sure that nothing was written, instead
    // of the process dying with a COMMIT possibly in flight.
    let _deferred = crate::interrupt::deferred();
    let timeouts = Timeouts {
        lock: request.lock_timeout,
        ..*session.timeouts()
    };
    match open_and_attempt(session, request, &timeouts) {
        // A standby refuses the READ WRITE transaction: say so, and name
        // the primary.
        Err(err) if is_during_recovery(session, &err) => Err(refuse_on_standby(session)),
        other => other,
    }
}

/// Steps 1 to 4, then [`attempt_in`].
fn open_and_attempt(
    session: &mut Session,
    request: &Request,
    timeouts: &Timeouts,
) -> Result<Outcome> {
    let full = match deployment_id::parse(&request.deployment)? {
        IdQuery::Full(id) => Some(id),
        IdQuery::Prefix { .. } => None,
    };
    let opened = match (full, &request.role) {
        // Step 1, then step 4 in the next message (steps 2 and 3 need no
        // statement here).
        (Some(id), None) => {
            let key = key_of(request, id);
            session
                .begin_then(
                    Terms::LockAndWrite,
                    timeouts,
                    fit_to_write,
                    &first::script(&request.schema, &key),
                )
                .map(|(tx, messages)| (tx, id, key, messages))
        }
        _ => session
            .begin_with(Terms::LockAndWrite, timeouts)
            .and_then(|tx| open_in(tx, request, full)),
    };
    let (tx, id, key, messages) = opened.map_err(|err| missing_schema(err, &request.schema))?;
    let first = first::read(messages, &request.schema, &request.allowed_triggers);
    attempt_in(tx, request, id, &key, first)
}

/// Steps 2 to 4 in a transaction opened by step 1 alone: `--role`, the
/// prefix resolved, then step 4's message.
fn open_in<'s>(
    mut tx: Pinned<'s>,
    request: &Request,
    full: Option<Uuid>,
) -> Result<(Pinned<'s>, Uuid, String, Vec<SimpleQueryMessage>)> {
    // Step 2: refuse a server unfit for the write (from what step 1 found
    // in force), then `--role`.
    fit_to_write(tx.in_force())?;
    set_role(&mut tx, request)?;
    // Step 3: a prefix (a full id is looked up when its row is locked).
    let id = match full {
        Some(id) => id,
        None => deployment_id::resolve(&mut tx, &request.schema, &request.deployment)?,
    };
    let key = key_of(request, id);
    let messages = tx.simple_query(&first::script(&request.schema, &key))?;
    Ok((tx, id, key, messages))
}

/// The first statement to name a table is step 4's: a schema without
/// them is the operator's to fix (exit 2), as for every command.
fn missing_schema(err: anyhow::Error, schema: &Schema) -> anyhow::Error {
    match err.downcast::<crate::db_failure::DbError>() {
        Ok(db) => deployment_id::missing_table(db, schema),
        Err(other) => other,
    }
}

/// Step 8: the earlier run's outcome; nothing is written. Held to a
/// fingerprint, a replay also accepts the state the deployment is in now
/// (what a fresh diagnose shows): a script rerun after its write replays
/// instead of looping on "re-diagnose".
fn replay_in(
    mut tx: Pinned<'_>,
    request: &Request,
    id: Uuid,
    key: &str,
    locked: &postgres::Row,
) -> Result<Outcome> {
    let now = match request.expect_fingerprint {
        Some(_) => Some(decide::fingerprint(&read_locked(
            &mut tx,
            &request.schema,
            id,
            locked,
        )?)),
        None => None,
    };
    tx.rollback()?;
    replay::replay(request, id, key, locked, now.as_deref())
}

/// The idempotency key: given, or derived from the deployment and the
/// reason.
fn key_of(request: &Request, id: Uuid) -> String {
    match &request.idempotency_key {
        Some(key) => key.clone(),
        None => default_key(id, &request.reason),
    }
}

/// The attempt inside its pinned transaction, from what step 4's message
/// returned (steps 5 to 13), in the order the steps run.
fn attempt_in(
    mut tx: Pinned<'_>,
    request: &Request,
    id: Uuid,
    key: &str,
    first: Result<FirstMessage>,
) -> Result<Outcome> {
    let schema = &request.schema;
    // Step 5: nothing in the database can act behind the guard's back.
    let first = first?;
    safe_to_write(id, &schema_found(&first.report))?;
    // Step 6: lock the deployment row, then its jobs and instances; and
    // the event an earlier run wrote with this key.
    let locked = sql::fail_safely::LOCK
        .query_one(&mut tx, schema, &[&id, &key])
        .with_context(|| format!("locking deployment {id}"))?;
    if !locked.get::<_, bool>("found") {
        // None found: the same refusal (exit 3) as for any command.
        return Err(match deployment_id::choose(&[], id, None) {
            Err(err) => err,
            Ok(_) => exit::not_found(format!("deployment {id} does not exist")),
        });
    }
    // Step 8 (found in step 6): a replay writes nothing.
    if locked.get::<_, bool>("replay") {
        return replay_in(tx, request, id, key, &locked);
    }
    // Step 7: everything about it, read under those locks.
    let snapshot = read_locked(&mut tx, schema, id, &locked)?;

    // Step 9: decide from what was read under the locks.
    let decision = transition::decide(&request.asked(), &snapshot, &request.policy)?;
    let path = decision.change.path();

    // Step 10, first where the database records plans: the application
    // (its trigger holds it to the policy and the plan), or, for a dry run
    // of no plan under the enforcing trigger, that trigger deferred to a
    // COMMIT the dry run never reaches.
    let deferred_enforcing = record_application(&mut tx, request, &first, id, path)?;

    // Step 10: the runbook's UPDATE and the event, with the audit.
    let who = Who {
        session_user: first.session_user.clone(),
        current_user: first.current_user.clone(),
    };
    let written = write(&mut tx, request, &snapshot, (&decision, key), &who)?;

    // Steps 11 and 12 (a dry run also rolls back there).
    let (tx, event) = guard_and_reread(tx, request, id, &first, &written, deferred_enforcing)?;

    let mut outcome = Outcome {
        deployment_id: id,
        target: None,
        path,
        applied: !request.dry_run,
        replayed: false,
        dry_run: request.dry_run,
        previous_status: snapshot.deployment.status.clone(),
        new_status: written.status.clone(),
        event,
        stuck: decision.stuck.stuck,
        stuck_for_seconds: decision.stuck.stuck_for_seconds,
        idempotency_key: key.to_string(),
        fingerprint: Some(decision.fingerprint),
        evidence: decision.verdict.evidence,
        findings: decision.verdict.findings,
        next_command: NextCommand::wait(id),
        rerun: None,
        replication: None,
    };
    // Step 13: COMMIT (a dry run rolled back in step 11's message).
    if let Some(tx) = tx {
        outcome.replication = finish(tx, id)?;
    }
    Ok(outcome)
}

/// Steps 11 and 12, one message: deferred triggers fire now, not at
/// COMMIT; then the counters, the locks and the read-back. A dry run rolls
/// back in the same message (step 13); otherwise the transaction is handed
/// back for COMMIT.
fn guard_and_reread<'s>(
    mut tx: Pinned<'s>,
    request: &Request,
    id: Uuid,
    first: &FirstMessage,
    written: &Written,
    deferred_enforcing: bool,
) -> Result<(Option<Pinned<'s>>, EventOut)> {
    let schema = &request.schema;
    let fire = !deferred_enforcing;
    let (tx, after) = if request.dry_run {
        (None, guard::read_after_and_roll_back(tx, schema, fire)?)
    } else {
        let after = guard::read_after(&mut tx, schema, fire)?;
        (Some(tx), after)
    };
    let mut write_set = first.write_set.clone();
    write_set.applications_expected = i64::from(request.audit.application.is_some());
    let judged = runbook_writes_only(id, &first.before, &after.counters, &after.locks, &write_set);
    if let Err(refusal) = judged {
        if let Some(tx) = tx {
            tx.rollback()?;
        }
        return Err(refusal);
    }
    let reread = read_back(&after.reread)?;
    Ok((tx, check_reread(id, reread, written)?))
}

/// Step 7: the read, a statement of its own after step 6's locks. A job or
/// instance it finds that step 6 did not lock was inserted by a
/// transaction that committed while step 6 waited for the deployment: lock
/// again, in order, and read again (the deployment is held, so nothing new
/// can appear).
fn read_locked(
    tx: &mut Pinned<'_>,
    schema: &Schema,
    id: Uuid,
    locked: &postgres::Row,
) -> Result<DeploymentSnapshot> {
    let jobs: Vec<Uuid> = locked
        .try_get("job_ids")
        .context("reading the locked jobs")?;
    let instances: Vec<Uuid> = locked
        .try_get("instance_ids")
        .context("reading the locked instances")?;
    let snapshot = snapshot::read_in(tx, schema, &id.to_string(), Some(1))
        .with_context(|| format!("reading deployment {id}"))?;
    let all_locked = snapshot.jobs.iter().all(|job| jobs.contains(&job.id))
        && snapshot.instances.iter().all(|i| instances.contains(&i.id));
    if all_locked {
        return Ok(snapshot);
    }
    snapshot::load_locked(tx, schema, id, Some(1))
}

/// What step 4's schema check found that stands in the way of the write,
/// for `decide` ([`safe_to_write`]).
fn schema_found(report: &SchemaReport) -> SchemaFound<'_> {
    SchemaFound {
        problems: report
            .schema_problems
            .iter()
            .chain(&report.foreign_key_problems)
            .chain(&report.trigger_problems)
            .chain(&report.inventory_problems)
            .map(String::as_str)
            .collect(),
        unvouched: &report.unvouched,
    }
}

/// Step 10, first: the write's application where the database records
/// plans; a refusal of its trigger (the policy, the plan) is exit 4 with
/// the server's words. Returns whether the enforcing trigger was deferred
/// instead (a dry run that records no application).
fn record_application(
    tx: &mut Pinned<'_>,
    request: &Request,
    first: &FirstMessage,
    id: Uuid,
    path: BreakGlassPath,
) -> Result<bool> {
    let Some(application) = &request.audit.application else {
        if request.dry_run && first.report.enforcing {
            crate::db::approvals::defer_enforcing(tx, &request.schema)?;
            return Ok(true);
        }
        return Ok(false);
    };
    crate::db::approvals::apply_in(tx, application, id, path.as_str(), &request.reason)?;
    Ok(false)
}

/// Step 2, last: `--role` (SET LOCAL ROLE), as a bound parameter.
fn set_role(tx: &mut Pinned<'_>, request: &Request) -> Result<()> {
    if let Some(role) = &request.role {
        sql::session::SET_LOCAL_ROLE
            .query_catalog(tx, &[role])
            .with_context(|| format!("switching to role {role} (SET LOCAL ROLE)"))?;
    }
    Ok(())
}

/// Step 13: a Ctrl-C that came in meanwhile rolls back; otherwise COMMIT,
/// and in the same message (no round trip more) whether the primary's
/// standbys have the write (`sql/replication/after_commit.sql`; README,
/// "Connecting"). (A dry run rolled back in step 11's message, having
/// checked everything.)
fn finish(tx: Pinned<'_>, id: Uuid) -> Result<Option<Replication>> {
    if crate::interrupt::interrupted() {
        tx.rollback()?;
        return Err(exit::interrupted(
            "interrupted before COMMIT: rolled back, nothing was written",
        ));
    }
    let script = format!("COMMIT;\n{}", sql::replication::AFTER_COMMIT.text);
    let messages = tx
        .end_with(&script)
        .map_err(|source| CommitFailed {
            deployment: id,
            source,
        })
        .map_err(anyhow::Error::new)?;
    Ok(messages.iter().find_map(|message| match message {
        SimpleQueryMessage::Row(row) => replication_of(row),
        _ => None,
    }))
}

/// The row of `sql/replication/after_commit.sql`, as text (simple query).
fn replication_of(row: &postgres::SimpleQueryRow) -> Option<Replication> {
    let count = |name: &str| row.get(name).and_then(|text| text.parse::<i64>().ok());
    Some(Replication {
        commit_lsn: row.get("commit_lsn")?.to_string(),
        standbys: count("standbys")?,
        synchronous: count("synchronous")?,
        confirmed: count("confirmed")?,
        unknown: count("unknown")?,
    })
}
