//! `wait`'s judgement: how far the runbook's Verification step has come,
//! and whether it can complete on its own.

use uuid::Uuid;

pub use crate::model::progress::{Blocked, Pending, Progress, ProgressState};
use crate::model::{AllocationStatus, DeploymentSnapshot, DeploymentStatus};

use super::assessment::LastEvent;
use super::policy::Policy;
use crate::model::clock::age_seconds;

impl Progress {
    /// Nobody failed the deployment: waiting cannot end in verification.
    pub fn nothing_to_wait_for(&self) -> bool {
        self.pending
            .iter()
            .any(|p| matches!(p, Pending::NotFailed { .. }))
    }

    /// The dead nodes everything left waits for (none unless the state is
    /// `BlockedOnDeadNode`).
    pub fn dead_nodes(&self) -> Vec<&Blocked> {
        if self.state != ProgressState::BlockedOnDeadNode {
            return Vec::new();
        }
        self.blocked
            .iter()
            .filter(|b| matches!(b, Blocked::DeadNode { .. }))
            .collect()
    }
}

/// Pure: what the snapshot says about the Verification step.
pub fn progress(s: &DeploymentSnapshot, policy: &Policy) -> Progress {
    let now = s.snapshot.at;
    let instances_total = s.instances.len();
    let instances_removed = instances_total - s.live_instances().count();
    let held = s.held_allocations().count();
    let mut pending = Vec::new();
    let mut blocked = Vec::new();
    let mut on_dead_nodes = false;
    let verified = match &s.deployment.status {
        DeploymentStatus::Failed => failed_verified(s, &mut pending, &mut blocked),
        DeploymentStatus::TeardownQueued | DeploymentStatus::Destroyed => {
            let verified = teardown_verified(s, policy, &mut pending, &mut blocked);
            on_dead_nodes = !verified && all_left_on_dead_nodes(s, policy);
            verified
        }
        other => {
            pending.push(Pending::NotFailed {
                status: other.clone(),
            });
            false
        }
    };
    // Hidden rows could make a live instance or a held allocation look
    // gone: never verified from such a read (README, "Reads row-level
    // security filters").
    let blind = super::blind::cannot_vouch(&s.snapshot);
    if let Some(b) = &blind {
        blocked.push(Blocked::RowSecurity {
            role: b.role.clone(),
            tables: b.tables.iter().map(|t| t.table.clone()).collect(),
            message: b.message.clone(),
            next_step: b.next_step.clone(),
        });
    }
    let verified = verified && blind.is_none();
    let state = if verified {
        ProgressState::Verified
    } else if on_dead_nodes && blind.is_none() {
        ProgressState::BlockedOnDeadNode
    } else {
        ProgressState::Waiting
    };
    Progress {
        deployment_id: s.deployment.id,
        status: s.deployment.status.clone(),
        verified,
        state,
        instances_total,
        instances_removed,
        allocations_held: held,
        pending,
        blocked,
        last_event: s.last_event().map(|e| LastEvent::of(e, now)),
    }
}

/// `failed`: verified once the reaper released the reservations, or at
/// once when a network attachment keeps them (then `blocked` says why).
fn failed_verified(
    s: &DeploymentSnapshot,
    pending: &mut Vec<Pending>,
    blocked: &mut Vec<Blocked>,
) -> bool {
    let reserved = s
        .held_allocations()
        .filter(|a| a.status == AllocationStatus::Reserved)
        .count();
    if reserved > 0 {
        if s.network_attachments.is_empty() {
            pending.push(Pending::ReservationsHeld { count: reserved });
        } else {
            blocked.push(Blocked::NetworkAttachment {
                segments: s
                    .network_attachments
                    .iter()
                    .map(|a| a.segment.clone())
                    .collect(),
                reservations: reserved,
            });
        }
    }
    reserved == 0 || !s.network_attachments.is_empty()
}

/// A teardown whose every live instance waits for a dead node: on one, or
/// on no node with an open teardown job targeted at one. Nothing else can
/// remove them, so waiting longer changes nothing until the node returns
/// (README, "The break-glass decision").
fn all_left_on_dead_nodes(s: &DeploymentSnapshot, policy: &Policy) -> bool {
    let now = s.snapshot.at;
    let dead = |node_id: Option<Uuid>| {
        node_id
            .and_then(|id| s.node(id))
            .is_some_and(|node| policy.is_dead(node, now))
    };
    let teardown_on_dead = s
        .jobs
        .iter()
        .filter(|j| j.is_open_teardown())
        .any(|j| dead(j.target_node_id));
    let mut live = s.live_instances().peekable();
    live.peek().is_some()
        && live.all(|i| match i.active_node_id {
            Some(_) => dead(i.active_node_id),
            None => teardown_on_dead,
        })
}

/// `teardown_queued` or `destroyed`: verified when every instance is removed
/// and every allocation released; a dead node it waits for is `blocked`.
fn teardown_verified(
    s: &DeploymentSnapshot,
    policy: &Policy,
    pending: &mut Vec<Pending>,
    blocked: &mut Vec<Blocked>,
) -> bool {
    let now = s.snapshot.at;
    let dead = |node_id: Uuid| -> Option<Blocked> {
        let node = s.node(node_id)?;
        policy.is_dead(node, now).then(|| Blocked::DeadNode {
            node_id,
            node_name: node.name.clone(),
            last_seen_at: node.last_seen_at,
            heartbeat_age_seconds: node.last_seen_at.map(|at| age_seconds(now, at)),
        })
    };
    let mut block = |reason: Option<Blocked>| {
        if let Some(reason) = reason
            && !blocked.contains(&reason)
        {
            blocked.push(reason);
        }
    };
    for instance in s.live_instances() {
        pending.push(Pending::InstanceLive {
            instance_id: instance.id,
            role_name: instance.role_name.clone(),
            status: instance.status.clone(),
        });
        block(instance.active_node_id.and_then(dead));
    }
    for job in s.jobs.iter().filter(|j| j.is_open_teardown()) {
        block(job.target_node_id.and_then(dead));
    }
    let held = s.held_allocations().count();
    if held > 0 {
        pending.push(Pending::AllocationsHeld { count: held });
    }
    pending.is_empty()
}
