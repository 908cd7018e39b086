//! The edges of time and of the trail. Clock skew in one deployment's
//! snapshot: its events, its creation and its nodes' heartbeats ahead of
//! the snapshot's `now()` by more than the tolerance (a finding in
//! `diagnose`; `stuck` and `fleet list` warn). And a trail whose last
//! event is at the largest sequence a bigint holds, where no event can be
//! appended (`fail-safely` refuses).

use chrono::{DateTime, Utc};

use super::assessment::{Findings, Severity};
use crate::model::clock::{ClockSkew, ahead_seconds};
use crate::model::{DeploymentSnapshot, Event, Node};

/// The last event, when its sequence is the largest a bigint holds: the
/// next one (`max + 1`) cannot be stored.
pub fn trail_full(s: &DeploymentSnapshot) -> Option<&Event> {
    s.last_event().filter(|e| e.sequence == i64::MAX)
}

/// Every time of the snapshot that is ahead of its `now()`: the newest
/// event that is (the others are counted in its sentence), or the
/// creation of a deployment without events; then each node's heartbeat.
pub fn of_snapshot(s: &DeploymentSnapshot) -> Vec<ClockSkew> {
    let now = s.snapshot.at;
    let id = s.deployment.id;
    let ahead: Vec<_> = s
        .events
        .iter()
        .filter_map(|e| {
            let at = e.occurred_at?;
            ahead_seconds(now, at).map(|a| (e, at, a))
        })
        .collect();
    let mut found = Vec::new();
    if let Some((newest, at, secs)) = ahead.last() {
        let mut skew = ClockSkew::event(id, newest.sequence, *at, *secs);
        if ahead.len() > 1 {
            skew.message.push_str(&format!(
                " ({} earlier events are ahead too)",
                ahead.len() - 1
            ));
        }
        found.push(skew);
    } else if s.events.is_empty()
        && let Some(secs) = ahead_seconds(now, s.deployment.created_at)
    {
        found.push(ClockSkew::created(id, s.deployment.created_at, secs));
    }
    found.extend(of_nodes(&s.nodes, now));
    found
}

/// The heartbeats ahead of `now`.
pub fn of_nodes<'a>(
    nodes: impl IntoIterator<Item = &'a Node>,
    now: DateTime<Utc>,
) -> Vec<ClockSkew> {
    nodes
        .into_iter()
        .filter_map(|n| {
            let at = n.last_seen_at?;
            ahead_seconds(now, at).map(|secs| ClockSkew::heartbeat(&n.name, at, secs))
        })
        .collect()
}

/// `diagnose`: a full trail, and one finding per skewed time. Problems:
/// fail-safely cannot record its change on a full trail, and what the
/// verdict rests on (stuck or not, a node dead or alive) is measured
/// against the clock.
pub fn findings(s: &DeploymentSnapshot, found: &mut Findings) {
    if let Some(last) = trail_full(s) {
        found.add(
            "event_trail_full",
            Severity::Problem,
            format!(
                "event trail full: the last event, #{}, is at the largest sequence number a \
                 bigint holds; no event can be appended, so fail-safely will refuse (it \
                 records every change with an event)",
                last.sequence
            ),
        );
    }
    for skew in of_snapshot(s) {
        found.add("clock_skew", Severity::Problem, skew.message);
    }
}
