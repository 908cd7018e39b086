//! `wait`'s judgement: how far the runbook's Verification step has come,
//! and whether it can complete on its own.

use serde::Serialize;
use uuid::Uuid;

use crate::duration::ago;
use crate::model::{AllocationStatus, DeploymentSnapshot, DeploymentStatus, short_id};

use super::policy::Policy;

/// Where the deployment stands with respect to the Verification step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Progress {
    pub deployment_id: Uuid,
    pub status: DeploymentStatus,
    pub verified: bool,
    pub instances_total: usize,
    pub instances_removed: usize,
    /// Reserved or active allocations still held.
    pub allocations_held: usize,
    /// What is still outstanding.
    pub pending: Vec<String>,
    /// Why it may never complete on its own (dead node, network attachment).
    pub blocked: Vec<String>,
    pub last_event: Option<String>,
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Pure: what the snapshot says about the Verification step.
pub fn progress(s: &DeploymentSnapshot, policy: &Policy) -> Progress {
    let now = s.snapshot.at;
    let instances_total = s.instances.len();
    let instances_removed = instances_total - s.live_instances().count();
    let held = s.held_allocations().count();
    let mut pending = Vec::new();
    let mut blocked = Vec::new();
    let verified = match &s.deployment.status {
        DeploymentStatus::Failed => failed_verified(s, &mut pending, &mut blocked),
        DeploymentStatus::TeardownQueued | DeploymentStatus::Destroyed => {
            teardown_verified(s, policy, &mut pending, &mut blocked)
        }
        other => {
            pending.push(format!(
                "status is {other}: neither failed nor teardown_queued yet (did fail-safely run?)"
            ));
            false
        }
    };
    Progress {
        deployment_id: s.deployment.id,
        status: s.deployment.status.clone(),
        verified,
        instances_total,
        instances_removed,
        allocations_held: held,
        pending,
        blocked,
        last_event: s.last_event().map(|e| {
            format!(
                "#{} {} {}",
                e.sequence,
                e.kind,
                ago((now - e.occurred_at).num_seconds())
            )
        }),
    }
}

/// `failed`: verified once the reaper released the reservations, or at
/// once when a network attachment keeps them (then `blocked` says why).
fn failed_verified(
    s: &DeploymentSnapshot,
    pending: &mut Vec<String>,
    blocked: &mut Vec<String>,
) -> bool {
    let reserved = s
        .held_allocations()
        .filter(|a| a.status == AllocationStatus::Reserved)
        .count();
    if reserved > 0 {
        if s.network_attachments.is_empty() {
            pending.push(format!(
                "{reserved} reservation{} not yet released by the reaper",
                plural(reserved)
            ));
        } else {
            blocked.push(format!(
                "{reserved} reservation{} kept: a network attachment exists in segment {}; the reaper will not release them",
                plural(reserved),
                s.attachment_segments()
            ));
        }
    }
    reserved == 0 || !s.network_attachments.is_empty()
}

/// `teardown_queued` or `destroyed`: verified when every instance is removed
/// and every allocation released; a dead node it waits for is `blocked`.
fn teardown_verified(
    s: &DeploymentSnapshot,
    policy: &Policy,
    pending: &mut Vec<String>,
    blocked: &mut Vec<String>,
) -> bool {
    let now = s.snapshot.at;
    let dead = |node_id: Uuid| -> Option<String> {
        let node = s.node(node_id)?;
        policy.is_dead(node, now).then(|| {
            format!(
                "waiting for node {}, {}",
                node.name,
                node.last_seen_at
                    .map(|at| format!("last seen {}", ago((now - at).num_seconds())))
                    .unwrap_or_else(|| "never seen".to_string())
            )
        })
    };
    let mut block = |reason: Option<String>| {
        if let Some(reason) = reason
            && !blocked.contains(&reason)
        {
            blocked.push(reason);
        }
    };
    for instance in s.live_instances() {
        pending.push(format!(
            "instance {} ({}) is {}",
            short_id(instance.id),
            instance.role_name,
            instance.status
        ));
        block(instance.active_node_id.and_then(dead));
    }
    for job in s.jobs.iter().filter(|j| j.is_open_teardown()) {
        block(job.target_node_id.and_then(dead));
    }
    let held = s.held_allocations().count();
    if held > 0 {
        pending.push(format!("{held} allocation{} still held", plural(held)));
    }
    pending.is_empty()
}
