//! One attempt of the guarded transaction, step by step: the steps are
//! numbered here in the order they run, as in the README ("fail-safely,
//! step by step"), and the files of `sql/fail_safely/` in the same order.
//! The guard's reads live in `guard.rs`, the writes and the read-back in
//! `write.rs`, the replay in `replay.rs`.

use crate::db::session::{Pinned, Session, Terms, Timeouts};
use anyhow::{Context, Result};
use uuid::Uuid;

use super::errors::CommitFailed;
use super::guard::{guard, read_counters, write_set};
use super::preconditions::{is_during_recovery, refuse_on_standby, refuse_unwritable};
use super::write::{reread, write};
use super::{Outcome, Request, replay};
use crate::db::schema_check::{self, SchemaReport};
use crate::db::snapshot;
use crate::db::{deployment_id, sql};
use crate::decide::guard::WriteSet;
use crate::decide::input::{default_key, key_lock};
use crate::decide::{self, Stuck, Verdict};
use crate::exit;
use crate::model::{BreakGlassPath, DeploymentSnapshot};

/// One attempt: step 1 here, the rest in [`attempt_in`].
pub fn attempt_once(session: &mut Session, request: &Request) -> Result<Outcome> {
    // While the transaction is open, Ctrl-C only sets a flag, checked before
    // COMMIT: the operator learns for sure that nothing was written, instead
    // of the process dying with a COMMIT possibly in flight.
    let _deferred = crate::interrupt::deferred();
    // Step 1: open the transaction. It states its own terms (READ
    // COMMITTED, READ WRITE) and pins every setting in its first message:
    // what it reads after its row locks are granted is current, whatever
    // the server, the database, the role or a pooled session says by
    // default.
    let timeouts = Timeouts {
        lock: request.lock_timeout,
        ..*session.timeouts()
    };
    let err = match session.begin_with(Terms::LockAndWrite, &timeouts) {
        Ok(tx) => return attempt_in(tx, request),
        Err(err) => err,
    };
    // A standby refuses the READ WRITE transaction: say so, and name the
    // primary.
    if is_during_recovery(&err) {
        return Err(refuse_on_standby(session));
    }
    Err(err)
}

/// The attempt inside its pinned transaction (steps 2 to 13), in the
/// order the steps run.
fn attempt_in(mut tx: Pinned<'_>, request: &Request) -> Result<Outcome> {
    // Step 2: refuse a server unfit for the write (from what step 1 found
    // in force), then `--role`.
    refuse_unwritable(tx.in_force())?;
    set_role(&mut tx, request)?;
    let schema = &request.schema;
    // Step 3: the guard's counters, before anything is written.
    let before = read_counters(&mut tx)?;

    // Step 4: the id or prefix.
    let id = deployment_id::resolve(&mut tx, schema, &request.deployment)?;
    // Step 5: one run per idempotency key at a time.
    let key = lock_key(&mut tx, request, id)?;
    // Step 6: nothing in the database can act behind the guard's back.
    let write_set = check_database(&mut tx, request, id)?;

    // Step 7: lock the deployment row, then its jobs and instances, and
    // read everything about it under those locks.
    let snapshot = snapshot::load_locked(&mut tx, schema, id, Some(1))?;

    // Step 8: a replay finds the event it wrote and writes nothing.
    if let Some(row) = sql::fail_safely::FIND_IDEMPOTENCY_KEY
        .query(&mut tx, schema, &[&key])?
        .into_iter()
        .next()
    {
        tx.rollback()?;
        return replay::replay(request, id, &key, &row);
    }

    // Step 9: decide from what was read under the locks.
    let verdict = decide::assess(&snapshot, &request.policy);
    let fingerprint = decide::fingerprint(&snapshot);
    let stuck = decide::stuck(&snapshot, &request.policy);
    check_expectations(request, &snapshot, &verdict, &stuck, &fingerprint)?;

    // Step 10: the runbook's UPDATE and the event, with the audit.
    let written = write(
        &mut tx,
        request,
        &snapshot,
        verdict.path,
        &key,
        &stuck,
        &fingerprint,
    )?;

    // Step 11: the guard. Deferred triggers fire now, not at COMMIT; then
    // the counters and the locks.
    if let Some(refusal) = guard(&mut tx, id, &before, &write_set)? {
        tx.rollback()?;
        return Err(refusal);
    }
    // Step 12: the values as the database holds them are those written.
    let event = reread(&mut tx, request, id, &written)?;

    let outcome = Outcome {
        deployment_id: id,
        target: None,
        path: verdict.path,
        applied: !request.dry_run,
        replayed: false,
        dry_run: request.dry_run,
        previous_status: snapshot.deployment.status.clone(),
        new_status: written.status.clone(),
        event,
        stuck: stuck.stuck,
        stuck_for_seconds: stuck.stuck_for_seconds,
        idempotency_key: key,
        fingerprint: Some(fingerprint),
        evidence: verdict.evidence,
        findings: verdict.findings,
        next_command: format!("pushleft-controller wait {id}"),
    };
    // Step 13: COMMIT (or, for a dry run, roll back).
    finish(tx, id, request.dry_run)?;
    Ok(outcome)
}

/// Step 5: one run per key at a time, whatever its deployment. Returns the
/// idempotency key (derived from the deployment and the reason if not
/// given).
fn lock_key(tx: &mut Pinned<'_>, request: &Request, id: Uuid) -> Result<String> {
    let key = match &request.idempotency_key {
        Some(key) => key.clone(),
        None => default_key(id, &request.reason),
    };
    let (class, hash) = key_lock(&key);
    sql::fail_safely::LOCK_KEY
        .query_catalog(tx, &[&class, &hash])
        .context("waiting for other runs with the same idempotency key")?;
    Ok(key)
}

/// Step 6, before anything can fire: hold off trigger and rule changes on
/// the two written tables, then vouch for what is on them, and check the
/// schema, the locking foreign keys and the protecting triggers. Returns
/// the relations the transaction may write.
fn check_database(tx: &mut Pinned<'_>, request: &Request, id: Uuid) -> Result<WriteSet> {
    let schema = &request.schema;
    tx.batch_execute(&sql::fail_safely::LOCK_TABLES.sql(schema))
        .context("locking deployments and deployment_events against DDL")?;
    let report = schema_check::check(tx, schema, &request.allowed_triggers)
        .context("checking the schema, the foreign keys and the triggers before writing")?;
    if !report.ok() {
        return Err(unsafe_database(id, &report));
    }
    write_set(tx, schema, &report)
}

/// The database is not one fail-safely can write safely: say every reason,
/// and what to do.
fn unsafe_database(id: Uuid, report: &SchemaReport) -> anyhow::Error {
    let mut lines: Vec<String> = report
        .schema_problems
        .iter()
        .chain(&report.foreign_key_problems)
        .chain(&report.trigger_problems)
        .chain(&report.inventory_problems)
        .cloned()
        .collect();
    lines.extend(report.unvouched.iter().map(|what| {
        format!(
            "{what}: fail-safely cannot vouch for it. It would run inside the transaction, as \
             its user, where a trigger can TRUNCATE, run DDL or reach another database unseen \
             by the guard. If it is part of your control plane and safe, list it in \
             PUSHLEFT_ALLOWED_TRIGGERS (or --allowed-triggers)"
        )
    }));
    exit::refused(format!(
        "fail-safely refuses to write to deployment {id}: this database does not look like the \
         one fail-safely is built for, and nothing was written (none of the code below ran):\n  {}\n\
         Run `pushleft-controller doctor` for the full check",
        lines.join("\n  ")
    ))
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

/// "Nothing to do" as a refusal that writes nothing.
fn nothing_to_do(verdict: &Verdict, id: Uuid) -> anyhow::Error {
    exit::refused(format!(
        "nothing to do for deployment {id}: {}; nothing was written",
        verdict.reason
    ))
}

/// A row the decision rests on holds a value this tool does not know (or
/// a NULL where the reference schema says NOT NULL): refuse, naming each.
fn undecidable(verdict: &Verdict, id: Uuid) -> anyhow::Error {
    exit::refused(format!(
        "fail-safely refuses to decide for deployment {id}: {}. Nothing was written. Next step: \
         find out where the value comes from (a control plane newer than this \
         pushleft-controller, a migration, a hand edit); correct the row or use a \
         pushleft-controller that knows the value, then run `pushleft-controller diagnose {id}` \
         again",
        verdict.reason
    ))
}

/// Step 9, on the verdict: refuse a deployment that cannot be decided, has
/// nothing to do, or is not stuck (unless `--even-if-not-stuck`), and an
/// `--expect-path` or `--expect-fingerprint` that no longer holds.
fn check_expectations(
    request: &Request,
    snapshot: &DeploymentSnapshot,
    verdict: &Verdict,
    stuck: &Stuck,
    fingerprint: &str,
) -> Result<()> {
    let id = snapshot.deployment.id;
    if !verdict.decidable {
        return Err(undecidable(verdict, id));
    }
    if verdict.path == BreakGlassPath::None {
        return Err(nothing_to_do(verdict, id));
    }
    if !stuck.stuck && !request.even_if_not_stuck {
        let effect = match verdict.path {
            BreakGlassPath::TeardownRequested => {
                "tear it down (teardown_requested: every instance of it is stopped)"
            }
            _ => "mark it failed (operator_failed)",
        };
        return Err(exit::refused(format!(
            "deployment {id} is not stuck: {}. fail-safely is for stuck deployments (the \
             deployment_stuck and job_lease_orphaned alerts); here it would {effect}. Nothing \
             was written. Check the deployment id; if you really mean to, rerun with \
             --even-if-not-stuck (the audit records it)",
            stuck.why
        )));
    }
    if let Some(expected) = request.expect_path
        && expected != verdict.path
    {
        return Err(exit::conflict(format!(
            "deployment {id}: the path decided under the locks is {} ({}), not the expected {}; nothing was written. Re-diagnose before deciding again",
            verdict.path.as_str(),
            verdict.reason,
            expected.as_str()
        )));
    }
    if let Some(expected) = &request.expect_fingerprint
        && expected.trim() != fingerprint
    {
        return Err(exit::conflict(format!(
            "deployment {id} changed since it was diagnosed (fingerprint {}, now {fingerprint}); nothing was written. Run diagnose again and retry with the new fingerprint",
            expected.trim()
        )));
    }
    Ok(())
}

/// Step 13: a dry run stops here, having checked everything; a Ctrl-C that
/// came in meanwhile rolls back; otherwise COMMIT.
fn finish(tx: Pinned<'_>, id: Uuid, dry_run: bool) -> Result<()> {
    if dry_run {
        tx.rollback()?;
        return Ok(());
    }
    if crate::interrupt::interrupted() {
        tx.rollback()?;
        return Err(exit::interrupted(
            "interrupted before COMMIT: rolled back, nothing was written",
        ));
    }
    tx.commit()
        .map_err(|source| CommitFailed {
            deployment: id,
            source,
        })
        .map_err(anyhow::Error::new)
}
