//! A plan (README, "Two-person break-glass"): what `fail-safely
//! --plan-out` decided under the locks and wrote nothing for, to be
//! reviewed in the ticket and applied by someone else with `--apply`. It
//! names who asked, when it expires, the target it was made on (a plan is
//! applied only there), and for each deployment the path, the fingerprint
//! and the event it would write. No password, no URL, no `log` key.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use uuid::Uuid;

use super::path::BreakGlassPath;
use super::target::WriteTarget;

/// The plan file's format version (its `schema_version`).
pub const PLAN_VERSION: u32 = 1;

/// Who asked for a change, or approved it: the operating-system user and
/// the database's `session_user` (what the two-person rule compares), the
/// host and the tool's version. A discipline the audit makes visible, not
/// authentication: each side says who it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Person {
    pub os_user: String,
    pub session_user: String,
    pub host: String,
    pub tool: String,
}

impl Person {
    /// The same person by the two-person rule: the same OS user and the
    /// same session_user. A different one of either is someone else.
    pub fn same_as(&self, other: &Person) -> bool {
        self.os_user == other.os_user && self.session_user == other.session_user
    }
}

/// The event a planned deployment would get (as the dry run built it).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlannedEvent {
    pub kind: String,
    pub sequence: i64,
    /// The runbook's keys and the audit, as the dry run would have written
    /// them (the approval is added when it is applied).
    pub payload: Value,
}

/// One deployment of a plan: what was decided under its locks.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlannedDeployment {
    pub deployment_id: Uuid,
    pub path: BreakGlassPath,
    /// Of the state read under the locks: `--apply` refuses (5) when it
    /// changed.
    pub fingerprint: String,
    pub stuck: bool,
    pub stuck_for_seconds: Option<i64>,
    pub previous_status: String,
    pub new_status: String,
    pub idempotency_key: String,
    pub event: PlannedEvent,
    /// What the approver is to know before saying yes: the dry run's
    /// findings of [`PLAN_WARNINGS`] (a teardown that waits for a dead
    /// node, reservations the reaper will not release). Absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<PlanWarning>,
}

/// The findings a plan carries for its approver (README, "Two-person
/// break-glass").
pub const PLAN_WARNINGS: &[&str] = &["teardown_waits_for_node", "reservations_blocked"];

/// One finding of a planned deployment's dry run, as it said it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanWarning {
    pub code: String,
    pub message: String,
}

/// A deployment of the batch that is not in the plan, and why.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeftOut {
    /// As given in the batch.
    pub deployment: String,
    /// `replayed` (already done: nothing to write) or `refused`.
    pub result: String,
    pub why: String,
}

/// The plan document (`--plan-out FILE`, and `-o json` on stdout).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Plan {
    /// Derived from the plan's content (`plan-` and 16 hex digits).
    pub plan_id: String,
    pub created_at: DateTime<Utc>,
    /// `created_at` + `--plan-ttl`, by the server's clock: `--apply`
    /// refuses (4) from then on.
    pub expires_at: DateTime<Utc>,
    pub reason: String,
    pub requester: Person,
    /// Where it was made, and the only place it is applied.
    pub target: WriteTarget,
    pub even_if_not_stuck: bool,
    /// `--role` of the planning run: the apply runs as it too.
    pub role: Option<String>,
    pub deployments: Vec<PlannedDeployment>,
    pub left_out: Vec<LeftOut>,
    /// What applies it (for the ticket).
    pub apply_command: String,
    /// On a database that records plans: what the server stamped when it
    /// recorded this plan (`--apply` applies the server's copy only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<super::approvals::PlanRecord>,
}

/// The file as written: the plan with its format version first. It is
/// read by `ops::fail_safely::plan_file`, which takes
/// `schema_version` out first and then the plan, every field known
/// (README, "When things go wrong": the plan file's limits).
#[derive(Debug, Serialize)]
pub struct PlanFile {
    pub schema_version: u32,
    #[serde(flatten)]
    pub plan: Plan,
}

/// The approval an applied plan carries into each event's audit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Approval {
    /// None: no plan (`--break-glass-alone` without `--apply`).
    pub plan_id: Option<String>,
    pub requester: Person,
    pub approver: Person,
    /// The requester approved it: the same OS user and session_user.
    pub self_approved: bool,
    /// `--break-glass-alone`: applied although the two-person rule
    /// (`PUSHLEFT_REQUIRE_APPROVAL`) asks for someone else.
    pub break_glass_alone: bool,
}
