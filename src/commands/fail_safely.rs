//! `fail-safely <deployment> --reason`: the two guarded transitions of the
//! runbook (SPEC.md "The break-glass decision", steps 1-8).
//!
//! One transaction: lock the deployment, its jobs and its instances; decide
//! from what is read under those locks (with the same pure verdict function
//! `diagnose` uses); apply the runbook's UPDATE (exactly one row); append the
//! event (sequence = max + 1) with the audit; prove with the per-transaction
//! tuple counters that nothing else changed; then COMMIT — or roll back and
//! say why. A replay with the same idempotency key writes nothing and
//! reports the first run's outcome.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::time::Duration;

use anyhow::{Context, Result};
use postgres::error::SqlState;
use postgres::{Client, Transaction};
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::cli::{ExpectedPath, FailSafelyArgs, GlobalArgs};
use crate::connect::{self, Settings};
use crate::exit::{self, ExitCode};
use crate::output::{self, Output, Paint};
use crate::resolve;
use crate::snapshot::{self, Mode, Snapshot};
use crate::verdict::{self, Evidence, Finding, Path, Policy, Verdict};

pub mod sql {
    pub const GUARD_COUNTERS: &str = include_str!("../../sql/fail_safely/00_guard_counters.sql");
    pub const FIND_IDEMPOTENCY_KEY: &str =
        include_str!("../../sql/fail_safely/04_find_idempotency_key.sql");
    pub const MARK_FAILED: &str = include_str!("../../sql/fail_safely/10_mark_failed.sql");
    pub const REQUEST_TEARDOWN: &str =
        include_str!("../../sql/fail_safely/11_request_teardown.sql");
    pub const APPEND_EVENT: &str = include_str!("../../sql/fail_safely/20_append_event.sql");
}

/// Longest reason accepted (characters).
pub const MAX_REASON: usize = 2000;
/// How often the whole transaction is retried on a serialization failure,
/// a deadlock or a (deployment_id, sequence) unique violation.
const MAX_ATTEMPTS: u32 = 5;
/// The tables the guard allows to change, and by how much.
const DEPLOYMENTS: &str = "public.deployments";
const EVENTS: &str = "public.deployment_events";

/// Everything one run needs, validated.
#[derive(Debug, Clone)]
pub struct Request {
    /// Id or unique prefix.
    pub deployment: String,
    /// Trimmed, validated.
    pub reason: String,
    /// `None`: derived from the deployment and the reason.
    pub idempotency_key: Option<String>,
    pub dry_run: bool,
    pub expect_path: Option<Path>,
    pub expect_fingerprint: Option<String>,
    pub role: Option<String>,
    pub lock_timeout: Duration,
    pub policy: Policy,
    pub audit: Audit,
}

/// Who runs this, from where, with what.
#[derive(Debug, Clone)]
pub struct Audit {
    pub os_user: String,
    pub host: String,
    pub tool: String,
}

impl Audit {
    pub fn of_this_process() -> Audit {
        Audit {
            os_user: connect::os_user(),
            host: nix::unistd::gethostname()
                .ok()
                .and_then(|h| h.into_string().ok())
                .unwrap_or_else(|| "unknown".to_string()),
            tool: connect::APPLICATION_NAME.to_string(),
        }
    }
}

/// The event written (or that would be written, in a dry run).
#[derive(Debug, Clone, Serialize)]
pub struct EventOut {
    pub id: Uuid,
    pub sequence: i64,
    pub kind: String,
    pub payload: Value,
    pub occurred_at: chrono::DateTime<chrono::Utc>,
}

/// The result of a run (the `--output json` document).
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub deployment_id: Uuid,
    pub path: Path,
    /// The state change is in effect (by this run, or by the earlier run a
    /// replay found). False for a dry run.
    pub applied: bool,
    /// An earlier run with the same idempotency key did it; this run wrote
    /// nothing.
    pub replayed: bool,
    pub dry_run: bool,
    pub previous_status: String,
    pub new_status: String,
    pub event: EventOut,
    pub idempotency_key: String,
    /// Of the state read under the locks (not for a replay).
    pub fingerprint: Option<String>,
    pub evidence: Vec<Evidence>,
    pub findings: Vec<Finding>,
    pub next_command: String,
}

/// Validates the reason: trimmed; not empty, not over 2,000 characters, no
/// NUL byte (PostgreSQL text cannot hold one).
pub fn validate_reason(raw: &str) -> Result<String> {
    let reason = raw.trim();
    if reason.is_empty() {
        return Err(exit::usage(
            "--reason is empty: give the ticket and the reason, e.g. --reason \"INC-4711 stuck queued since 02:10\"",
        ));
    }
    if reason.contains('\0') {
        return Err(exit::usage(
            "--reason contains a NUL byte, which cannot be stored; remove it",
        ));
    }
    let chars = reason.chars().count();
    if chars > MAX_REASON {
        return Err(exit::usage(format!(
            "--reason is {chars} characters long; at most {MAX_REASON} are allowed (link the details from the ticket)"
        )));
    }
    Ok(reason.to_string())
}

fn validate_key(raw: &str) -> Result<String> {
    let key = raw.trim();
    if key.is_empty() || key.len() > 200 || key.contains('\0') {
        return Err(exit::usage(
            "--idempotency-key must be 1 to 200 characters without NUL bytes",
        ));
    }
    Ok(key.to_string())
}

/// The default idempotency key: the same deployment and reason give the same
/// key, so rerunning a pasted command is a replay, not a second event.
pub fn default_key(deployment: Uuid, reason: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"pushleft-controller/fail-safely\0");
    h.update(deployment.as_bytes());
    h.update(b"\0");
    h.update(reason.as_bytes());
    format!("pl1-{}", hex::encode(&h.finalize()[..16]))
}

fn expected_path(p: ExpectedPath) -> Path {
    match p {
        ExpectedPath::OperatorFailed => Path::OperatorFailed,
        ExpectedPath::TeardownRequested => Path::TeardownRequested,
    }
}

/// Runs the guarded transaction, retrying the whole of it a bounded number
/// of times on conflicts that are safe to retry.
pub fn execute(client: &mut Client, request: &Request) -> Result<Outcome> {
    execute_checked(client, request).map_err(|err| explain_lost_connection(err, request))
}

/// COMMIT failed: whether the change is in effect is unknown.
#[derive(Debug)]
struct CommitFailed {
    deployment: Uuid,
    source: postgres::Error,
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
fn explain_lost_connection(err: anyhow::Error, request: &Request) -> anyhow::Error {
    if !exit::is_connection_lost(&err) {
        return err;
    }
    let cause = exit::lost_connection_cause(&err);
    if let Some(commit) = err.chain().find_map(|c| c.downcast_ref::<CommitFailed>()) {
        return exit::connection_lost(format!(
            "lost the connection to the database while committing the change to deployment {} \
             ({cause}): it may or may not have been written. Next step: rerun the same command \
             (same --reason, same --idempotency-key): if the change was committed it reports \
             it without writing again, otherwise it applies it now. `pushleft-controller \
             diagnose {}` shows the current state",
            commit.deployment, commit.deployment
        ));
    }
    exit::connection_lost(format!(
        "lost the connection to the database while fail-safely was working on deployment {} \
         ({cause}). The transaction never committed, so the server rolled it back: nothing \
         was written. Next step: check that the database is up (`pushleft-controller \
         doctor`), then rerun the same command; it decides again from the current state",
        request.deployment
    ))
}

fn execute_checked(client: &mut Client, request: &Request) -> Result<Outcome> {
    let in_recovery: bool = client
        .query_one("SELECT pg_is_in_recovery()", &[])
        .context("asking the server whether it is a standby")?
        .get(0);
    if in_recovery {
        // Name the primary when the standby says where it replicates from
        // (host and port only: primary_conninfo can hold a password).
        let primary = client
            .query_one("SELECT current_setting('primary_conninfo', true)", &[])
            .ok()
            .and_then(|row| row.get::<_, Option<String>>(0))
            .and_then(|conninfo| connect::primary_from_conninfo(&conninfo))
            .map(|p| format!(" ({p}, from this standby's primary_conninfo)"))
            .unwrap_or_default();
        return Err(exit::refused(format!(
            "this server is a standby (read-only replica, in recovery): fail-safely must run \
             against the primary{primary}. Point DATABASE_URL at the primary and rerun; nothing was written"
        )));
    }
    // Fail closed: without the triggers that protect the audit trail, or
    // with a schema this tool does not know, write nothing.
    let report = crate::schema_check::check(client)
        .context("checking the schema and the protecting triggers before writing")?;
    if !report.ok() {
        return Err(exit::refused(format!(
            "this database does not look like the one fail-safely is built for, so it writes nothing:\n  {}\nRun `pushleft-controller doctor` for the full check",
            report.problems().join("\n  ")
        )));
    }
    let mut attempt = 1;
    loop {
        match attempt_once(client, request) {
            Ok(outcome) => return Ok(outcome),
            Err(err) => {
                // Ctrl-C during the transaction: whatever else went wrong
                // afterwards (a lock wait running out, say), it was rolled back.
                if crate::interrupt::interrupted() {
                    return Err(exit::interrupted(format!(
                        "interrupted while working on deployment {}: the transaction was rolled back, nothing was written",
                        request.deployment
                    )));
                }
                if let Some(code) = retryable(&err)
                    && attempt < MAX_ATTEMPTS
                    && !crate::interrupt::interrupted()
                {
                    output::note(&format!(
                        "conflict ({code}); retrying the whole transaction ({attempt}/{MAX_ATTEMPTS})"
                    ));
                    attempt += 1;
                    std::thread::sleep(Duration::from_millis(20 * u64::from(attempt)));
                    continue;
                }
                return Err(explain_db_error(err, request));
            }
        }
    }
}

/// The conflicts the whole transaction is retried on.
fn retryable(err: &anyhow::Error) -> Option<&'static str> {
    let db = err
        .chain()
        .find_map(|c| c.downcast_ref::<postgres::Error>())?
        .as_db_error()?;
    let code = db.code();
    if *code == SqlState::T_R_SERIALIZATION_FAILURE {
        Some("serialization failure")
    } else if *code == SqlState::T_R_DEADLOCK_DETECTED {
        Some("deadlock")
    } else if *code == SqlState::UNIQUE_VIOLATION
        && db.constraint() == Some("deployment_events_deployment_sequence")
    {
        Some("event sequence taken")
    } else {
        None
    }
}

/// Turns the database errors an operator can act on into sentences.
fn explain_db_error(err: anyhow::Error, request: &Request) -> anyhow::Error {
    let Some(db) = err
        .chain()
        .find_map(|c| c.downcast_ref::<postgres::Error>())
        .and_then(postgres::Error::as_db_error)
    else {
        return err;
    };
    let code = db.code().clone();
    let message = db.message().to_string();
    if code == SqlState::LOCK_NOT_AVAILABLE {
        return exit::conflict(format!(
            "another transaction holds deployment {} (or one of its jobs or instances) and did not let go within {}; nothing was written. Retry in a moment, or raise --lock-timeout",
            request.deployment,
            crate::duration::human(request.lock_timeout.as_secs() as i64).replace("0s", "<1s")
        ));
    }
    if retryable(&err).is_some() {
        return exit::conflict(format!(
            "deployment {}: the transaction kept conflicting with concurrent changes ({message}) after {MAX_ATTEMPTS} attempts; nothing was written. Re-diagnose and retry",
            request.deployment
        ));
    }
    if code == SqlState::INSUFFICIENT_PRIVILEGE {
        let role = request
            .role
            .as_deref()
            .map(|r| format!(" (running as role {r})"))
            .unwrap_or_default();
        return err.context(format!(
            "permission denied{role}: {message}. fail-safely needs SELECT on the tables it reads, \
             SELECT ... FOR UPDATE and UPDATE on deployments, jobs and application_instances, and \
             INSERT on deployment_events; run with --role set to the owner role or grant these. \
             Nothing was written"
        ));
    }
    if code == SqlState::INVALID_PARAMETER_VALUE && request.role.is_some() {
        return err.context(format!(
            "cannot run as role {}: {message}. Check the role name; nothing was written",
            request.role.as_deref().unwrap_or_default()
        ));
    }
    err
}

type Counters = BTreeMap<String, [i64; 3]>;

fn read_counters(tx: &mut Transaction<'_>) -> Result<Counters> {
    Ok(tx
        .query(sql::GUARD_COUNTERS, &[])
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

/// Step 5: exactly one deployments row updated, exactly one event inserted,
/// nothing else inserted, updated or deleted anywhere.
fn check_guard(before: &Counters, after: &Counters) -> std::result::Result<(), String> {
    let mut violations = Vec::new();
    for (table, now) in after {
        let was = before.get(table).copied().unwrap_or([0, 0, 0]);
        let delta = [now[0] - was[0], now[1] - was[1], now[2] - was[2]];
        let allowed = match table.as_str() {
            DEPLOYMENTS => [0, 1, 0],
            EVENTS => [1, 0, 0],
            _ => [0, 0, 0],
        };
        if delta != allowed {
            violations.push(format!(
                "{table} ({} inserted, {} updated, {} deleted; allowed {} / {} / {})",
                delta[0], delta[1], delta[2], allowed[0], allowed[1], allowed[2]
            ));
        }
    }
    for (table, allowed) in [(DEPLOYMENTS, "1 updated"), (EVENTS, "1 inserted")] {
        if !after.contains_key(table) {
            violations.push(format!("{table} (no change recorded; expected {allowed})"));
        }
    }
    if violations.is_empty() {
        Ok(())
    } else {
        Err(violations.join("; "))
    }
}

fn attempt_once(client: &mut Client, request: &Request) -> Result<Outcome> {
    // While the transaction is open, Ctrl-C only sets a flag, checked before
    // COMMIT: the operator learns for sure that nothing was written, instead
    // of the process dying with a COMMIT possibly in flight.
    let _deferred = crate::interrupt::deferred();
    let mut tx = client.transaction()?;
    tx.query(
        "SELECT set_config('lock_timeout', $1, true)",
        &[&format!("{}ms", request.lock_timeout.as_millis().max(1))],
    )?;
    if let Some(role) = &request.role {
        // SET LOCAL ROLE, as a bound parameter.
        tx.query("SELECT set_config('role', $1, true)", &[role])
            .with_context(|| format!("switching to role {role} (SET LOCAL ROLE)"))?;
    }
    let before = read_counters(&mut tx)?;

    let id = resolve::resolve(&mut tx, &request.deployment)?;
    // Step 1: lock the deployment row, then its jobs and instances.
    let snapshot = snapshot::load(&mut tx, id, Some(1), Mode::Locked)?;
    let key = match &request.idempotency_key {
        Some(key) => key.clone(),
        None => default_key(id, &request.reason),
    };

    // Step 6: a replay finds the event it wrote and writes nothing.
    if let Some(row) = tx.query_opt(sql::FIND_IDEMPOTENCY_KEY, &[&key])? {
        tx.rollback()?;
        return replay(request, id, &key, &row);
    }

    // Step 2: decide from what was read under the locks.
    let verdict = verdict::assess(&snapshot, &request.policy);
    let fingerprint = verdict::fingerprint(&snapshot);
    let previous = snapshot.deployment.status.clone();
    check_expectations(request, &snapshot, &verdict, &fingerprint)?;

    // Step 3: the runbook's UPDATE, exactly one row.
    let (update, kind, operator_flag) = match verdict.path {
        Path::OperatorFailed => (sql::MARK_FAILED, "operator_failed", None),
        Path::TeardownRequested => (sql::REQUEST_TEARDOWN, "teardown_requested", Some(true)),
        Path::None => unreachable_none(&verdict, id)?,
    };
    let updated = tx.execute(update, &[&id])?;
    if updated != 1 {
        return Err(exit::refused(format!(
            "deployment {id}: the runbook's UPDATE matched {updated} rows instead of 1; rolled back, nothing was written. Re-diagnose"
        )));
    }

    // Step 4: the event, with the audit.
    let row = tx.query_one(
        sql::APPEND_EVENT,
        &[
            &id,
            &kind,
            &request.reason,
            &operator_flag,
            &key,
            &previous,
            &request.audit.os_user,
            &request.audit.host,
            &request.audit.tool,
        ],
    )?;
    let event = EventOut {
        id: row.get("id"),
        sequence: row.get("sequence"),
        kind: row.get("kind"),
        payload: row.get("payload"),
        occurred_at: row.get("occurred_at"),
    };

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

    let new_status = verdict
        .path
        .new_status()
        .map(|s| s.as_str().to_string())
        .unwrap_or_default();
    let outcome = Outcome {
        deployment_id: id,
        path: verdict.path,
        applied: !request.dry_run,
        replayed: false,
        dry_run: request.dry_run,
        previous_status: previous,
        new_status,
        event,
        idempotency_key: key,
        fingerprint: Some(fingerprint),
        evidence: verdict.evidence.clone(),
        findings: verdict.findings.clone(),
        next_command: format!("pushleft-controller wait {id}"),
    };
    // Step 7: a dry run stops here, having checked everything.
    if request.dry_run {
        tx.rollback()?;
        return Ok(outcome);
    }
    if crate::interrupt::interrupted() {
        tx.rollback()?;
        return Err(exit::interrupted(
            "interrupted before COMMIT: rolled back, nothing was written",
        ));
    }
    tx.commit().map_err(|source| CommitFailed {
        deployment: id,
        source,
    })?;
    Ok(outcome)
}

fn unreachable_none(
    verdict: &Verdict,
    id: Uuid,
) -> Result<(&'static str, &'static str, Option<bool>)> {
    Err(exit::refused(format!(
        "nothing to do for deployment {id}: {}; nothing was written",
        verdict.reason
    )))
}

fn check_expectations(
    request: &Request,
    snapshot: &Snapshot,
    verdict: &Verdict,
    fingerprint: &str,
) -> Result<()> {
    let id = snapshot.deployment.id;
    if verdict.path == Path::None {
        return unreachable_none(verdict, id).map(|_| ());
    }
    if let Some(expected) = request.expect_path
        && expected != verdict.path
    {
        return Err(exit::refused(format!(
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

/// An event with this key exists: the same deployment and reason is a
/// replay; anything else is a conflict.
fn replay(request: &Request, id: Uuid, key: &str, row: &postgres::Row) -> Result<Outcome> {
    let event_deployment: Uuid = row.get("deployment_id");
    let payload: Value = row.get("payload");
    let reason = payload.get("reason").and_then(Value::as_str).unwrap_or("");
    if event_deployment != id || reason != request.reason {
        return Err(exit::conflict(format!(
            "idempotency key {key} was already used for {} with {}; nothing was written. \
             Use a new --idempotency-key, or the original deployment and reason",
            if event_deployment == id {
                "this deployment".to_string()
            } else {
                format!("deployment {event_deployment}")
            },
            if reason == request.reason {
                "the same reason"
            } else {
                "a different reason"
            }
        )));
    }
    let kind: String = row.get("kind");
    let path = match kind.as_str() {
        "operator_failed" => Path::OperatorFailed,
        "teardown_requested" => Path::TeardownRequested,
        _ => Path::None,
    };
    let previous = payload
        .pointer("/audit/previous_status")
        .and_then(Value::as_str)
        .unwrap_or("unknown")
        .to_string();
    Ok(Outcome {
        deployment_id: id,
        path,
        applied: true,
        replayed: true,
        dry_run: request.dry_run,
        previous_status: previous,
        new_status: path
            .new_status()
            .map(|s| s.as_str().to_string())
            .unwrap_or_default(),
        event: EventOut {
            id: row.get("id"),
            sequence: row.get("sequence"),
            kind,
            payload,
            occurred_at: row.get("occurred_at"),
        },
        idempotency_key: key.to_string(),
        fingerprint: None,
        evidence: Vec::new(),
        findings: Vec::new(),
        next_command: format!("pushleft-controller wait {id}"),
    })
}

fn request_from(args: &FailSafelyArgs) -> Result<Request> {
    Ok(Request {
        deployment: args.deployment.clone(),
        reason: validate_reason(&args.reason)?,
        idempotency_key: args
            .idempotency_key
            .as_deref()
            .map(validate_key)
            .transpose()?,
        dry_run: args.dry_run,
        expect_path: args.expect_path.map(expected_path),
        expect_fingerprint: args.expect_fingerprint.clone(),
        role: args.role.clone(),
        lock_timeout: args.lock_timeout,
        policy: Policy {
            stale_after: args.stale_after,
        },
        audit: Audit::of_this_process(),
    })
}

pub fn run(args: &FailSafelyArgs, global: &GlobalArgs, out: &Output) -> Result<ExitCode> {
    let request = request_from(args)?;
    // Without a terminal, and without --yes, nobody can confirm: refuse
    // before touching the database.
    let terminal = std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
    if !request.dry_run && !args.yes && !terminal {
        return Err(exit::refused(
            "no terminal to confirm on: rerun with --yes (and --expect-path / --expect-fingerprint from diagnose) to run unattended; nothing was written",
        ));
    }
    let settings = Settings::from_options(&global.connect_options())?;
    let mut client = super::connect(&settings, request.lock_timeout)?;

    let outcome = if request.dry_run || args.yes {
        execute(&mut client, &request)?
    } else {
        // Plan under the locks (rolled back), show it, ask, then apply with
        // the plan's path and fingerprint required: no silent change of plan.
        let plan = execute(
            &mut client,
            &Request {
                dry_run: true,
                ..request.clone()
            },
        )?;
        if plan.replayed {
            plan
        } else {
            output::note(&plan_text(out, &plan));
            confirm(&plan)?;
            execute(
                &mut client,
                &Request {
                    expect_path: Some(plan.path),
                    expect_fingerprint: plan.fingerprint.clone(),
                    ..request.clone()
                },
            )?
        }
    };
    if out.json() {
        output::print_json(&outcome)?;
    } else {
        output::print(&outcome_text(out, &outcome))?;
    }
    Ok(ExitCode::Done)
}

/// The plan as read under the locks.
fn plan_text(out: &Output, plan: &Outcome) -> String {
    let mut lines = vec![out.paint(
        &format!(
            "PLAN for deployment {}: {}",
            plan.deployment_id,
            plan.path.as_str()
        ),
        Paint::Bold,
    )];
    lines.push(format!(
        "  status {} → {}",
        plan.previous_status, plan.new_status
    ));
    lines.push(format!(
        "  append event #{} {} {}",
        plan.event.sequence, plan.event.kind, plan.event.payload
    ));
    for e in &plan.evidence {
        lines.push(format!("  dispatched: {}", e.detail));
    }
    for f in &plan.findings {
        if f.severity != verdict::Severity::Info {
            lines.push(format!("  ! {}", f.message));
        }
    }
    lines.push(format!(
        "  fingerprint {}",
        plan.fingerprint.as_deref().unwrap_or("-")
    ));
    lines.join("\n")
}

fn short_id(id: Uuid) -> String {
    id.to_string()[..8].to_string()
}

/// Asks the operator to type the deployment's short id back.
fn confirm(plan: &Outcome) -> Result<()> {
    let short = short_id(plan.deployment_id);
    let typed: String = dialoguer::Input::new()
        .with_prompt(format!(
            "Type the deployment's short id ({short}) to apply, anything else to abort"
        ))
        .allow_empty(true)
        .interact_text()
        .map_err(|err| match err {
            dialoguer::Error::IO(io) if io.kind() == std::io::ErrorKind::Interrupted => {
                exit::interrupted("interrupted at the confirmation: nothing was written")
            }
            other => anyhow::Error::new(other).context("reading the confirmation"),
        })?;
    let typed = typed.trim();
    if typed == short || typed == plan.deployment_id.to_string() {
        Ok(())
    } else {
        Err(exit::refused(format!(
            "confirmation `{}` does not match {short}: nothing was written",
            typed.escape_debug()
        )))
    }
}

fn outcome_text(out: &Output, o: &Outcome) -> String {
    let mut lines = Vec::new();
    let headline = if o.replayed {
        format!(
            "Already done by an earlier run with the same idempotency key: {} on deployment {} ({} → {}). Nothing was written now.",
            o.path.as_str(),
            o.deployment_id,
            o.previous_status,
            o.new_status
        )
    } else if o.dry_run {
        format!(
            "Dry run: would apply {} to deployment {} ({} → {}). Rolled back, nothing was written.",
            o.path.as_str(),
            o.deployment_id,
            o.previous_status,
            o.new_status
        )
    } else {
        format!(
            "Applied {} to deployment {} ({} → {}).",
            o.path.as_str(),
            o.deployment_id,
            o.previous_status,
            o.new_status
        )
    };
    lines.push(out.paint(&headline, if o.dry_run { Paint::Bold } else { Paint::Good }));
    lines.push(format!(
        "  event #{} {} id {}{}",
        o.event.sequence,
        o.event.kind,
        o.event.id,
        if o.dry_run && !o.replayed {
            " (not written)"
        } else {
            ""
        }
    ));
    if let Some(reason) = o.event.payload.get("reason").and_then(Value::as_str) {
        lines.push(format!("  reason: {reason}"));
    }
    for e in &o.evidence {
        lines.push(format!("  dispatched: {}", e.detail));
    }
    if let Some(fp) = &o.fingerprint {
        lines.push(format!(
            "  fingerprint {fp} · idempotency key {}",
            o.idempotency_key
        ));
    }
    if o.dry_run && !o.replayed {
        lines.push(format!(
            "Next: rerun without --dry-run (or with --yes --expect-path {} --expect-fingerprint {})",
            o.path.as_str(),
            o.fingerprint.as_deref().unwrap_or("-")
        ));
    } else {
        lines.push(format!("Next: {}", o.next_command));
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_are_trimmed_and_bounded() {
        assert_eq!(validate_reason("  INC-1 stuck \n").unwrap(), "INC-1 stuck");
        for bad in ["", "   \t\n", "a\0b"] {
            let err = validate_reason(bad).unwrap_err();
            assert_eq!(exit::code_for(&err), ExitCode::Usage, "{bad:?}");
        }
        assert!(validate_reason(&"x".repeat(MAX_REASON)).is_ok());
        assert!(validate_reason(&"x".repeat(MAX_REASON + 1)).is_err());
        // Quotes and SQL are just text.
        assert_eq!(
            validate_reason("'; DROP TABLE jobs; --").unwrap(),
            "'; DROP TABLE jobs; --"
        );
    }

    #[test]
    fn the_default_key_depends_on_deployment_and_reason() {
        let a = Uuid::from_u128(1);
        let b = Uuid::from_u128(2);
        assert_eq!(default_key(a, "r"), default_key(a, "r"));
        assert_ne!(default_key(a, "r"), default_key(b, "r"));
        assert_ne!(default_key(a, "r"), default_key(a, "r2"));
    }

    #[test]
    fn the_guard_allows_exactly_one_update_and_one_insert() {
        let before: Counters = [
            (DEPLOYMENTS.to_string(), [0, 5, 0]),
            ("public.jobs".to_string(), [1, 1, 0]),
        ]
        .into();
        let mut after = before.clone();
        after.insert(DEPLOYMENTS.to_string(), [0, 6, 0]);
        after.insert(EVENTS.to_string(), [1, 0, 0]);
        assert!(check_guard(&before, &after).is_ok());

        let mut jobs_touched = after.clone();
        jobs_touched.insert("public.jobs".to_string(), [1, 2, 0]);
        let err = check_guard(&before, &jobs_touched).unwrap_err();
        assert!(err.contains("public.jobs"), "{err}");

        let mut two_events = after.clone();
        two_events.insert(EVENTS.to_string(), [2, 0, 0]);
        assert!(check_guard(&before, &two_events).is_err());

        let mut no_update = after;
        no_update.insert(DEPLOYMENTS.to_string(), [0, 5, 0]);
        assert!(check_guard(&before, &no_update).is_err());
    }
}
