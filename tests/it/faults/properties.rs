//! Property test: random states of one deployment (jobs with and without a
//! target, a lease, results; instances with and without a node; every
//! status). The verdict's path is the README's decision table ("The
//! break-glass decision"), and fail-safely against that state in the
//! database applies exactly that path or refuses.

use chrono::{TimeZone, Utc};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use pushleft_controller::decide::{self as verdict, Policy};
use pushleft_controller::model::{
    Deployment, DeploymentSnapshot as Snapshot, DeploymentStatus, Instance, Job, JobResult, Node,
    ReadInfo as SnapshotInfo,
};
use uuid::Uuid;

use crate::support::TestDb;

const STATUSES: [&str; 7] = [
    "queued",
    "building",
    "deploying",
    "running",
    "failed",
    "teardown_queued",
    "destroyed",
];
const JOB_KINDS: [&str; 3] = ["build", "deploy", "teardown"];
const JOB_STATUSES: [&str; 5] = ["queued", "leased", "succeeded", "failed", "cancelled"];
const INSTANCE_STATUSES: [&str; 5] = ["pending", "starting", "running", "stopping", "removed"];

/// Two nodes: one alive, one dead.
const LIVE_NODE: Uuid = Uuid::from_u128(0xa1);
const DEAD_NODE: Uuid = Uuid::from_u128(0xa2);

#[derive(Debug, Clone)]
struct JobModel {
    kind: &'static str,
    status: &'static str,
    /// Which node, if targeted.
    target: Option<bool>,
    lease_token: bool,
    /// Seconds from now (negative: expired).
    lease_expires_in: Option<i64>,
    results: usize,
}

#[derive(Debug, Clone)]
struct InstanceModel {
    status: &'static str,
    /// Which node, if active on one.
    node: Option<bool>,
}

#[derive(Debug, Clone)]
struct State {
    status: &'static str,
    jobs: Vec<JobModel>,
    instances: Vec<InstanceModel>,
}

fn node_id(live: bool) -> Uuid {
    if live { LIVE_NODE } else { DEAD_NODE }
}

fn state() -> impl Strategy<Value = State> {
    let job = (
        prop::sample::select(&JOB_KINDS[..]),
        prop::sample::select(&JOB_STATUSES[..]),
        prop::option::weighted(0.3, any::<bool>()),
        prop::bool::weighted(0.2),
        prop::option::weighted(0.2, -7200i64..7200),
        prop_oneof![6 => Just(0usize), 1 => 1usize..3],
    )
        .prop_map(
            |(kind, status, target, lease_token, lease_expires_in, results)| JobModel {
                kind,
                status,
                target,
                lease_token,
                lease_expires_in,
                results,
            },
        );
    let instance = (
        prop::sample::select(&INSTANCE_STATUSES[..]),
        prop::option::weighted(0.3, any::<bool>()),
    )
        .prop_map(|(status, node)| InstanceModel { status, node });
    (
        prop::sample::select(&STATUSES[..]),
        prop::collection::vec(job, 0..4),
        prop::collection::vec(instance, 0..3),
    )
        .prop_map(|(status, jobs, instances)| State {
            status,
            jobs,
            instances,
        })
}

/// The README's decision table ("The break-glass decision"), written out
/// again from there, independent of the code.
fn spec_path(s: &State) -> &'static str {
    match (s.status, spec_dispatched(s)) {
        ("queued" | "building" | "deploying", false) => "operator_failed",
        ("teardown_queued" | "destroyed", _) => "none",
        (_, true) => "teardown_requested",
        (_, false) => "none",
    }
}

fn spec_dispatched(s: &State) -> bool {
    s.jobs.iter().any(|j| {
        j.target.is_some() || j.lease_token || j.lease_expires_in.is_some() || j.results > 0
    }) || s.instances.iter().any(|i| i.node.is_some())
}

/// The state as the typed snapshot diagnose and fail-safely decide from.
fn snapshot_of(s: &State) -> Snapshot {
    let now = Utc.with_ymd_and_hms(2025, 3, 1, 3, 0, 0).unwrap();
    let node = |id: Uuid, name: &str, live: bool| Node {
        id,
        name: name.to_string(),
        pool: Some("edge".to_string()),
        status: if live { "online" } else { "offline" }.into(),
        schedulable: live,
        slots: 4,
        last_seen_at: Some(now - chrono::Duration::seconds(if live { 5 } else { 10_000 })),
        heartbeat_age_seconds: Some(if live { 5 } else { 10_000 }),
    };
    let mut jobs = Vec::new();
    let mut results = Vec::new();
    for (n, j) in s.jobs.iter().enumerate() {
        let id = Uuid::from_u128(0x100 + n as u128);
        jobs.push(Job {
            id,
            kind: j.kind.into(),
            status: j.status.into(),
            target_node_id: j.target.map(node_id),
            attempt: 1,
            max_attempts: 3,
            available_at: now,
            lease_expires_at: j
                .lease_expires_in
                .map(|s| now + chrono::Duration::seconds(s)),
            last_error: None,
            last_error_length: None,
            last_error_cut: false,
            has_lease_token: j.lease_token,
            created_at: now,
            updated_at: now,
        });
        for r in 0..j.results {
            results.push(JobResult {
                id: Uuid::from_u128(0x200 + (n * 10 + r) as u128),
                job_id: id,
                reported_at: now,
                kind: j.kind.into(),
                node_id: LIVE_NODE,
                attempt: 1,
                outcome: "failed".into(),
                output: serde_json::json!({}),
                output_length: None,
                output_cut: false,
            });
        }
    }
    Snapshot {
        snapshot: SnapshotInfo {
            at: now,
            in_recovery: false,
            replay_lag_seconds: None,
            replay_paused: false,
            server_version: "15".to_string(),
            isolation: "repeatable read".to_string(),
            read_only: true,
            row_security: Vec::new(),
            row_security_policies: Vec::new(),
            role: "ops".to_string(),
        },
        deployment: Deployment {
            id: Uuid::from_u128(0xd1),
            org_id: Some(Uuid::from_u128(0xc1)),
            status: s.status.into(),
            created_at: now - chrono::Duration::hours(1),
            updated_at: now - chrono::Duration::hours(1),
        },
        events: Vec::new(),
        events_total: 0,
        jobs,
        results,
        source_snapshots: Vec::new(),
        release_artifacts: Vec::new(),
        instances: s
            .instances
            .iter()
            .enumerate()
            .map(|(n, i)| Instance {
                id: Uuid::from_u128(0x300 + n as u128),
                role_name: "web".to_string(),
                status: i.status.into(),
                active_node_id: i.node.map(node_id),
                generation: 1,
            })
            .collect(),
        allocations: Vec::new(),
        routes: Vec::new(),
        network_attachments: Vec::new(),
        nodes: vec![
            node(LIVE_NODE, "edge-live", true),
            node(DEAD_NODE, "edge-dead", false),
        ],
        nulls: Vec::new(),
    }
}

proptest! {
    #![proptest_config(Config { cases: 4000, failure_persistence: None, ..Config::default() })]

    #[test]
    fn the_verdict_is_the_decision_table(s in state()) {
        let verdict = verdict::assess(&snapshot_of(&s), &Policy::default());
        prop_assert_eq!(verdict.path.as_str(), spec_path(&s), "{:?}", s);
        prop_assert_eq!(verdict.dispatched, spec_dispatched(&s), "{:?}", s);
        prop_assert_eq!(
            verdict::decide_path(&DeploymentStatus::parse(s.status), verdict.dispatched),
            verdict.path
        );
        // Evidence exactly when dispatched.
        prop_assert_eq!(verdict.evidence.is_empty(), !verdict.dispatched);
    }
}

/// Writes the state as a fresh deployment; returns its id.
fn insert(client: &mut postgres::Client, s: &State) -> Uuid {
    let id = Uuid::new_v4();
    let mut tx = client.transaction().unwrap();
    tx.execute(
        "INSERT INTO deployments (id, org_id, status, created_at, updated_at)
         VALUES ($1, $2, $3, now() - interval '1 hour', now() - interval '1 hour')",
        &[&id, &Uuid::new_v4(), &s.status],
    )
    .unwrap();
    tx.execute(
        "INSERT INTO deployment_events (sequence, id, org_id, deployment_id, kind, occurred_at)
         SELECT 1, gen_random_uuid(), org_id, id, 'deployment_created', now() - interval '1 hour'
         FROM deployments WHERE id = $1",
        &[&id],
    )
    .unwrap();
    for j in &s.jobs {
        let job = Uuid::new_v4();
        let token = j.lease_token.then(Uuid::new_v4);
        let expires = j.lease_expires_in.map(|s| s as f64);
        tx.execute(
            "INSERT INTO jobs (id, deployment_id, kind, status, target_node_id, attempt,
                               lease_token, lease_expires_at)
             VALUES ($1, $2, $3, $4, $5, 1, $6, now() + make_interval(secs => $7))",
            &[
                &job,
                &id,
                &j.kind,
                &j.status,
                &j.target.map(node_id),
                &token,
                &expires,
            ],
        )
        .unwrap();
        for _ in 0..j.results {
            tx.execute(
                "INSERT INTO agent_job_results (id, job_id, node_id, attempt, lease_token, outcome)
                 VALUES (gen_random_uuid(), $1, $2, 1, gen_random_uuid(), 'failed')",
                &[&job, &LIVE_NODE],
            )
            .unwrap();
        }
    }
    for i in &s.instances {
        tx.execute(
            "INSERT INTO application_instances (id, deployment_id, role_name, status, active_node_id)
             VALUES (gen_random_uuid(), $1, 'web', $2, $3)",
            &[&id, &i.status, &i.node.map(node_id)],
        )
        .unwrap();
    }
    tx.commit().unwrap();
    id
}

/// Everything but the deployment's row and events, plus those two, as text.
fn rows_of(client: &mut postgres::Client, id: Uuid) -> (String, String, Vec<(i64, String)>) {
    let others: String = client
        .query_one(
            "SELECT concat_ws(' | ',
                 (SELECT jsonb_agg(j ORDER BY j.id) FROM jobs j WHERE deployment_id = $1),
                 (SELECT jsonb_agg(r ORDER BY r.id) FROM agent_job_results r
                    JOIN jobs j ON j.id = r.job_id WHERE j.deployment_id = $1),
                 (SELECT jsonb_agg(i ORDER BY i.id) FROM application_instances i WHERE deployment_id = $1),
                 (SELECT count(*) FROM fleet_allocations), (SELECT count(*) FROM fleet_nodes))",
            &[&id],
        )
        .unwrap()
        .get(0);
    let status: String = client
        .query_one("SELECT status FROM deployments WHERE id = $1", &[&id])
        .unwrap()
        .get(0);
    let events = client
        .query(
            "SELECT sequence, kind FROM deployment_events WHERE deployment_id = $1 ORDER BY sequence",
            &[&id],
        )
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    (others, status, events)
}

#[test]
fn fail_safely_applies_exactly_the_tables_path_or_refuses() {
    let db = TestDb::empty();
    let mut client = db.client();
    client
        .batch_execute(&format!(
            "INSERT INTO fleet_nodes (id, name, pool, status, schedulable, slots, last_seen_at) VALUES
               ('{LIVE_NODE}', 'edge-live', 'edge', 'online', true, 4, now()),
               ('{DEAD_NODE}', 'edge-dead', 'edge', 'offline', false, 4, now() - interval '3 hours')"
        ))
        .unwrap();
    let client = std::cell::RefCell::new(client);
    let seen = std::cell::RefCell::new(std::collections::BTreeMap::<&'static str, usize>::new());
    let mut runner = TestRunner::new(Config {
        cases: 64,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&state(), |s| {
            let client = &mut *client.borrow_mut();
            let expected = spec_path(&s);
            *seen.borrow_mut().entry(expected).or_default() += 1;
            let id = insert(client, &s);
            let (others, status, events) = rows_of(client, id);
            let run = db.run(&[
                "fail-safely",
                &id.to_string(),
                "--reason",
                "INC-8 property",
                "--yes",
                "--lock-timeout",
                "10s",
                // The decision table, stuck or not (stuck or not is
                // tested in guard.rs).
                "--even-if-not-stuck",
                "-o",
                "json",
            ]);
            let (others_after, status_after, events_after) = rows_of(client, id);
            prop_assert_eq!(
                &others_after,
                &others,
                "jobs, results, instances untouched: {:?}",
                s
            );
            if expected == "none" {
                prop_assert_eq!(run.code, 4, "refuses: {:?}\n{}", s, run.stderr);
                prop_assert!(run.stderr.contains("nothing to do"), "{}", run.stderr);
                prop_assert_eq!(&status_after, &status);
                prop_assert_eq!(&events_after, &events);
                return Ok(());
            }
            prop_assert_eq!(run.code, 0, "applies: {:?}\n{}", s, run.stderr);
            let json: serde_json::Value = serde_json::from_str(&run.stdout)
                .map_err(|e| TestCaseError::fail(format!("{e}: {}", run.stdout)))?;
            prop_assert_eq!(json["path"].as_str(), Some(expected), "{:?}", s);
            let new_status = if expected == "operator_failed" {
                "failed"
            } else {
                "teardown_queued"
            };
            prop_assert_eq!(status_after.as_str(), new_status);
            prop_assert_eq!(events_after.len(), events.len() + 1);
            prop_assert_eq!(events_after.last().map(|e| e.1.as_str()), Some(expected));
            prop_assert_eq!(
                events_after.last().map(|e| e.0),
                Some(events.len() as i64 + 1)
            );
            Ok(())
        })
        .unwrap_or_else(|err| panic!("{err}"));
    let seen = seen.into_inner();
    eprintln!("fail-safely property cases by expected path: {seen:?}");
    // The generator reaches all three outcomes, so the test means something.
    for path in ["operator_failed", "teardown_requested", "none"] {
        assert!(
            seen.get(path).copied().unwrap_or(0) > 0,
            "no case for {path}: {seen:?}"
        );
    }
}
