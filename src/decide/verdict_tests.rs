//! The path, its evidence and its words.

use super::*;

#[test]
fn never_dispatched_in_flight_is_operator_failed_with_no_evidence() {
    let v = assess_default(&base());
    assert_eq!(v.path, BreakGlassPath::OperatorFailed);
    assert!(!v.dispatched);
    assert!(v.evidence.is_empty());
    assert!(v.headline.starts_with("operator_failed"));
    assert_eq!(
        v.next_command.map(|c| c.to_string()).as_deref(),
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
                    output_length: None,
                    output_cut: false,
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
    assert!(v.next_command.unwrap().to_string().contains("fail-safely"));
}

#[test]
fn nothing_to_do_says_why() {
    for (status, why) in [
        ("failed", "already failed"),
        ("teardown_queued", "teardown is already queued"),
        ("destroyed", "already destroyed"),
        ("running", "nothing was dispatched"),
        ("paused", "does not know"),
    ] {
        let mut s = base();
        s.deployment.status = status.into();
        let v = assess_default(&s);
        assert_eq!(v.path, BreakGlassPath::None, "{status}");
        assert!(v.reason.contains(why), "{status}: {}", v.reason);
    }
    let mut s = base();
    s.deployment.status = "teardown_queued".into();
    assert!(
        assess_default(&s)
            .next_command
            .unwrap()
            .to_string()
            .contains("wait")
    );
    s.deployment.status = "paused".into();
    finding(&assess_default(&s), "unknown_status");
}

#[test]
fn last_event_and_stuck_time() {
    let v = assess_default(&base());
    assert_eq!(v.last_event.as_ref().unwrap().sequence, 3);
    assert_eq!(v.last_event.as_ref().unwrap().age_seconds, Some(45 * 60));
    assert_eq!(v.stuck_for_seconds, Some(45 * 60));
    assert!(finding(&v, "last_event").message.contains("45m ago"));
    assert!(finding(&v, "stuck").message.contains("45m"));

    // Quiet for 10 minutes only: in flight, not stuck.
    let mut s = base();
    s.events[0].occurred_at = Some(now() - Age::minutes(10));
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
