//! `history`: what operators did, for the review after an incident.

use chrono::{DateTime, Utc};
use serde::Serialize;
use uuid::Uuid;

use super::path::BreakGlassPath;
use super::status::DeploymentStatus;

/// Who did it, from where, with what: the audit fail-safely writes into
/// the event. Events typed by hand in psql have none of it.
#[derive(Debug, Clone, Serialize)]
pub struct ActionAudit {
    pub os_user: Option<String>,
    pub session_user: Option<String>,
    pub current_user: Option<String>,
    pub host: Option<String>,
    pub tool: Option<String>,
    pub previous_status: Option<DeploymentStatus>,
    /// An applied plan's requester and approver, or a write with
    /// `--break-glass-alone`; null for a write without a plan.
    pub approval: Option<ActionApproval>,
}

/// One side of an approval, as the audit names it.
#[derive(Debug, Clone, Serialize)]
pub struct ActionPerson {
    pub os_user: Option<String>,
    pub session_user: Option<String>,
}

/// Who asked and who approved (README, "Two-person break-glass").
#[derive(Debug, Clone, Serialize)]
pub struct ActionApproval {
    /// Null for `--break-glass-alone` without a plan.
    pub plan_id: Option<String>,
    pub requester: ActionPerson,
    pub approver: ActionPerson,
    /// The requester approved it: nobody else looked.
    pub self_approved: bool,
    pub break_glass_alone: bool,
}

/// One break-glass action: an `operator_failed` or `teardown_requested`
/// event.
#[derive(Debug, Clone, Serialize)]
pub struct OperatorAction {
    /// None: NULL in the database (the warnings say so).
    pub occurred_at: Option<DateTime<Utc>>,
    pub deployment_id: Uuid,
    /// The region (connection service) it was read from, when several
    /// were read at once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    /// None: NULL in the database (the warnings say so).
    pub org_id: Option<Uuid>,
    pub sequence: i64,
    pub event_id: Uuid,
    pub path: BreakGlassPath,
    /// At most `cut::TEXT_CUT_CHARS` characters of it (README, "Huge
    /// text").
    pub reason: Option<String>,
    /// Its length in bytes in the database; none without one.
    pub reason_length: Option<i64>,
    /// Only its first `cut::TEXT_CUT_CHARS` characters were read.
    pub reason_cut: bool,
    pub idempotency_key: Option<String>,
    pub audit: ActionAudit,
    /// The deployment's status at the time of the read.
    pub status_now: DeploymentStatus,
}

/// The instant of the read and whether the limit cut the list.
#[derive(Debug, Clone, Serialize)]
pub struct HistoryReadInfo {
    pub at: DateTime<Utc>,
    pub limit: usize,
    /// More actions match than `limit`: the oldest were left out.
    pub truncated: bool,
}

/// The `history --output json` document.
#[derive(Debug, Clone, Serialize)]
pub struct History {
    /// Newest first.
    pub actions: Vec<OperatorAction>,
    pub snapshot: HistoryReadInfo,
    /// With several regions: how reading each went (the rows say which
    /// region they come from).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub regions: Option<Vec<super::region::RegionStatus>>,
    /// Values the read found that the model cannot take as they are (a
    /// NULL where the reference schema says NOT NULL, an unknown status).
    pub warnings: Vec<super::Warning>,
}
