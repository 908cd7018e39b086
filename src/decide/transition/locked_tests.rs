//! Step 9 on hand-built snapshots: each refusal, in its order, and the
//! change allowed.

use super::*;
use crate::decide::tests::{Age, base, id, instance, node, now};
use crate::exit::{ExitCode, code_for};

fn asked() -> Asked<'static> {
    Asked {
        reason: "INC-1 stuck queued",
        dry_run: false,
        even_if_not_stuck: false,
        expect_path: None,
        expect_fingerprint: None,
    }
}

/// The refusal's exit code and words.
fn refused(asked: &Asked, s: &DeploymentSnapshot) -> (ExitCode, String) {
    match decide(asked, s, &Policy::default()) {
        Ok(decision) => panic!("allowed: {decision:?}"),
        Err(err) => (code_for(&err), format!("{err:#}")),
    }
}

/// Running, with an instance on a live node: teardown is the path, and it
/// is not stuck.
fn running_and_dispatched() -> DeploymentSnapshot {
    let mut s = base();
    s.deployment.status = "running".into();
    s.instances.push(instance(0x11, Some(id(0xA1))));
    s.nodes.push(node(0xA1, "edge-01", "online", 2.0));
    s
}

#[test]
fn a_stuck_deployment_with_a_path_is_allowed() {
    let s = base();
    let decision = decide(&asked(), &s, &Policy::default()).expect("allowed");
    assert_eq!(decision.change, Change::MarkFailed);
    assert_eq!(decision.change.path(), BreakGlassPath::OperatorFailed);
    assert_eq!(decision.change.new_status(), DeploymentStatus::Failed);
    assert!(decision.stuck.stuck);
    assert_eq!(decision.fingerprint, fingerprint(&s));
    assert_eq!(decision.verdict.path, BreakGlassPath::OperatorFailed);
}

#[test]
fn an_undecidable_deployment_is_refused_first() {
    let mut s = base();
    s.deployment.status = "paused".into();
    let asked = Asked {
        even_if_not_stuck: true,
        expect_path: Some(BreakGlassPath::OperatorFailed),
        ..asked()
    };
    let (code, message) = refused(&asked, &s);
    assert_eq!(code, ExitCode::Refused);
    assert!(message.contains("refuses to decide"), "{message}");
    assert!(
        message.contains("pushleft-controller diagnose"),
        "{message}"
    );
}

#[test]
fn nothing_to_do_is_refused_even_if_not_stuck() {
    let mut s = base();
    s.deployment.status = "destroyed".into();
    let asked = Asked {
        even_if_not_stuck: true,
        ..asked()
    };
    let (code, message) = refused(&asked, &s);
    assert_eq!(code, ExitCode::Refused);
    assert!(
        message.starts_with("nothing to do for deployment"),
        "{message}"
    );
    assert!(message.contains("already destroyed"), "{message}");
}

#[test]
fn a_deployment_that_is_not_stuck_is_refused_unless_told() {
    let s = running_and_dispatched();
    let (code, message) = refused(&asked(), &s);
    assert_eq!(code, ExitCode::Refused);
    assert!(message.contains("is not stuck"), "{message}");
    assert!(message.contains("tear it down"), "{message}");
    assert!(message.contains("--even-if-not-stuck"), "{message}");
    let told = Asked {
        even_if_not_stuck: true,
        ..asked()
    };
    let decision = decide(&told, &s, &Policy::default()).expect("allowed when told");
    assert_eq!(decision.change, Change::RequestTeardown);
    assert_eq!(
        decision.change.new_status(),
        DeploymentStatus::TeardownQueued
    );
    assert!(!decision.stuck.stuck);
}

#[test]
fn another_path_than_expected_is_a_conflict() {
    let asked = Asked {
        expect_path: Some(BreakGlassPath::TeardownRequested),
        ..asked()
    };
    let (code, message) = refused(&asked, &base());
    assert_eq!(code, ExitCode::Conflict);
    assert!(
        message.contains("is operator_failed")
            && message.contains("not the expected teardown_requested"),
        "{message}"
    );
}

#[test]
fn another_fingerprint_than_expected_is_a_conflict() {
    let s = base();
    let stale = Asked {
        expect_fingerprint: Some("0123456789ab"),
        ..asked()
    };
    let (code, message) = refused(&stale, &s);
    assert_eq!(code, ExitCode::Conflict);
    assert!(
        message.contains("changed since it was diagnosed"),
        "{message}"
    );
    // The one diagnosed, as pasted (with blanks around it), holds.
    let pasted = format!("  {}\n", fingerprint(&s));
    let held = Asked {
        expect_fingerprint: Some(&pasted),
        expect_path: Some(BreakGlassPath::OperatorFailed),
        ..asked()
    };
    assert!(decide(&held, &s, &Policy::default()).is_ok());
}

#[test]
fn a_full_trail_is_refused_before_anything_is_written() {
    let mut s = base();
    assert!(trail_has_room(&s).is_ok());
    s.events[0].sequence = i64::MAX;
    s.events[0].occurred_at = Some(now() - Age::minutes(45));
    let err = trail_has_room(&s).expect_err("refused");
    assert_eq!(code_for(&err), ExitCode::Refused);
    assert!(
        format!("{err}").contains("largest sequence number"),
        "{err}"
    );
}
