//! Fail closed on the unknown: a value the model does not know, or a NULL
//! the read noted, in a row the decision rests on makes the verdict
//! undecidable (path none, a finding per value), never operator_failed.

use super::*;

fn undecided(s: &DeploymentSnapshot, code: &str, says: &[&str]) -> Verdict {
    let v = assess_default(s);
    assert_eq!(v.path, BreakGlassPath::None, "{}", v.headline);
    assert!(!v.decidable);
    assert_eq!(v.next_command, None);
    assert!(v.headline.starts_with("cannot decide: "), "{}", v.headline);
    let f = finding(&v, code);
    assert_eq!(f.severity, Severity::Problem);
    for words in says {
        assert!(v.reason.contains(words), "{words:?} in {}", v.reason);
        assert!(f.message.contains(words), "{words:?} in {}", f.message);
    }
    assert!(v.reason.ends_with("so it decides nothing"), "{}", v.reason);
    v
}

#[test]
fn the_base_is_decidable() {
    let v = assess_default(&base());
    assert!(v.decidable);
    assert_eq!(v.path, BreakGlassPath::OperatorFailed);
}

#[test]
fn an_unknown_job_status_or_kind_decides_nothing() {
    for (status, kind) in [("blocked", "build"), ("queued", "migrate")] {
        let mut s = base();
        s.jobs[0] = job(0xB1, kind, status);
        let odd = if kind == "migrate" { kind } else { status };
        undecided(
            &s,
            "unknown_value",
            &[
                "jobs row",
                &id(0xB1).to_string(),
                &format!("`{odd}`"),
                "whether it was dispatched",
            ],
        );
    }
}

#[test]
fn unknown_instances_allocations_nodes_and_outcomes_decide_nothing() {
    let mut s = base();
    s.instances.push(Instance {
        status: "migrating".into(),
        ..instance(0x11, None)
    });
    undecided(
        &s,
        "unknown_value",
        &["application_instances", "`migrating`"],
    );

    let mut s = base();
    s.allocations.push(Allocation {
        id: id(0xA9),
        node_id: id(0xA1),
        resource_kind: "application_instance".into(),
        resource_id: id(0x11),
        status: "pending".into(),
        created_at: now(),
        released_at: None,
    });
    let v = undecided(&s, "unknown_value", &["fleet_allocations", "`pending`"]);
    // Held until it says otherwise.
    assert_eq!(s.held_allocations().count(), 1, "{:?}", codes(&v));

    let mut s = base();
    s.nodes.push(node(0xA1, "edge-01", "maintenance", 3.0));
    undecided(
        &s,
        "unknown_value",
        &["fleet_nodes", "`maintenance`", "whether the node is alive"],
    );

    let mut s = base();
    s.results.push(JobResult {
        id: id(0xF1),
        job_id: id(0xB1),
        reported_at: now(),
        kind: "build".into(),
        node_id: id(0xA1),
        attempt: 1,
        outcome: "exploded".into(),
        output: json!({}),
        output_length: None,
        output_cut: false,
    });
    undecided(&s, "unknown_value", &["agent_job_results", "`exploded`"]);
}

#[test]
fn an_unknown_deployment_status_keeps_its_finding_and_decides_nothing() {
    let mut s = base();
    s.deployment.status = "paused".into();
    let v = undecided(&s, "unknown_status", &["`paused`"]);
    assert!(v.reason.contains("deployments row"), "{}", v.reason);
    assert!(!codes(&v).contains(&"unknown_value"), "{:?}", codes(&v));
}

#[test]
fn a_null_the_read_noted_decides_nothing() {
    let mut s = base();
    s.jobs[0].kind = JobKind::Null;
    s.nulls
        .push(Warning::null("jobs", "kind", &id(0xB1).to_string()));
    let v = undecided(
        &s,
        "null_value",
        &["jobs.kind is NULL in row", "whether it was dispatched"],
    );
    // A NULL is one finding, not one for the NULL and one for the value.
    assert_eq!(
        codes(&v).iter().filter(|c| c.ends_with("_value")).count(),
        1
    );

    let mut s = base();
    s.deployment.org_id = None;
    s.nulls.push(Warning::null(
        "deployments",
        "org_id",
        &id(0xD1).to_string(),
    ));
    undecided(&s, "null_value", &["deployments.org_id is NULL"]);
}

#[test]
fn a_null_in_the_last_event_decides_nothing_one_in_an_older_event_only_warns() {
    let mut s = base();
    s.events[0].occurred_at = None;
    s.nulls.push(Warning::null(
        "deployment_events",
        "occurred_at",
        &id(0xE3).to_string(),
    ));
    undecided(
        &s,
        "null_value",
        &["deployment_events.occurred_at", "last made progress"],
    );

    let mut s = base();
    s.events.insert(
        0,
        Event {
            sequence: 2,
            id: id(0xE2),
            kind: "source_verified".into(),
            occurred_at: Some(now() - Age::minutes(46)),
            payload: serde_json::Value::Null,
            payload_length: None,
            payload_cut: false,
        },
    );
    s.nulls.push(Warning::null(
        "deployment_events",
        "payload",
        &id(0xE2).to_string(),
    ));
    let v = assess_default(&s);
    assert!(v.decidable);
    assert_eq!(v.path, BreakGlassPath::OperatorFailed);
    let f = finding(&v, "null_value");
    assert_eq!(f.severity, Severity::Warning);
    assert!(f.message.contains("older event"), "{}", f.message);
}
