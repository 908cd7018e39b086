//! One deployment as the runbook's Diagnosis reads it: the typed rows of
//! every section, and the instant they were read at. No I/O here: `db`
//! fills these in, `decide` judges them, `ui` shows them.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;
use uuid::Uuid;

use super::status::{
    AllocationStatus, DeploymentStatus, InstanceStatus, JobKind, JobStatus, NodeStatus,
    ResultOutcome, RouteStatus,
};

/// The one `now()` of the read, and what kind of server answered.
#[derive(Debug, Clone, Serialize)]
pub struct ReadInfo {
    pub at: DateTime<Utc>,
    pub in_recovery: bool,
    /// Whole seconds the standby's replay is behind (none on a primary).
    pub replay_lag_seconds: Option<i64>,
    /// A standby's replay is paused (`pg_wal_replay_pause()`).
    pub replay_paused: bool,
    pub server_version: String,
    pub isolation: String,
    pub read_only: bool,
    /// The tables (partitions, children) where row-level security applies
    /// to the role that read: rows may have been hidden from the read.
    pub row_security: Vec<String>,
    /// The same tables, each with its owner and policies.
    pub row_security_policies: Vec<RowSecurity>,
    /// The role that read (`current_user`); in the JSON only where it
    /// matters, `cannot_vouch.role` (a document is the same for every
    /// role that sees the same rows).
    #[serde(skip)]
    pub role: String,
}

/// A table where row-level security applies to the role that read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct RowSecurity {
    pub table: String,
    /// Its owner, who is not filtered unless `forced`.
    pub owner: String,
    /// FORCE ROW LEVEL SECURITY: the owner is filtered too.
    pub forced: bool,
    /// The names of its policies (none: every row is hidden).
    pub policies: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Deployment {
    pub id: Uuid,
    /// None: NULL in the database (see `DeploymentSnapshot::nulls`).
    pub org_id: Option<Uuid>,
    pub status: DeploymentStatus,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Event {
    pub sequence: i64,
    pub id: Uuid,
    pub kind: String,
    /// None: NULL in the database (see `DeploymentSnapshot::nulls`).
    #[serde(serialize_with = "super::timestamp::serialize_opt")]
    pub occurred_at: Option<DateTime<Utc>>,
    /// Without its `log` key (removed by the query itself); JSON null for
    /// a NULL. When cut (pushleft-controller-diagnose(1), HUGE TEXT), a string: the first
    /// characters of its JSON text.
    pub payload: Value,
    /// The payload's length in bytes (as JSON text, without `log`); none
    /// for a NULL.
    pub payload_length: Option<i64>,
    /// Only its first `cut::TEXT_CUT_CHARS` characters were read.
    pub payload_cut: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct Job {
    pub id: Uuid,
    pub kind: JobKind,
    pub status: JobStatus,
    pub target_node_id: Option<Uuid>,
    pub attempt: i32,
    pub max_attempts: i32,
    pub available_at: DateTime<Utc>,
    pub lease_expires_at: Option<DateTime<Utc>>,
    /// At most `cut::TEXT_CUT_CHARS` characters of it (README, "Huge
    /// text").
    pub last_error: Option<String>,
    /// Its length in bytes in the database; none without one.
    pub last_error_length: Option<i64>,
    /// Only its first `cut::TEXT_CUT_CHARS` characters were read.
    pub last_error_cut: bool,
    pub has_lease_token: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl Job {
    /// Leased, and the lease ran out at or before `now` (nobody reclaimed it).
    pub fn lease_expired(&self, now: DateTime<Utc>) -> bool {
        self.status == JobStatus::Leased && self.lease_expires_at.is_some_and(|at| at <= now)
    }

    /// Every attempt is used up (and it did not succeed).
    pub fn out_of_attempts(&self) -> bool {
        self.attempt >= self.max_attempts && self.status != JobStatus::Succeeded
    }

    /// A teardown job that is still to run.
    pub fn is_open_teardown(&self) -> bool {
        self.kind == JobKind::Teardown && self.status.is_open()
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct JobResult {
    pub id: Uuid,
    pub job_id: Uuid,
    pub reported_at: DateTime<Utc>,
    pub kind: JobKind,
    pub node_id: Uuid,
    pub attempt: i32,
    pub outcome: ResultOutcome,
    /// Without its `log` key. When cut (pushleft-controller-diagnose(1), HUGE TEXT), a string:
    /// the first characters of its JSON text.
    pub output: Value,
    /// The output's length in bytes (as JSON text, without `log`); none
    /// for a NULL.
    pub output_length: Option<i64>,
    /// Only its first `cut::TEXT_CUT_CHARS` characters were read.
    pub output_cut: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct SourceSnapshot {
    pub id: Uuid,
    pub verified_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ReleaseArtifact {
    pub id: Uuid,
    pub image: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Instance {
    pub id: Uuid,
    pub role_name: String,
    pub status: InstanceStatus,
    pub active_node_id: Option<Uuid>,
    pub generation: i32,
}

#[derive(Debug, Clone, Serialize)]
pub struct Allocation {
    pub id: Uuid,
    pub node_id: Uuid,
    pub resource_kind: String,
    pub resource_id: Uuid,
    pub status: AllocationStatus,
    pub created_at: DateTime<Utc>,
    pub released_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Route {
    pub hostname: String,
    pub route_generation: i32,
    pub status: RouteStatus,
}

#[derive(Debug, Clone, Serialize)]
pub struct NetworkAttachment {
    pub id: Uuid,
    pub segment: String,
    pub node_id: Option<Uuid>,
    pub created_at: DateTime<Utc>,
}

/// A row of `fleet_nodes`, with its heartbeat age at the read's instant.
#[derive(Debug, Clone, Serialize)]
pub struct Node {
    pub id: Uuid,
    pub name: String,
    /// None: NULL in the database (the read's warnings say so).
    pub pool: Option<String>,
    pub status: NodeStatus,
    pub schedulable: bool,
    pub slots: i32,
    pub last_seen_at: Option<DateTime<Utc>>,
    /// Whole seconds since `last_seen_at`; none when never seen.
    pub heartbeat_age_seconds: Option<i64>,
}

/// Everything the runbook's Diagnosis reads about one deployment.
#[derive(Debug, Clone, Serialize)]
pub struct DeploymentSnapshot {
    pub snapshot: ReadInfo,
    pub deployment: Deployment,
    /// Oldest first. All of them, or the last N when asked for fewer.
    pub events: Vec<Event>,
    pub events_total: i64,
    pub jobs: Vec<Job>,
    pub results: Vec<JobResult>,
    pub source_snapshots: Vec<SourceSnapshot>,
    pub release_artifacts: Vec<ReleaseArtifact>,
    pub instances: Vec<Instance>,
    pub allocations: Vec<Allocation>,
    pub routes: Vec<Route>,
    pub network_attachments: Vec<NetworkAttachment>,
    pub nodes: Vec<Node>,
    /// Every NULL the read found where the reference schema says NOT NULL
    /// (the field then holds a placeholder, or none where it is optional
    /// in the model); `decide` makes findings of them and refuses to
    /// decide on them.
    pub nulls: Vec<super::Warning>,
}

impl DeploymentSnapshot {
    pub fn node(&self, id: Uuid) -> Option<&Node> {
        self.nodes.iter().find(|n| n.id == id)
    }

    /// A node's name, or its id when the row is missing.
    pub fn node_name(&self, id: Uuid) -> String {
        self.node(id)
            .map(|n| n.name.clone())
            .unwrap_or_else(|| id.to_string())
    }

    /// A node's pool, or `unknown` when it is NULL.
    pub fn pool_name(node: &Node) -> &str {
        node.pool.as_deref().unwrap_or("unknown")
    }

    pub fn last_event(&self) -> Option<&Event> {
        self.events.last()
    }

    /// Allocations that still hold capacity (reserved or active).
    pub fn held_allocations(&self) -> impl Iterator<Item = &Allocation> {
        self.allocations.iter().filter(|a| a.status.is_held())
    }

    /// Instances not yet removed.
    pub fn live_instances(&self) -> impl Iterator<Item = &Instance> {
        self.instances
            .iter()
            .filter(|i| i.status != InstanceStatus::Removed)
    }

    /// The segments of the deployment's network attachments, for messages.
    pub fn attachment_segments(&self) -> String {
        self.network_attachments
            .iter()
            .map(|a| a.segment.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}
