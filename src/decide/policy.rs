//! The thresholds the judgement uses: when a node is stale or dead, when a
//! deployment counts as stuck.

use std::time::Duration;

use chrono::{DateTime, Utc};

use crate::model::diagnose::NodeState;
use crate::model::{Node, NodeStatus};

/// The alert `deployment_stuck` fires after this long without an event
/// (`stuck --for`).
pub const STUCK_AFTER: Duration = Duration::from_secs(30 * 60);

/// The alert `job_lease_orphaned` fires for a lease expired longer ago
/// than this (`stuck --grace`).
pub const LEASE_GRACE: Duration = Duration::from_secs(60);

/// Knobs of the assessment.
#[derive(Debug, Clone, Copy)]
pub struct Policy {
    /// A node whose heartbeat is older than this is stale.
    pub stale_after: Duration,
    /// In flight with no event for this long is stuck.
    pub stuck_after: Duration,
    /// A lease expired longer ago than this, and not reclaimed, is
    /// orphaned: its deployment is stuck.
    pub lease_grace: Duration,
}

impl Policy {
    /// The node's heartbeat is older than `stale_after` at `now` (or it
    /// never had one): the same rule as `sql/fleet/list.sql`.
    pub fn is_stale(&self, node: &Node, now: DateTime<Utc>) -> bool {
        let stale_after =
            chrono::Duration::from_std(self.stale_after).unwrap_or(chrono::Duration::MAX);
        node.last_seen_at
            .is_none_or(|seen| now.signed_duration_since(seen) > stale_after)
    }

    /// Nothing will run on the node: it is offline or its heartbeat is stale.
    pub fn is_dead(&self, node: &Node, now: DateTime<Utc>) -> bool {
        node.status == NodeStatus::Offline || self.is_stale(node, now)
    }

    /// Both, for a document that carries them to every renderer
    /// (`model::diagnose`).
    pub fn node_state(&self, node: &Node, now: DateTime<Utc>) -> NodeState {
        NodeState {
            stale: self.is_stale(node, now),
            dead: self.is_dead(node, now),
        }
    }
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            stale_after: Duration::from_secs(120),
            stuck_after: STUCK_AFTER,
            lease_grace: LEASE_GRACE,
        }
    }
}
