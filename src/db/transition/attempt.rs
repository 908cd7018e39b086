//! One attempt of the guarded transaction, step by step (SPEC steps 1-9).

use anyhow::{Context, Result};
use postgres::{Client, Transaction};
use serde_json::{Map, Value, json};
use uuid::Uuid;

use super::errors::CommitFailed;
use super::{EventOut, Outcome, Request, refuse_on_standby, replay};
use crate::db::schema_check::{self, SchemaReport};
use crate::db::snapshot::{self, Mode};
use crate::db::sql::Schema;
use crate::db::{resolve, session, sql};
use crate::decide::guard::{Counters, HeldLock, WriteSet, check_guard, check_locks};
use crate::decide::input::{default_key, key_lock};
use crate::decide::triggers::visible;
use crate::decide::{self, Stuck, Verdict};
use crate::exit;
use crate::model::{BreakGlassPath, DeploymentSnapshot, DeploymentStatus};

pub fn attempt_once(client: &mut Client, request: &Request) -> Result<Outcome> {
    // While the transaction is open, Ctrl-C only sets a flag, checked before
    // COMMIT: the operator learns for sure that nothing was written, instead
    // of the process dying with a COMMIT possibly in flight.
    let _deferred = crate::interrupt::deferred();
    let mut tx = client.transaction()?;
    // Step 9: nothing a database user created runs in our place; triggers
    // fire.
    session::harden(&mut tx)?;
    refuse_on_standby(&mut tx)?;
    set_local(&mut tx, request)?;
    let schema = &request.schema;
    let before = read_counters(&mut tx)?;

    let id = resolve::resolve(&mut tx, schema, &request.deployment)?;
    let key = match &request.idempotency_key {
        Some(key) => key.clone(),
        None => default_key(id, &request.reason),
    };
    // Step 6: one run per key at a time, whatever its deployment.
    let (class, hash) = key_lock(&key);
    tx.execute(sql::fail_safely::LOCK_KEY.text, &[&class, &hash])
        .context("waiting for other runs with the same idempotency key")?;

    // Step 5, before anything can fire: hold off trigger and rule changes
    // on the two written tables, then vouch for what is on them, and check
    // the schema, the locking foreign keys and the protecting triggers.
    tx.batch_execute(&sql::fail_safely::LOCK_TABLES.sql(schema))
        .context("locking deployments and deployment_events against DDL")?;
    let report = schema_check::check(&mut tx, schema, &request.allowed_triggers)
        .context("checking the schema, the foreign keys and the triggers before writing")?;
    if !report.ok() {
        return Err(unsafe_database(id, &report));
    }
    let write_set = write_set(&mut tx, schema, &report)?;

    // Step 1: lock the deployment row, then its jobs and instances.
    let snapshot = snapshot::load(&mut tx, schema, id, Some(1), Mode::Locked)?;

    // Step 6: a replay finds the event it wrote and writes nothing.
    if let Some(row) = tx.query_opt(&sql::fail_safely::FIND_IDEMPOTENCY_KEY.sql(schema), &[&key])? {
        tx.rollback()?;
        return replay::replay(request, id, &key, &row);
    }

    // Step 2: decide from what was read under the locks.
    let verdict = decide::assess(&snapshot, &request.policy);
    let fingerprint = decide::fingerprint(&snapshot);
    let stuck = decide::stuck(&snapshot, &request.policy);
    check_expectations(request, &snapshot, &verdict, &stuck, &fingerprint)?;

    // Steps 3 and 4: the runbook's UPDATE and the event, with the audit.
    let written = write(
        &mut tx,
        request,
        &snapshot,
        verdict.path,
        &key,
        &stuck,
        &fingerprint,
    )?;

    // Step 5: the guard. Deferred triggers fire now, not at COMMIT; then
    // the counters, the locks, and the values as the database holds them.
    tx.batch_execute(sql::fail_safely::FIRE_DEFERRED.text)
        .context("firing deferred constraint triggers before the guard")?;
    let after = read_counters(&mut tx)?;
    let locks = read_locks(&mut tx)?;
    if let Err(violations) =
        check_guard(&before, &after, &write_set).and_then(|()| check_locks(&locks, &write_set))
    {
        tx.rollback()?;
        return Err(exit::refused(format!(
            "guard: the transaction for deployment {id} changed more than the runbook allows: {violations}. \
             Probably a trigger of this database; everything was rolled back and nothing was written. \
             Find out what the trigger does before retrying (`pushleft-controller doctor` lists them)"
        )));
    }
    let event = reread(&mut tx, request, id, &written)?;

    let outcome = Outcome {
        deployment_id: id,
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
    finish(tx, id, request.dry_run)?;
    Ok(outcome)
}

/// The database is not one fail-safely can write safely: say every reason,
/// and what to do.
fn unsafe_database(id: Uuid, report: &SchemaReport) -> anyhow::Error {
    let mut lines: Vec<String> = report
        .schema_problems
        .iter()
        .chain(&report.foreign_key_problems)
        .chain(&report.trigger_problems)
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
                row.get::<_, i64>("relid"),
                (
                    row.get::<_, String>("name"),
                    [
                        row.get::<_, i64>("inserted"),
                        row.get::<_, i64>("updated"),
                        row.get::<_, i64>("deleted"),
                    ],
                ),
            )
        })
        .collect())
}

fn read_locks(tx: &mut Transaction<'_>) -> Result<Vec<HeldLock>> {
    Ok(tx
        .query(sql::fail_safely::GUARD_LOCKS.text, &[])
        .context("reading the locks the transaction holds")?
        .iter()
        .map(|row| HeldLock {
            relid: row.get("relid"),
            name: row.get("name"),
            kind: row.get("kind"),
            mode: row.get("mode"),
        })
        .collect())
}

/// The relations the transaction may write, from the catalogs (the two
/// tables were locked against DDL before).
fn write_set(tx: &mut Transaction<'_>, schema: &Schema, report: &SchemaReport) -> Result<WriteSet> {
    let (Some(deployments), Some(events)) = (
        report.oids.get("deployments").copied(),
        report.oids.get("deployment_events").copied(),
    ) else {
        return Err(exit::refused(
            "deployments or deployment_events is missing; nothing was written",
        ));
    };
    let mut set = WriteSet {
        deployments_name: format!("{}.deployments", visible(schema.name())),
        events_name: format!("{}.deployment_events", visible(schema.name())),
        ..WriteSet::default()
    };
    for row in tx
        .query(sql::fail_safely::WRITE_SET.text, &[&deployments, &events])
        .context("reading the partitions, indexes and TOAST of the written tables")?
    {
        let relid: i64 = row.get("relid");
        let root: String = row.get("root");
        let part: String = row.get("part");
        set.all.insert(relid);
        match (part.as_str(), root.as_str()) {
            ("table", "deployments") => {
                set.deployments.insert(relid);
            }
            ("table", _) => {
                set.events.insert(relid);
            }
            ("toast", _) => {
                set.toast.insert(relid);
            }
            _ => {}
        }
    }
    Ok(set)
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
    stuck: &Stuck,
    fingerprint: &str,
) -> Result<()> {
    let id = snapshot.deployment.id;
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

/// What the transaction wrote, to check the database against.
struct Written {
    status: DeploymentStatus,
    event: EventOut,
}

/// The event's payload: the runbook's keys (`reason`, `operator` for a
/// teardown) and the audit.
#[allow(clippy::too_many_arguments)]
fn payload(
    request: &Request,
    snapshot: &DeploymentSnapshot,
    path: BreakGlassPath,
    key: &str,
    stuck: &Stuck,
    fingerprint: &str,
    session_user: String,
    current_user: String,
) -> Value {
    let mut payload = Map::new();
    payload.insert("reason".into(), json!(request.reason));
    if path == BreakGlassPath::TeardownRequested {
        payload.insert("operator".into(), json!(true));
    }
    payload.insert("idempotency_key".into(), json!(key));
    payload.insert(
        "audit".into(),
        json!({
            "previous_status": snapshot.deployment.status.as_str(),
            "os_user": request.audit.os_user,
            "session_user": session_user,
            "current_user": current_user,
            "host": request.audit.host,
            "tool": request.audit.tool,
            "fingerprint": fingerprint,
            "stuck": stuck.stuck,
            "stuck_for_seconds": stuck.stuck_for_seconds,
            "even_if_not_stuck": request.even_if_not_stuck,
        }),
    );
    Value::Object(payload)
}

/// Step 3: the runbook's UPDATE, exactly one row. Step 4: the event with
/// sequence = max + 1, the runbook's payload keys and the audit. Both
/// checked against what the database returns.
fn write(
    tx: &mut Transaction<'_>,
    request: &Request,
    snapshot: &DeploymentSnapshot,
    path: BreakGlassPath,
    key: &str,
    stuck: &Stuck,
    fingerprint: &str,
) -> Result<Written> {
    let id = snapshot.deployment.id;
    let schema = &request.schema;
    let update = match path {
        BreakGlassPath::OperatorFailed => &sql::fail_safely::MARK_FAILED,
        BreakGlassPath::TeardownRequested => &sql::fail_safely::REQUEST_TEARDOWN,
        BreakGlassPath::None => {
            return Err(exit::refused(format!(
                "nothing to do for deployment {id}; nothing was written"
            )));
        }
    };
    let Some(status) = path.new_status() else {
        return Err(exit::refused(format!(
            "nothing to do for deployment {id}; nothing was written"
        )));
    };
    let rows = tx.query(&update.sql(schema), &[&id])?;
    if rows.len() != 1 {
        return Err(exit::refused(format!(
            "deployment {id}: the runbook's UPDATE matched {} rows instead of 1; rolled back, nothing was written. Re-diagnose",
            rows.len()
        )));
    }
    let holds: String = rows[0].get("status");
    if holds != status.as_str() || rows[0].get::<_, Uuid>("id") != id {
        return Err(values_differ(
            id,
            &format!(
                "the runbook's UPDATE set status {status}, but the row holds `{}`",
                visible(&holds)
            ),
        ));
    }
    let who = tx.query_one(sql::fail_safely::WHO.text, &[])?;
    let payload = payload(
        request,
        snapshot,
        path,
        key,
        stuck,
        fingerprint,
        who.get("session_user"),
        who.get("current_user"),
    );
    let row = tx.query_one(
        &sql::fail_safely::APPEND_EVENT.sql(schema),
        &[&id, &path.as_str(), &payload],
    )?;
    let event = EventOut {
        id: row.get("id"),
        sequence: row.get("sequence"),
        kind: row.get("kind"),
        payload: row.get("payload"),
        occurred_at: row.get("occurred_at"),
    };
    let event_deployment: Uuid = row.get("deployment_id");
    check_event(id, &event, event_deployment, path, &payload)?;
    Ok(Written {
        status,
        event: EventOut { payload, ..event },
    })
}

/// The event as stored must be the one written: for this deployment, of
/// this kind, with this payload.
fn check_event(
    id: Uuid,
    stored: &EventOut,
    stored_deployment: Uuid,
    path: BreakGlassPath,
    payload: &Value,
) -> Result<()> {
    if stored_deployment != id {
        return Err(values_differ(
            id,
            &format!("the event was written for deployment {stored_deployment}"),
        ));
    }
    if stored.kind != path.as_str() {
        return Err(values_differ(
            id,
            &format!(
                "the event was written as {}, but the database holds kind `{}`",
                path.as_str(),
                visible(&stored.kind)
            ),
        ));
    }
    if &stored.payload != payload {
        return Err(values_differ(
            id,
            "the event's payload the database holds is not the one written",
        ));
    }
    Ok(())
}

/// The database holds other values than those written: a trigger (or
/// something else in the database) changed them.
fn values_differ(id: Uuid, what: &str) -> anyhow::Error {
    exit::refused(format!(
        "guard: the transaction for deployment {id} does not hold what it wrote: {what}. \
         Something in the database (a trigger) changed it; everything was rolled back and \
         nothing was written. Find out what changed it before retrying (`pushleft-controller \
         doctor` lists the triggers)"
    ))
}

/// Step 5, last: just before COMMIT, what the database holds must still be
/// exactly what was written. Returns the event as stored.
fn reread(
    tx: &mut Transaction<'_>,
    request: &Request,
    id: Uuid,
    written: &Written,
) -> Result<EventOut> {
    let row = tx
        .query_opt(
            &sql::fail_safely::REREAD.sql(&request.schema),
            &[&id, &written.event.id],
        )
        .context("reading back what the transaction wrote")?;
    let Some(row) = row else {
        return Err(values_differ(id, "the deployment row is gone"));
    };
    let status: String = row.get("status");
    if status != written.status.as_str() {
        return Err(values_differ(
            id,
            &format!(
                "the deployment holds status `{}` before COMMIT, not {}",
                visible(&status),
                written.status
            ),
        ));
    }
    if !row.get::<_, bool>("event_found") {
        return Err(values_differ(id, "the event written is gone"));
    }
    let stored = EventOut {
        id: written.event.id,
        sequence: row.get("sequence"),
        kind: row.get("kind"),
        payload: row.get("payload"),
        occurred_at: row.get("occurred_at"),
    };
    let path = BreakGlassPath::of_event_kind(&written.event.kind);
    check_event(
        id,
        &stored,
        row.get("deployment_id"),
        path,
        &written.event.payload,
    )?;
    if stored.sequence != written.event.sequence {
        return Err(values_differ(id, "the event's sequence changed"));
    }
    Ok(stored)
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
