//! `stuck`: the rows of the two alerts, `deployment_stuck` and
//! `job_lease_orphaned`, each with the break-glass path that applies.

use chrono::{DateTime, Utc};
use serde::Serialize;
use uuid::Uuid;

use super::path::BreakGlassPath;
use super::status::{DeploymentStatus, JobKind, NodeStatus};

/// Who can fix a row of the scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Responsible {
    /// The operator, with this tool: counts for `stuck --exit-code`.
    Operator,
    /// The control plane's lease reclaimer (nothing to do on the
    /// deployment): reported, but does not count for `--exit-code`.
    LeaseReclaimer,
}

#[derive(Debug, Clone, Serialize)]
pub struct StuckDeployment {
    pub deployment_id: Uuid,
    /// The region (connection service) it was read from, when several
    /// were read at once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    /// None: NULL in the database (the report's warnings say so).
    pub org_id: Option<Uuid>,
    pub status: DeploymentStatus,
    pub created_at: DateTime<Utc>,
    pub stuck_for_seconds: i64,
    pub last_event_at: Option<DateTime<Utc>>,
    pub last_event_kind: Option<String>,
    /// Where it waits: targets of its unfinished jobs, nodes of its instances.
    pub nodes: Vec<String>,
    /// The pools of those nodes.
    pub pools: Vec<String>,
    pub dispatched: bool,
    pub path: BreakGlassPath,
    pub responsible: Responsible,
    /// The command to run; none when it is not the operator's to fix.
    pub next_command: Option<super::next::NextCommand>,
    /// The next step in words.
    pub next_step: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct OrphanedLease {
    pub job_id: Uuid,
    /// The region (connection service) it was read from, when several
    /// were read at once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    pub deployment_id: Uuid,
    /// None: NULL in the database (the report's warnings say so).
    pub org_id: Option<Uuid>,
    pub deployment_status: DeploymentStatus,
    pub kind: JobKind,
    pub attempt: i32,
    pub max_attempts: i32,
    pub node_id: Option<Uuid>,
    pub node_name: Option<String>,
    pub node_status: Option<NodeStatus>,
    pub node_pool: Option<String>,
    pub node_heartbeat_age_seconds: Option<i64>,
    pub lease_expires_at: DateTime<Utc>,
    pub expired_for_seconds: i64,
    pub dispatched: bool,
    pub path: BreakGlassPath,
    pub responsible: Responsible,
    /// The command to run; none when it is not the operator's to fix.
    pub next_command: Option<super::next::NextCommand>,
    /// The next step in words.
    pub next_step: String,
}

/// The instant of the scan and the thresholds it used.
#[derive(Debug, Clone, Serialize)]
pub struct StuckScanInfo {
    pub at: DateTime<Utc>,
    /// Read from a standby (then fail-safely must run on the primary).
    pub in_recovery: bool,
    /// Whole seconds the standby's replay is behind.
    pub replay_lag_seconds: Option<i64>,
    /// A standby's replay is paused.
    pub replay_paused: bool,
    pub stuck_after_seconds: u64,
    pub grace_seconds: u64,
    /// Tables where row-level security applies to the role that read:
    /// rows may have been hidden from the scan.
    pub row_security: Vec<String>,
    /// The same tables, each with its owner and policies.
    pub row_security_policies: Vec<super::RowSecurity>,
    /// The role that read (`current_user`); in the JSON only where it
    /// matters, `cannot_vouch.role` (a document is the same for every
    /// role that sees the same rows).
    #[serde(skip)]
    pub role: String,
}

/// Stuck deployments that share a node, pool, status, path or org: one
/// line of `stuck --group-by` in a big incident.
#[derive(Debug, Clone, Serialize)]
pub struct StuckGroup {
    /// The node's or pool's name, the status, the path or the org id;
    /// `(none)` for deployments that wait on no node.
    pub key: String,
    pub count: usize,
    pub oldest_stuck_for_seconds: i64,
    pub operator_failed: usize,
    pub teardown_requested: usize,
    /// In the group, longest stuck first.
    pub deployment_ids: Vec<Uuid>,
    /// Lists the group's deployments.
    pub next_command: super::next::NextCommand,
}

/// How many rows `--limit` left out of each list.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct LeftOut {
    pub deployments_stuck: usize,
    pub leases_orphaned: usize,
}

/// The `stuck --output json` document.
#[derive(Debug, Clone, Serialize)]
pub struct StuckReport {
    pub deployments_stuck: Vec<StuckDeployment>,
    pub leases_orphaned: Vec<OrphanedLease>,
    pub snapshot: StuckScanInfo,
    /// With several regions: how reading each went (the rows say which
    /// region they come from).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub regions: Option<Vec<super::region::RegionStatus>>,
    /// With `--group-by`: the stuck deployments by node, pool, status,
    /// path or org, largest group first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub groups: Option<Vec<StuckGroup>>,
    /// With `--limit`: how many rows were left out (JSON is otherwise
    /// complete).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left_out: Option<LeftOut>,
    /// Values the scan found that the model cannot take as they are (a
    /// NULL where the reference schema says NOT NULL, an unknown status):
    /// the rows are shown anyway, and each odd value is named here.
    pub warnings: Vec<super::Warning>,
    /// In-flight deployments whose last event (or creation) and nodes
    /// whose heartbeat are ahead of the server's clock: none of them can
    /// show as stuck or stale until it passes them. Not filtered.
    pub clock_skew: Vec<super::clock::ClockSkew>,
    /// Why the scan cannot vouch for any row (row-level security applies
    /// to the role that read); none when it can.
    pub cannot_vouch: Option<super::blind::CannotVouch>,
    /// In flight and quiet to the role that read, but it cannot tell
    /// whether they are stuck (see `cannot_vouch`): no path, no command.
    pub cannot_tell: Vec<StuckDeployment>,
    /// The `stuck` command, with its filters, that lists these rows: the
    /// head of the one batch command the screen suggests for many rows.
    /// Not in the JSON (each row there has its own `next_command`).
    #[serde(skip)]
    pub listing: Option<super::next::NextCommand>,
}

impl StuckReport {
    pub fn found_anything(&self) -> bool {
        !self.deployments_stuck.is_empty()
            || !self.leases_orphaned.is_empty()
            || !self.cannot_tell.is_empty()
    }

    /// What `stuck --exit-code` exits 10 for: a row the operator can act
    /// on (every stuck deployment, and the orphaned leases of deployments
    /// a break-glass path applies to). Leases only the reclaimer can fix
    /// are reported but do not count.
    pub fn actionable(&self) -> bool {
        // Blind to some rows: the operator must read again as a role that
        // sees them (an alert never goes quiet because rows are hidden).
        !self.cannot_tell.is_empty()
            || self
                .deployments_stuck
                .iter()
                .any(|d| d.responsible == Responsible::Operator)
            || self
                .leases_orphaned
                .iter()
                .any(|l| l.responsible == Responsible::Operator)
    }
}
