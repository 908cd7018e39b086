//! One test per finding, and the fingerprint.

use super::*;

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
fn a_last_error_read_cut_is_said_before_it_is_quoted() {
    let mut s = base();
    s.jobs[0].status = "failed".into();
    s.jobs[0].attempt = 3;
    s.jobs[0].last_error = Some("e".repeat(crate::model::cut::TEXT_CUT_CHARS));
    s.jobs[0].last_error_length = Some(52_428_800);
    s.jobs[0].last_error_cut = true;
    let v = assess_default(&s);
    let f = finding(&v, "out_of_attempts");
    let note =
        "3/3); last error (cut: 52,428,800 bytes in all; diagnose --full-text shows it): eee";
    assert!(f.message.contains(note), "{}", f.message);
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
    assert_eq!(
        stale.len(),
        1,
        "edge-05 is stale; edge-07 is offline, said once"
    );
    assert!(finding(&v, "node_offline").message.contains("edge-07"));
    // --stale-after decides what stale means.
    let lenient = assess(
        &s,
        &Policy {
            stale_after: std::time::Duration::from_secs(600),
            ..Policy::default()
        },
    );
    assert_eq!(
        lenient
            .findings
            .iter()
            .filter(|f| f.code == "node_stale")
            .count(),
        0
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
    s.release_artifacts.clear();
    s.deployment.status = "destroyed".into();
    assert!(
        !codes(&assess_default(&s)).contains(&"artifact_missing"),
        "a finished deployment never gets an artifact: no news"
    );
}

#[test]
fn standby_is_mentioned() {
    let mut s = base();
    s.snapshot.in_recovery = true;
    s.snapshot.replay_lag_seconds = Some(4);
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
