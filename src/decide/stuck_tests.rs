//! Stuck or not, by the alerts' definitions.

use super::*;
use crate::decide::stuck;

#[test]
fn in_flight_and_quiet_for_the_threshold_is_stuck() {
    let s = base();
    let st = stuck(&s, &Policy::default());
    assert!(st.stuck);
    assert_eq!(st.stuck_for_seconds, Some(45 * 60));
    assert!(st.why.contains("no new event for 45m"), "{}", st.why);
    assert!(assess_default(&s).stuck);
}

#[test]
fn recent_progress_is_not_stuck_yet() {
    let mut s = base();
    s.events[0].occurred_at = Some(now() - Age::minutes(29));
    let st = stuck(&s, &Policy::default());
    assert!(!st.stuck);
    assert_eq!(st.stuck_for_seconds, Some(29 * 60));
    assert!(st.why.contains("29m ago"), "{}", st.why);
    // Without any event: since creation (50m ago).
    s.events.clear();
    assert!(stuck(&s, &Policy::default()).stuck);
}

#[test]
fn a_running_deployment_is_not_stuck_unless_a_lease_is_orphaned() {
    let mut s = base();
    s.deployment.status = "running".into();
    let st = stuck(&s, &Policy::default());
    assert!(!st.stuck);
    assert_eq!(st.stuck_for_seconds, None);
    assert!(st.why.contains("running, not in flight"), "{}", st.why);
    assert!(!assess_default(&s).stuck);

    // A lease that expired 30s ago is within the grace; 5m ago is not.
    s.jobs[0].status = "leased".into();
    s.jobs[0].lease_expires_at = Some(now() - Age::seconds(30));
    assert!(!stuck(&s, &Policy::default()).stuck);
    s.jobs[0].lease_expires_at = Some(now() - Age::minutes(5));
    let st = stuck(&s, &Policy::default());
    assert!(st.stuck);
    assert_eq!(st.stuck_for_seconds, Some(300));
    assert!(st.why.contains("job_lease_orphaned"), "{}", st.why);
}
