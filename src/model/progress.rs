//! Where a deployment stands with respect to the runbook's Verification
//! step (`wait`'s report); `decide::progress` judges it.

use chrono::{DateTime, Utc};
use serde::Serialize;
use uuid::Uuid;

use super::assessment::LastEvent;
use super::{DeploymentStatus, InstanceStatus};

/// Where the deployment stands with respect to the Verification step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Progress {
    pub deployment_id: Uuid,
    pub status: DeploymentStatus,
    pub verified: bool,
    /// Verified, still waiting, or blocked: what is left can only
    /// complete once a dead node returns.
    pub state: ProgressState,
    pub instances_total: usize,
    pub instances_removed: usize,
    /// Reserved or active allocations still held.
    pub allocations_held: usize,
    /// What is still outstanding.
    pub pending: Vec<Pending>,
    /// Why it may never complete on its own (dead node, network attachment).
    pub blocked: Vec<Blocked>,
    pub last_event: Option<LastEvent>,
}

/// Where the Verification step stands, in one word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProgressState {
    Verified,
    /// Still outstanding, and nothing says it cannot complete on its own.
    Waiting,
    /// Everything left waits for dead nodes (`blocked` names them): it
    /// completes only once they return.
    BlockedOnDeadNode,
}

/// Something the Verification step still waits for.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Pending {
    /// Neither failed nor teardown_queued: nobody ran fail-safely (or it
    /// did not take effect); there is nothing to wait for.
    NotFailed { status: DeploymentStatus },
    /// Failed; the reaper has not released these reservations yet.
    ReservationsHeld { count: usize },
    /// Torn down; this instance is not removed yet.
    InstanceLive {
        instance_id: Uuid,
        role_name: String,
        status: InstanceStatus,
    },
    /// Torn down; allocations still held.
    AllocationsHeld { count: usize },
}

/// Why the Verification step may never complete on its own.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Blocked {
    /// The teardown waits for a node that is offline or stale.
    DeadNode {
        node_id: Uuid,
        node_name: String,
        last_seen_at: Option<DateTime<Utc>>,
        heartbeat_age_seconds: Option<i64>,
    },
    /// A network attachment keeps the reaper off the reservations.
    NetworkAttachment {
        segments: Vec<String>,
        reservations: usize,
    },
    /// Row-level security applies to the role that read: rows may be
    /// hidden (an instance, an allocation), so verification cannot be
    /// vouched for until it reads as a role that sees every row.
    RowSecurity {
        role: String,
        tables: Vec<String>,
        message: String,
        next_step: String,
    },
}
