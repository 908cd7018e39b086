//! One attempt of the guarded transaction, step by step (SPEC steps 1-7).

use anyhow::{Context, Result};
use postgres::{Client, Transaction};
use uuid::Uuid;

use super::errors::CommitFailed;
use super::{EventOut, Outcome, Request, new_status, replay};
use crate::db::snapshot::{self, Mode};
use crate::db::{resolve, sql};
use crate::decide::guard::{Counters, check_guard};
use crate::decide::input::default_key;
use crate::decide::{self, Verdict};
use crate::exit;
use crate::model::{BreakGlassPath, DeploymentSnapshot};

pub fn attempt_once(client: &mut Client, request: &Request) -> Result<Outcome> {
    // While the transaction is open, Ctrl-C only sets a flag, checked before
    // COMMIT: the operator learns for sure that nothing was written, instead
    // of the process dying with a COMMIT possibly in flight.
    let _deferred = crate::interrupt::deferred();
    let mut tx = client.transaction()?;
    set_local(&mut tx, request)?;
    let before = read_counters(&mut tx)?;

    let id = resolve::resolve(&mut tx, &request.deployment)?;
    // Step 1: lock the deployment row, then its jobs and instances.
    let snapshot = snapshot::load(&mut tx, id, Some(1), Mode::Locked)?;
    let key = match &request.idempotency_key {
        Some(key) => key.clone(),
        None => default_key(id, &request.reason),
    };

    // Step 6: a replay finds the event it wrote and writes nothing.
    if let Some(row) = tx.query_opt(sql::fail_safely::FIND_IDEMPOTENCY_KEY.text, &[&key])? {
        tx.rollback()?;
        return replay::replay(request, id, &key, &row);
    }

    // Step 2: decide from what was read under the locks.
    let verdict = decide::assess(&snapshot, &request.policy);
    let fingerprint = decide::fingerprint(&snapshot);
    check_expectations(request, &snapshot, &verdict, &fingerprint)?;

    // Steps 3 and 4: the runbook's UPDATE and the event, with the audit.
    let event = write(&mut tx, request, &snapshot, verdict.path, &key)?;

    // Step 5: the guard.
    let after = read_counters(&mut tx)?;
    if let Err(violations) = check_guard(&before, &after) {
        tx.rollback()?;
        return Err(exit::refused(format!(
            "guard: the transaction for deployment {id} changed more than the runbook allows: {violations}. \
             Probably a trigger of this database; everything was rolled back and nothing was written. \
             Find out what the trigger does before retrying"
        )));
    }

    let outcome = Outcome {
        deployment_id: id,
        path: verdict.path,
        applied: !request.dry_run,
        replayed: false,
        dry_run: request.dry_run,
        previous_status: snapshot.deployment.status.clone(),
        new_status: new_status(verdict.path),
        event,
        idempotency_key: key,
        fingerprint: Some(fingerprint),
        evidence: verdict.evidence,
        findings: verdict.findings,
        next_command: format!("pushleft-controller wait {id}"),
    };
    finish(tx, id, request.dry_run)?;
    Ok(outcome)
}

/// The transaction's own lock timeout, and `--role` (SET LOCAL ROLE), both
/// as bound parameters.
fn set_local(tx: &mut Transaction<'_>, request: &Request) -> Result<()> {
    tx.query(
        sql::session::SET_LOCAL_LOCK_TIMEOUT.text,
        &[&format!("{}ms", request.lock_timeout.as_millis().max(1))],
    )?;
    if let Some(role) = &request.role {
        tx.query(sql::session::SET_LOCAL_ROLE.text, &[role])
            .with_context(|| format!("switching to role {role} (SET LOCAL ROLE)"))?;
    }
    Ok(())
}

fn read_counters(tx: &mut Transaction<'_>) -> Result<Counters> {
    Ok(tx
        .query(sql::fail_safely::GUARD_COUNTERS.text, &[])
        .context("reading the guard's tuple counters")?
        .iter()
        .map(|row| {
            (
                row.get::<_, String>("table_name"),
                [
                    row.get::<_, i64>("inserted"),
                    row.get::<_, i64>("updated"),
                    row.get::<_, i64>("deleted"),
                ],
            )
        })
        .collect())
}

/// "Nothing to do" as a refusal that writes nothing.
fn nothing_to_do(verdict: &Verdict, id: Uuid) -> anyhow::Error {
    exit::refused(format!(
        "nothing to do for deployment {id}: {}; nothing was written",
        verdict.reason
    ))
}

fn check_expectations(
    request: &Request,
    snapshot: &DeploymentSnapshot,
    verdict: &Verdict,
    fingerprint: &str,
) -> Result<()> {
    let id = snapshot.deployment.id;
    if verdict.path == BreakGlassPath::None {
        return Err(nothing_to_do(verdict, id));
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

/// Step 3: the runbook's UPDATE, exactly one row. Step 4: the event with
/// sequence = max + 1, the runbook's payload keys and the audit.
fn write(
    tx: &mut Transaction<'_>,
    request: &Request,
    snapshot: &DeploymentSnapshot,
    path: BreakGlassPath,
    key: &str,
) -> Result<EventOut> {
    let id = snapshot.deployment.id;
    let (update, operator_flag) = match path {
        BreakGlassPath::OperatorFailed => (&sql::fail_safely::MARK_FAILED, None),
        BreakGlassPath::TeardownRequested => (&sql::fail_safely::REQUEST_TEARDOWN, Some(true)),
        BreakGlassPath::None => {
            return Err(exit::refused(format!(
                "nothing to do for deployment {id}; nothing was written"
            )));
        }
    };
    let updated = tx.execute(update.text, &[&id])?;
    if updated != 1 {
        return Err(exit::refused(format!(
            "deployment {id}: the runbook's UPDATE matched {updated} rows instead of 1; rolled back, nothing was written. Re-diagnose"
        )));
    }
    let row = tx.query_one(
        sql::fail_safely::APPEND_EVENT.text,
        &[
            &id,
            &path.as_str(),
            &request.reason,
            &operator_flag,
            &key,
            &snapshot.deployment.status.as_str(),
            &request.audit.os_user,
            &request.audit.host,
            &request.audit.tool,
        ],
    )?;
    Ok(EventOut {
        id: row.get("id"),
        sequence: row.get("sequence"),
        kind: row.get("kind"),
        payload: row.get("payload"),
        occurred_at: row.get("occurred_at"),
    })
}

/// Step 7: a dry run stops here, having checked everything; a Ctrl-C that
/// came in meanwhile rolls back; otherwise COMMIT.
fn finish(tx: Transaction<'_>, id: Uuid, dry_run: bool) -> Result<()> {
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
