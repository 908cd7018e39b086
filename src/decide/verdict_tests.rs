//! One test per finding of the assessment, on hand-built snapshots: no
//! database involved.

use chrono::{Duration as Age, TimeZone, Utc};
use serde_json::json;
use uuid::Uuid;

use chrono::DateTime;

use super::*;
use crate::decide::{Policy, fingerprint};
use crate::model::*;

fn id(n: u128) -> Uuid {
    Uuid::from_u128(n)
}

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 29, 3, 0, 0).unwrap()
}

/// A queued deployment, created 50m ago, last event 45m ago, one queued
/// build job with nothing dispatched, a verified source.
fn base() -> DeploymentSnapshot {
    let now = now();
    DeploymentSnapshot {
        snapshot: ReadInfo {
            at: now,
            in_recovery: false,
            replay_lag_seconds: None,
            server_version: "15".into(),
            isolation: "repeatable read".into(),
            read_only: true,
        },
        deployment: Deployment {
            id: id(0xD1),
            org_id: id(0xC1),
            status: "queued".into(),
            created_at: now - Age::minutes(50),
            updated_at: now - Age::minutes(45),
        },
        events: vec![Event {
            sequence: 3,
            id: id(0xE3),
            kind: "queued".into(),
            occurred_at: now - Age::minutes(45),
            payload: json!({}),
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
    }
}

fn job(n: u128, kind: &str, status: &str) -> Job {
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
        has_lease_token: false,
        created_at: now() - Age::minutes(45),
        updated_at: now() - Age::minutes(45),
    }
}

fn node(n: u128, name: &str, status: &str, heartbeat_secs: f64) -> Node {
    Node {
        id: id(n),
        name: name.into(),
        pool: "edge".into(),
        status: status.into(),
        schedulable: true,
        slots: 4,
        last_seen_at: Some(now() - Age::milliseconds((heartbeat_secs * 1000.0) as i64)),
        heartbeat_age_seconds: Some(heartbeat_secs as i64),
    }
}

fn instance(n: u128, node: Option<Uuid>) -> Instance {
    Instance {
        id: id(n),
        role_name: "web".into(),
        status: "starting".into(),
        active_node_id: node,
        generation: 1,
    }
}

fn codes(v: &Verdict) -> Vec<&'static str> {
    v.findings.iter().map(|f| f.code).collect()
}

fn finding<'a>(v: &'a Verdict, code: &str) -> &'a Finding {
    v.findings
        .iter()
        .find(|f| f.code == code)
        .unwrap_or_else(|| panic!("no `{code}` finding in {:?}", codes(v)))
}

fn assess_default(s: &DeploymentSnapshot) -> Verdict {
    assess(s, &Policy::default())
}

#[test]
fn never_dispatched_in_flight_is_operator_failed_with_no_evidence() {
    let v = assess_default(&base());
    assert_eq!(v.path, BreakGlassPath::OperatorFailed);
    assert!(!v.dispatched);
    assert!(v.evidence.is_empty());
    assert!(v.headline.starts_with("operator_failed"));
    assert_eq!(
        v.next_command.as_deref(),
        Some(
            "pushleft-controller fail-safely 00000000-0000-0000-0000-0000000000d1 --reason \"<ticket and reason>\""
        )
    );
}

#[test]
fn each_kind_of_dispatch_is_evidence_for_teardown() {
    let target = node(0xA1, "build-03", "online", 5.0);
    type Dispatch = Box<dyn Fn(&mut DeploymentSnapshot)>;
    let cases: Vec<(&str, Dispatch)> = vec![
        (
            "targeted",
            Box::new(|s: &mut DeploymentSnapshot| s.jobs[0].target_node_id = Some(id(0xA1))),
        ),
        (
            "lease token",
            Box::new(|s: &mut DeploymentSnapshot| s.jobs[0].has_lease_token = true),
        ),
        (
            "lease expiry",
            Box::new(|s: &mut DeploymentSnapshot| {
                s.jobs[0].lease_expires_at = Some(now() + Age::minutes(1))
            }),
        ),
        (
            "result",
            Box::new(|s: &mut DeploymentSnapshot| {
                s.results.push(JobResult {
                    id: id(0xF1),
                    job_id: id(0xB1),
                    reported_at: now(),
                    kind: "build".into(),
                    node_id: id(0xA1),
                    attempt: 1,
                    outcome: "failed".into(),
                    output: json!({}),
                })
            }),
        ),
        (
            "instance",
            Box::new(|s: &mut DeploymentSnapshot| s.instances.push(instance(0x11, Some(id(0xA1))))),
        ),
    ];
    for (name, apply) in cases {
        let mut s = base();
        s.nodes.push(target.clone());
        apply(&mut s);
        let v = assess_default(&s);
        assert_eq!(v.path, BreakGlassPath::TeardownRequested, "{name}");
        assert!(v.dispatched, "{name}");
        assert_eq!(v.evidence.len(), 1, "{name}: {:?}", v.evidence);
    }
    // An instance without a node is not dispatch.
    let mut s = base();
    s.instances.push(instance(0x11, None));
    assert_eq!(assess_default(&s).path, BreakGlassPath::OperatorFailed);
}

#[test]
fn a_running_deployment_is_not_stuck_and_gets_no_next_step() {
    let mut s = base();
    s.deployment.status = "running".into();
    s.instances.push(instance(0x11, Some(id(0xA1))));
    s.nodes.push(node(0xA1, "edge-01", "online", 2.0));
    let v = assess_default(&s);
    assert_eq!(
        v.path,
        BreakGlassPath::TeardownRequested,
        "the decision table"
    );
    assert!(v.headline.starts_with("not stuck"));
    assert!(v.next_command.is_none());
    // Failed, but still dispatched: that one does need a teardown.
    s.deployment.status = "failed".into();
    let v = assess_default(&s);
    assert_eq!(v.path, BreakGlassPath::TeardownRequested);
    assert!(v.next_command.unwrap().contains("fail-safely"));
}

#[test]
fn nothing_to_do_says_why() {
    for (status, why) in [
        ("failed", "already failed"),
        ("teardown_queued", "teardown is already queued"),
        ("destroyed", "already destroyed"),
        ("running", "nothing was dispatched"),
        ("paused", "unknown"),
    ] {
        let mut s = base();
        s.deployment.status = status.into();
        let v = assess_default(&s);
        assert_eq!(v.path, BreakGlassPath::None, "{status}");
        assert!(v.reason.contains(why), "{status}: {}", v.reason);
    }
    let mut s = base();
    s.deployment.status = "teardown_queued".into();
    assert!(assess_default(&s).next_command.unwrap().contains("wait"));
    s.deployment.status = "paused".into();
    finding(&assess_default(&s), "unknown_status");
}

#[test]
fn last_event_and_stuck_time() {
    let v = assess_default(&base());
    assert_eq!(v.last_event.as_ref().unwrap().sequence, 3);
    assert_eq!(v.last_event.as_ref().unwrap().age_seconds, 45 * 60);
    assert_eq!(v.stuck_for_seconds, Some(45 * 60));
    assert!(finding(&v, "last_event").message.contains("45m ago"));
    assert!(finding(&v, "stuck").message.contains("45m"));

    // Quiet for 10 minutes only: in flight, not stuck.
    let mut s = base();
    s.events[0].occurred_at = now() - Age::minutes(10);
    let v = assess_default(&s);
    assert!(!codes(&v).contains(&"stuck"));
    finding(&v, "in_flight");

    // No events at all: measured from creation.
    let mut s = base();
    s.events.clear();
    s.events_total = 0;
    let v = assess_default(&s);
    assert_eq!(v.stuck_for_seconds, Some(50 * 60));
    finding(&v, "no_events");
}

#[test]
fn orphaned_lease() {
    let mut s = base();
    s.deployment.status = "building".into();
    s.nodes.push(node(0xA3, "build-03", "online", 3000.0));
    s.jobs[0].status = "leased".into();
    s.jobs[0].target_node_id = Some(id(0xA3));
    s.jobs[0].has_lease_token = true;
    s.jobs[0].lease_expires_at = Some(now() - Age::minutes(38));
    let v = assess_default(&s);
    let f = finding(&v, "lease_orphaned");
    assert!(
        f.message.contains("build-03") && f.message.contains("38m ago"),
        "{}",
        f.message
    );
    // A lease that has not expired yet is not orphaned.
    s.jobs[0].lease_expires_at = Some(now() + Age::minutes(2));
    assert!(!codes(&assess_default(&s)).contains(&"lease_orphaned"));
}

#[test]
fn out_of_attempts() {
    let mut s = base();
    s.jobs[0].status = "failed".into();
    s.jobs[0].attempt = 3;
    s.jobs[0].last_error = Some("agent stopped answering".into());
    let v = assess_default(&s);
    let f = finding(&v, "out_of_attempts");
    assert!(f.message.contains("3/3") && f.message.contains("agent stopped answering"));
    s.jobs[0].attempt = 2;
    assert!(!codes(&assess_default(&s)).contains(&"out_of_attempts"));
}

#[test]
fn waiting_for_available_at() {
    let mut s = base();
    s.jobs[0].available_at = now() + Age::minutes(20);
    let v = assess_default(&s);
    assert!(
        finding(&v, "waiting_available_at")
            .message
            .contains("in 20m")
    );
}

#[test]
fn node_conditions_are_each_reported() {
    let mut s = base();
    s.jobs[0].target_node_id = Some(id(0xA1));
    let mut draining = node(0xA1, "edge-04", "draining", 5.0);
    draining.schedulable = false;
    s.nodes = vec![
        draining,
        node(0xA2, "edge-05", "online", 360.0),
        node(0xA3, "edge-07", "offline", 11_520.0),
    ];
    let v = assess_default(&s);
    assert!(finding(&v, "node_draining").message.contains("edge-04"));
    assert!(
        finding(&v, "node_unschedulable")
            .message
            .contains("edge-04")
    );
    let stale: Vec<_> = v
        .findings
        .iter()
        .filter(|f| f.code == "node_stale")
        .collect();
    assert_eq!(stale.len(), 2, "edge-05 and edge-07 are stale");
    assert!(finding(&v, "node_offline").message.contains("edge-07"));
    // --stale-after decides what stale means.
    let lenient = assess(
        &s,
        &Policy {
            stale_after: std::time::Duration::from_secs(600),
        },
    );
    assert_eq!(
        lenient
            .findings
            .iter()
            .filter(|f| f.code == "node_stale")
            .count(),
        1
    );
}

#[test]
fn teardown_waits_for_a_dead_node() {
    let mut s = base();
    s.deployment.status = "deploying".into();
    s.nodes = vec![
        node(0xA7, "edge-07", "offline", 11_520.0),
        node(0xA1, "edge-01", "online", 2.0),
    ];
    s.instances = vec![
        instance(0x11, Some(id(0xA7))),
        instance(0x12, Some(id(0xA1))),
    ];
    let v = assess_default(&s);
    assert_eq!(v.path, BreakGlassPath::TeardownRequested);
    let waits: Vec<_> = v
        .findings
        .iter()
        .filter(|f| f.code == "teardown_waits_for_node")
        .collect();
    assert_eq!(waits.len(), 1, "only the dead node: {waits:?}");
    assert!(
        waits[0]
            .message
            .contains("teardown will wait for node edge-07")
    );

    // A queued teardown job targeted at a dead node, on a teardown_queued deployment.
    let mut s = base();
    s.deployment.status = "teardown_queued".into();
    s.nodes = vec![node(0xA7, "edge-07", "online", 900.0)];
    let mut teardown = job(0xB9, "teardown", "queued");
    teardown.target_node_id = Some(id(0xA7));
    s.jobs = vec![teardown];
    let v = assess_default(&s);
    assert!(
        finding(&v, "teardown_waits_for_node")
            .message
            .contains("teardown job")
    );
}

#[test]
fn reservations_and_the_reaper() {
    let mut s = base();
    s.nodes = vec![node(0xA1, "edge-01", "online", 2.0)];
    s.instances = vec![instance(0x11, None)];
    s.allocations = vec![Allocation {
        id: id(0x71),
        node_id: id(0xA1),
        resource_kind: "application_instance".into(),
        resource_id: id(0x11),
        status: "reserved".into(),
        created_at: now() - Age::minutes(40),
        released_at: None,
    }];
    let v = assess_default(&s);
    assert_eq!(v.path, BreakGlassPath::OperatorFailed);
    assert!(
        finding(&v, "reservations_releasable")
            .message
            .contains("edge-01")
    );

    s.network_attachments.push(NetworkAttachment {
        id: id(0x81),
        segment: "seg-crm-7".into(),
        node_id: Some(id(0xA1)),
        created_at: now(),
    });
    let v = assess_default(&s);
    let f = finding(&v, "reservations_blocked");
    assert_eq!(f.severity, Severity::Problem);
    assert!(f.message.contains("seg-crm-7"));
    assert!(!codes(&v).contains(&"reservations_releasable"));
}

#[test]
fn missing_source_or_artifact() {
    let mut s = base();
    s.source_snapshots[0].verified_at = None;
    finding(&assess_default(&s), "source_unverified");
    s.source_snapshots.clear();
    finding(&assess_default(&s), "source_missing");
    s.deployment.status = "deploying".into();
    assert_eq!(
        finding(&assess_default(&s), "artifact_missing").severity,
        Severity::Warning
    );
    s.release_artifacts.push(ReleaseArtifact {
        id: id(0x61),
        image: "img".into(),
    });
    assert!(!codes(&assess_default(&s)).contains(&"artifact_missing"));
}

#[test]
fn standby_is_mentioned() {
    let mut s = base();
    s.snapshot.in_recovery = true;
    s.snapshot.replay_lag_seconds = Some(4.2);
    assert!(
        finding(&assess_default(&s), "standby")
            .message
            .contains("primary")
    );
}

#[test]
fn problems_come_first() {
    let mut s = base();
    s.jobs[0].available_at = now() + Age::minutes(20);
    let v = assess_default(&s);
    assert_eq!(v.findings[0].severity, Severity::Problem);
    assert!(
        v.findings
            .windows(2)
            .all(|w| w[0].severity <= w[1].severity)
    );
}

#[test]
fn the_fingerprint_follows_the_decision_state_only() {
    let s = base();
    let fp = fingerprint(&s);
    assert_eq!(fp, fingerprint(&s.clone()));
    // Heartbeats and the read time do not matter...
    let mut later = s.clone();
    later.snapshot.at = now() + Age::seconds(30);
    later.nodes.push(node(0xA1, "edge-01", "online", 1.0));
    assert_eq!(fingerprint(&later), fp);
    // ...a dispatch, a new event or a status change does.
    let mut targeted = s.clone();
    targeted.jobs[0].target_node_id = Some(id(0xA1));
    assert_ne!(fingerprint(&targeted), fp);
    let mut newer = s.clone();
    newer.events_total += 1;
    assert_ne!(fingerprint(&newer), fp);
    let mut failed = s;
    failed.deployment.status = "failed".into();
    assert_ne!(fingerprint(&failed), fp);
}
