//! A teardown blocked on a dead node, and one that is not.

use super::*;
use crate::decide::blocked::on_dead_node;
use crate::decide::progress::{ProgressState, progress};

fn torn_down_on(nodes: &[(u128, &str, &str)]) -> DeploymentSnapshot {
    let mut s = base();
    s.deployment.status = "teardown_queued".into();
    s.nodes = nodes
        .iter()
        .map(|(n, name, status)| {
            let age = if *status == "offline" { 11_700.0 } else { 2.0 };
            node(*n, name, status, age)
        })
        .collect();
    s.instances = nodes
        .iter()
        .enumerate()
        .map(|(i, (n, ..))| instance(0x11 + i as u128, Some(id(*n))))
        .collect();
    s
}

#[test]
fn a_teardown_whose_every_instance_is_on_a_dead_node_is_blocked() {
    let s = torn_down_on(&[(0xA7, "edge-07", "offline")]);
    let p = progress(&s, &Policy::default());
    assert_eq!(p.state, ProgressState::BlockedOnDeadNode);
    let v = assess_default(&s);
    assert!(
        v.headline
            .starts_with("blocked on node edge-07 (silent for 3h15m)"),
        "{}",
        v.headline
    );
    assert!(v.headline.contains("forbids releasing"), "{}", v.headline);
    assert!(v.headline.contains("agent returning"), "{}", v.headline);
    assert_eq!(v.blocked_on_nodes, ["edge-07"]);
    let next = v.next_command.map(|c| c.to_string()).unwrap_or_default();
    assert!(next.contains("--wait-for-node"), "{next}");
}

#[test]
fn a_teardown_with_an_instance_on_a_live_node_is_waiting() {
    let s = torn_down_on(&[(0xA7, "edge-07", "offline"), (0xA1, "edge-01", "online")]);
    let p = progress(&s, &Policy::default());
    assert_eq!(p.state, ProgressState::Waiting);
    assert!(on_dead_node(&s, &Policy::default()).is_none());
    let v = assess_default(&s);
    assert!(v.headline.starts_with("nothing to do"), "{}", v.headline);
    assert!(v.blocked_on_nodes.is_empty());
}
