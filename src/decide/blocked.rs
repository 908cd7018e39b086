//! A teardown that is blocked on a dead node (README, "The break-glass
//! decision"): everything it still waits for is on a node that is offline
//! or whose heartbeat is stale, so nothing completes it until the node
//! returns. `diagnose` says so first, instead of "nothing to do".

use crate::duration::human;
use crate::model::progress::{Blocked, ProgressState};
use crate::model::{DeploymentSnapshot, NextCommand};

use super::policy::Policy;
use super::progress::progress;

/// The verdict's words for a teardown blocked on a dead node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockedOnNode {
    /// The dead nodes' names.
    pub nodes: Vec<String>,
    pub headline: String,
    pub reason: String,
    /// Keep waiting through the node's reboot.
    pub next_command: NextCommand,
}

/// What the runbook forbids while a teardown waits for a dead node, as
/// the README states it (its first lines).
const FORBIDDEN: &str = "the runbook forbids releasing its instances or allocations by hand \
     (pushleft-controller never touches jobs, leases, instances or allocations by hand)";

/// Blocked on dead nodes: the teardown's every live instance waits for
/// one (`decide::progress`). None otherwise.
pub fn on_dead_node(s: &DeploymentSnapshot, policy: &Policy) -> Option<BlockedOnNode> {
    let p = progress(s, policy);
    if p.state != ProgressState::BlockedOnDeadNode {
        return None;
    }
    let dead: Vec<(String, String)> = p
        .dead_nodes()
        .into_iter()
        .filter_map(|b| match b {
            Blocked::DeadNode {
                node_name,
                heartbeat_age_seconds,
                ..
            } => Some((
                node_name.clone(),
                heartbeat_age_seconds.map_or_else(
                    || "never seen".to_string(),
                    |age| format!("silent for {}", human(age)),
                ),
            )),
            _ => None,
        })
        .collect();
    let names: Vec<String> = dead.iter().map(|(name, _)| name.clone()).collect();
    let nodes = dead
        .iter()
        .map(|(name, silent)| format!("node {name} ({silent})"))
        .collect::<Vec<_>>()
        .join(", ");
    let names_text = names.join(", ");
    let stale = human(i64::try_from(policy.stale_after.as_secs()).unwrap_or(i64::MAX));
    Some(BlockedOnNode {
        headline: format!(
            "blocked on {nodes}: the teardown completes only once {names_text} returns; \
             {FORBIDDEN}; what brings it back: {names_text}'s agent returning (the node rebooted)"
        ),
        reason: format!(
            "every instance left is on a node that is offline or without a heartbeat for more \
             than {stale}, and only that node's agent removes it; `wait` exits 7 at once, and \
             `wait --wait-for-node` keeps waiting through a reboot"
        ),
        next_command: NextCommand::wait(crate::model::short_id(s.deployment.id))
            .arg("--wait-for-node")
            .option("--timeout", "30m"),
        nodes: names,
    })
}
