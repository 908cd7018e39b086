//! The edges: clock skew (times ahead of the snapshot's `now()`) and a
//! trail at the bigint maximum.

use super::*;
use crate::decide::edges::{of_nodes, of_snapshot, trail_full};
use crate::decide::stuck;

/// `base()` with its last event 1h59m59s ahead of the server's clock.
fn ahead() -> DeploymentSnapshot {
    let mut s = base();
    s.events[0].occurred_at = Some(now() + Age::seconds(7199));
    s
}

#[test]
fn a_last_event_ahead_of_the_clock_is_progress_just_now_never_a_negative_age() {
    let s = ahead();
    let st = stuck(&s, &Policy::default());
    assert!(!st.stuck);
    assert_eq!(st.stuck_for_seconds, Some(0));
    assert!(
        st.why
            .contains("1h59m in the future of the database server's clock")
            && st.why.contains("clock skew"),
        "{}",
        st.why
    );
    let v = assess_default(&s);
    assert!(!v.stuck);
    assert_eq!(v.stuck_for_seconds, Some(0));
    assert_eq!(v.last_event.as_ref().and_then(|e| e.age_seconds), Some(0));
    assert!(!v.headline.contains("for in "), "{}", v.headline);
    assert!(v.headline.contains("clock skew"), "{}", v.headline);
    let skew = finding(&v, "clock_skew");
    assert_eq!(skew.severity, Severity::Problem);
    assert!(
        skew.message.starts_with(
            "clock skew: event 3 of deployment 00000000 is 1h59m in the future of the database \
             server's clock"
        ),
        "{}",
        skew.message
    );
    for f in &v.findings {
        assert!(!f.message.contains("for in "), "{}", f.message);
    }
}

#[test]
fn within_the_tolerance_is_no_skew() {
    let mut s = base();
    s.events[0].occurred_at = Some(now() + Age::seconds(60));
    assert!(of_snapshot(&s).is_empty());
    assert!(!codes(&assess_default(&s)).contains(&"clock_skew"));
    s.events[0].occurred_at = Some(now() + Age::seconds(61));
    assert_eq!(of_snapshot(&s).len(), 1);
}

#[test]
fn without_events_the_creation_counts_and_heartbeats_are_checked() {
    let mut s = base();
    s.events.clear();
    s.deployment.created_at = now() + Age::hours(3);
    let skews = of_snapshot(&s);
    assert_eq!(skews.len(), 1);
    assert!(skews[0].message.contains("the creation of deployment"));
    assert!(!stuck(&s, &Policy::default()).stuck);

    let mut fast = node(0xA1, "edge-01", "online", 0.0);
    fast.last_seen_at = Some(now() + Age::hours(2));
    let slow = node(0xA2, "edge-02", "online", 10.0);
    let skews = of_nodes([&fast, &slow], now());
    assert_eq!(skews.len(), 1);
    assert!(
        skews[0]
            .message
            .starts_with("clock skew: node edge-01's heartbeat is 2h in the future"),
        "{}",
        skews[0].message
    );
}

#[test]
fn a_trail_at_the_bigint_maximum_is_full() {
    let mut s = base();
    assert!(trail_full(&s).is_none());
    s.events[0].sequence = i64::MAX;
    assert_eq!(trail_full(&s).map(|e| e.sequence), Some(i64::MAX));
    let v = assess_default(&s);
    assert!(
        finding(&v, "event_trail_full")
            .message
            .contains("no event can be appended")
    );
}
