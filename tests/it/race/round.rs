//! One round of the race: a fresh stuck, undispatched deployment; the real
//! binary's `fail-safely` on it as a subprocess; a dispatcher session that
//! dispatches it at a planned moment of the tool's lifetime, holding its
//! transaction open a little so the tool's lock wait overlaps it; then what
//! the server committed, in the server's commit order.

use std::process::Stdio;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use postgres::Client;
use uuid::Uuid;

use super::server::RaceDb;
use crate::support;

/// How the dispatcher dispatches the deployment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dispatch {
    /// (i) inserts a new job of the deployment, targeted at the node (its
    /// foreign key takes a KEY SHARE lock on the deployment row).
    InsertTargeted,
    /// (ii) leases the deployment's queued job to the node (a row lock on
    /// the job fail-safely locks next).
    LeaseQueued,
}

/// What a round does, drawn from the seed.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    pub n: usize,
    pub dispatch: Dispatch,
    /// After spawning the tool.
    pub delay: Duration,
    /// How long the dispatch transaction stays open after its write.
    pub hold_ms: u32,
    /// The queued job is a build job (else a deploy job).
    pub build: bool,
}

/// What the server holds after a round, and how the tool exited.
#[derive(Debug)]
pub struct Outcome {
    pub code: i32,
    pub stderr: String,
    /// `path` of the tool's JSON document, when it printed one.
    pub json_path: Option<String>,
    /// The operator event the tool committed, if any: its kind, when it
    /// was committed, and when the tool's transaction began (its
    /// `occurred_at`, the transaction's `now()`).
    pub event: Option<(String, DateTime<Utc>, DateTime<Utc>)>,
    /// When the deployments row's current version was committed, and its
    /// status.
    pub deployment: (String, DateTime<Utc>),
    /// When the dispatch committed.
    pub dispatched_at: DateTime<Utc>,
    /// Right before its COMMIT, the dispatcher saw the tool's backend
    /// waiting for one of its locks.
    pub tool_waited: bool,
    /// Dispatch transactions begun (more than one after a serialization
    /// failure or a deadlock).
    pub dispatch_attempts: u32,
    /// From spawning the tool to its exit.
    pub tool_time: Duration,
}

struct Ids {
    deployment: Uuid,
    queued_job: Uuid,
    new_job: Uuid,
    node: Uuid,
}

/// One statement: the node, and a deployment `deploying` for 2 hours whose
/// last event is 2 hours old, with one queued job (no target, no lease)
/// and one pending instance (no active node) — stuck and undispatched.
const SETUP: &str = "
WITH node AS (
    INSERT INTO fleet_nodes (id, name, pool, status, schedulable, slots, last_seen_at)
    VALUES ($4::uuid, 'race-' || $4::uuid::text, 'edge', 'online', true, 8, now())
), dep AS (
    INSERT INTO deployments (id, org_id, status, created_at, updated_at)
    VALUES ($1, gen_random_uuid(), 'deploying', now() - interval '2 hours', now() - interval '2 hours')
    RETURNING id, org_id
), event AS (
    INSERT INTO deployment_events (sequence, id, org_id, deployment_id, kind, occurred_at)
    SELECT 1, gen_random_uuid(), org_id, id, 'deploy_started', now() - interval '2 hours' FROM dep
), instance AS (
    INSERT INTO application_instances (id, deployment_id, role_name, status, active_node_id, generation)
    SELECT $3, id, 'web', 'pending', NULL, 1 FROM dep
)
INSERT INTO jobs (id, deployment_id, kind, status, available_at, created_at, updated_at)
SELECT $2, id, $5, 'queued', now() - interval '2 hours', now() - interval '2 hours',
       now() - interval '2 hours'
FROM dep";

const INSERT_TARGETED: &str = "
INSERT INTO jobs (id, deployment_id, kind, status, target_node_id, attempt, lease_token,
                  lease_expires_at)
VALUES ($1, $2, 'deploy', 'leased', $3, 1, gen_random_uuid(), now() + interval '5 min')";

const LEASE_QUEUED: &str = "
UPDATE jobs SET status = 'leased', lease_token = gen_random_uuid(),
                lease_expires_at = now() + interval '5 min', target_node_id = $2,
                attempt = attempt + 1, updated_at = now()
WHERE id = $1 AND status = 'queued'";

/// Whether a pushleft-controller backend waits for a lock this session
/// holds (read live: the activity snapshot is this transaction's first).
const TOOL_WAITS_FOR_US: &str = "
SELECT EXISTS (SELECT 1 FROM pg_stat_activity a
               WHERE a.application_name LIKE 'pushleft-controller%'
                 AND pg_backend_pid() = ANY (pg_blocking_pids(a.pid)))";

/// The server's commit order: `pg_xact_commit_timestamp(xmin)` of the
/// dispatched job's row, of the deployments row and of the operator event.
const VERDICT: &str = "
SELECT d.status,
       pg_xact_commit_timestamp(d.xmin) AS deployment_at,
       (SELECT pg_xact_commit_timestamp(j.xmin) FROM jobs j
        WHERE j.id = $2 AND j.target_node_id IS NOT NULL) AS dispatched_at,
       e.kind,
       pg_xact_commit_timestamp(e.xmin) AS event_at,
       e.occurred_at
FROM deployments d
LEFT JOIN deployment_events e
       ON e.deployment_id = d.id AND e.kind IN ('operator_failed', 'teardown_requested')
WHERE d.id = $1";

/// Inserts a fresh stuck, undispatched deployment; returns its ids.
fn set_up(setup: &mut Client, plan: &Plan) -> Ids {
    let ids = Ids {
        deployment: Uuid::new_v4(),
        queued_job: Uuid::new_v4(),
        new_job: Uuid::new_v4(),
        node: Uuid::new_v4(),
    };
    let kind = if plan.build { "build" } else { "deploy" };
    let instance = Uuid::new_v4();
    setup
        .execute(
            SETUP,
            &[
                &ids.deployment,
                &ids.queued_job,
                &instance,
                &ids.node,
                &kind,
            ],
        )
        .expect("setting up a stuck, undispatched deployment");
    ids
}

/// The real binary's `fail-safely`, as an operator would run it in a
/// script, with `pgoptions` as PGOPTIONS (or none at all).
pub fn tool(
    db: &RaceDb,
    deployment: &str,
    reason: &str,
    pgoptions: Option<&str>,
) -> std::process::Command {
    let mut cmd = support::bin();
    cmd.env("DATABASE_URL", &db.conninfo)
        .args([
            "fail-safely",
            deployment,
            "--reason",
            reason,
            "--yes",
            "-o",
            "json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    match pgoptions {
        Some(options) => cmd.env("PGOPTIONS", options),
        None => cmd.env_remove("PGOPTIONS"),
    };
    cmd
}

/// Runs one round and reads back what was committed.
pub fn run(
    db: &RaceDb,
    setup: &mut Client,
    dispatcher: &mut Client,
    plan: &Plan,
    pgoptions: Option<&str>,
) -> Outcome {
    let ids = set_up(setup, plan);
    let deployment = ids.deployment.to_string();
    let reason = format!("INC-7 race round {}", plan.n);
    let mut cmd = tool(db, &deployment, &reason, pgoptions);
    let (output, tool_time, (tool_waited, dispatch_attempts)) = std::thread::scope(|scope| {
        let started = Instant::now();
        let child = cmd.spawn().expect("spawning pushleft-controller");
        let ids = &ids;
        let dispatching = scope.spawn(move || {
            std::thread::sleep(plan.delay.saturating_sub(started.elapsed()));
            dispatch(dispatcher, plan, ids)
        });
        let output = child
            .wait_with_output()
            .expect("waiting for pushleft-controller");
        let tool_time = started.elapsed();
        (
            output,
            tool_time,
            dispatching.join().expect("the dispatcher"),
        )
    });
    let run = support::Run::from(output);
    let json_path = serde_json::from_str::<serde_json::Value>(&run.stdout)
        .ok()
        .and_then(|doc| doc["path"].as_str().map(str::to_string));
    let dispatched_job = match plan.dispatch {
        Dispatch::InsertTargeted => ids.new_job,
        Dispatch::LeaseQueued => ids.queued_job,
    };
    let rows = setup
        .query(VERDICT, &[&ids.deployment, &dispatched_job])
        .expect("reading the round's commit order");
    assert_eq!(
        rows.len(),
        1,
        "round {}: one operator event at most",
        plan.n
    );
    let row = &rows[0];
    let kind: Option<String> = row.get("kind");
    Outcome {
        code: run.code,
        stderr: run.stderr,
        json_path,
        event: kind.map(|kind| (kind, row.get("event_at"), row.get("occurred_at"))),
        deployment: (row.get("status"), row.get("deployment_at")),
        dispatched_at: row
            .get::<_, Option<DateTime<Utc>>>("dispatched_at")
            .unwrap_or_else(|| panic!("round {}: the dispatch did not commit", plan.n)),
        tool_waited,
        dispatch_attempts,
        tool_time,
    }
}

/// The dispatcher's transaction, retried as a real dispatcher would on a
/// serialization failure or a deadlock. Returns whether the tool was
/// waiting for it when it committed, and how many attempts it took.
fn dispatch(client: &mut Client, plan: &Plan, ids: &Ids) -> (bool, u32) {
    let mut attempts = 0;
    loop {
        attempts += 1;
        match try_dispatch(client, plan, ids) {
            Ok(waited) => return (waited, attempts),
            Err(err)
                if attempts < 20
                    && err
                        .code()
                        .is_some_and(|c| matches!(c.code(), "40001" | "40P01")) =>
            {
                std::thread::sleep(Duration::from_millis(2));
            }
            Err(err) => panic!("round {}: the dispatch failed: {err:?}", plan.n),
        }
    }
}

fn try_dispatch(client: &mut Client, plan: &Plan, ids: &Ids) -> Result<bool, postgres::Error> {
    let mut tx = client.transaction()?;
    let changed = match plan.dispatch {
        Dispatch::InsertTargeted => {
            tx.execute(INSERT_TARGETED, &[&ids.new_job, &ids.deployment, &ids.node])?
        }
        Dispatch::LeaseQueued => tx.execute(LEASE_QUEUED, &[&ids.queued_job, &ids.node])?,
    };
    assert_eq!(changed, 1, "round {}: the dispatch wrote one row", plan.n);
    tx.execute(
        "SELECT pg_sleep($1::float8 / 1000)",
        &[&f64::from(plan.hold_ms)],
    )?;
    let waited: bool = tx.query_one(TOOL_WAITS_FOR_US, &[])?.get(0);
    tx.commit()?;
    Ok(waited)
}

/// How long the tool takes on this database with nothing in its way: a few
/// runs on fresh undispatched deployments, and their exit codes (each 0, 4
/// or 5, else the test fails with the stderr).
pub fn warm_up(
    db: &RaceDb,
    setup: &mut Client,
    pgoptions: Option<&str>,
) -> (Vec<Duration>, Vec<i32>) {
    let mut codes = Vec::new();
    let times: Vec<Duration> = (0..5)
        .map(|n| {
            let plan = Plan {
                n,
                dispatch: Dispatch::LeaseQueued,
                delay: Duration::ZERO,
                hold_ms: 0,
                build: false,
            };
            let ids = set_up(setup, &plan);
            let started = Instant::now();
            let run = support::Run::from(
                tool(
                    db,
                    &ids.deployment.to_string(),
                    "INC-7 race warm-up",
                    pgoptions,
                )
                .output()
                .expect("running pushleft-controller"),
            );
            let took = started.elapsed();
            assert!(
                matches!(run.code, 0 | 4 | 5),
                "warm-up run: exit {}\n{}",
                run.code,
                run.stderr
            );
            if run.code != 0 && codes.iter().all(|&c| c == 0) {
                let stderr: String = run.stderr.trim().chars().take(300).collect();
                eprintln!("race warm-up: exit {}: {stderr}…", run.code);
            }
            codes.push(run.code);
            took
        })
        .collect();
    (times, codes)
}
