//! Tests of the assessment on hand-built snapshots, no database involved:
//! the fixtures here, the path and its words in `verdict`, one test per
//! finding in `findings`.

#[path = "blind_tests.rs"]
mod blind;
#[path = "blocked_tests.rs"]
mod blocked;
#[path = "edges_tests.rs"]
mod edges;
#[path = "findings_tests.rs"]
mod findings;
#[path = "stuck_tests.rs"]
mod stuck;
#[path = "unknown_tests.rs"]
mod unknown;
#[path = "verdict_tests.rs"]
mod verdict;

pub use chrono::{Duration as Age, TimeZone, Utc};
pub use serde_json::json;
pub use uuid::Uuid;

pub use chrono::DateTime;

pub use crate::decide::assessment::*;
pub use crate::decide::verdict::*;
pub use crate::decide::{Policy, fingerprint};
pub use crate::model::*;

pub fn id(n: u128) -> Uuid {
    Uuid::from_u128(n)
}

pub fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 29, 3, 0, 0).unwrap()
}

/// A queued deployment, created 50m ago, last event 45m ago, one queued
/// build job with nothing dispatched, a verified source.
pub fn base() -> DeploymentSnapshot {
    let now = now();
    DeploymentSnapshot {
        snapshot: ReadInfo {
            at: now,
            in_recovery: false,
            replay_lag_seconds: None,
            replay_paused: false,
            server_version: "15".into(),
            isolation: "repeatable read".into(),
            read_only: true,
            row_security: Vec::new(),
            row_security_policies: Vec::new(),
            role: "ops".into(),
        },
        deployment: Deployment {
            id: id(0xD1),
            org_id: Some(id(0xC1)),
            status: "queued".into(),
            created_at: now - Age::minutes(50),
            updated_at: now - Age::minutes(45),
        },
        events: vec![Event {
            sequence: 3,
            id: id(0xE3),
            kind: "queued".into(),
            occurred_at: Some(now - Age::minutes(45)),
            payload: json!({}),
            payload_length: None,
            payload_cut: false,
        }],
        events_total: 3,
        jobs: vec![job(0xB1, "build", "queued")],
        results: vec![],
        source_snapshots: vec![SourceSnapshot {
            id: id(0x51),
            verified_at: Some(now - Age::minutes(49)),
        }],
        release_artifacts: vec![],
        instances: vec![],
        allocations: vec![],
        routes: vec![],
        network_attachments: vec![],
        nodes: vec![],
        nulls: vec![],
    }
}

pub fn job(n: u128, kind: &str, status: &str) -> Job {
    Job {
        id: id(n),
        kind: kind.into(),
        status: status.into(),
        target_node_id: None,
        attempt: 0,
        max_attempts: 3,
        available_at: now() - Age::minutes(45),
        lease_expires_at: None,
        last_error: None,
        last_error_length: None,
        last_error_cut: false,
        has_lease_token: false,
        created_at: now() - Age::minutes(45),
        updated_at: now() - Age::minutes(45),
    }
}

pub fn node(n: u128, name: &str, status: &str, heartbeat_secs: f64) -> Node {
    Node {
        id: id(n),
        name: name.into(),
        pool: Some("edge".into()),
        status: status.into(),
        schedulable: true,
        slots: 4,
        last_seen_at: Some(now() - Age::milliseconds((heartbeat_secs * 1000.0) as i64)),
        heartbeat_age_seconds: Some(heartbeat_secs as i64),
    }
}

pub fn instance(n: u128, node: Option<Uuid>) -> Instance {
    Instance {
        id: id(n),
        role_name: "web".into(),
        status: "starting".into(),
        active_node_id: node,
        generation: 1,
    }
}

pub fn codes(v: &Verdict) -> Vec<&'static str> {
    v.findings.iter().map(|f| f.code).collect()
}

pub fn finding<'a>(v: &'a Verdict, code: &str) -> &'a Finding {
    v.findings
        .iter()
        .find(|f| f.code == code)
        .unwrap_or_else(|| panic!("no `{code}` finding in {:?}", codes(v)))
}

pub fn assess_default(s: &DeploymentSnapshot) -> Verdict {
    assess(s, &Policy::default())
}
