//! Plans recorded by the server (README, "Two-person break-glass"): what
//! a database that has `approvals install` says of itself (its policy),
//! of a plan (the server's copy and what the server stamped on it), and
//! what `approvals install` did.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The policy a database keeps (`pushleft_approvals.policy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Policy {
    /// A write needs a plan applied by another `session_user`.
    pub require_approval: bool,
    /// `--break-glass-alone` may override that (and is always marked).
    pub break_glass_alone_allowed: bool,
    /// `--enforce` was asked: the trigger on the events table.
    pub enforce: bool,
}

impl Policy {
    /// The policy in words (`approvals install`, doctor).
    pub fn words(self) -> String {
        let who = if self.require_approval {
            "every write needs a plan applied by another session_user"
        } else {
            "a plan is optional"
        };
        let alone = if self.break_glass_alone_allowed {
            "--break-glass-alone allowed (and marked)"
        } else {
            "--break-glass-alone refused"
        };
        format!("{who}; {alone}")
    }
}

/// Whether a database records plans, and how.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Approvals {
    /// The schema and its three tables are there.
    pub installed: bool,
    /// The enforcing trigger is on the events table (and enabled).
    pub enforcing: bool,
    /// The schema's owner: the only role that may change a record.
    pub owner: Option<String>,
    /// None when not installed (or the policy row is missing).
    pub policy: Option<Policy>,
}

impl Approvals {
    /// The database asks for a second person.
    pub fn requires_approval(&self) -> bool {
        self.policy.is_some_and(|p| p.require_approval)
    }

    /// `--break-glass-alone` is allowed here (always, without a policy).
    pub fn allows_alone(&self) -> bool {
        self.policy.is_none_or(|p| p.break_glass_alone_allowed)
    }
}

/// The server's own words about a plan it recorded (stamped by its
/// trigger, not sent by the client).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanRecord {
    /// Always `pushleft_approvals`.
    pub schema: String,
    /// SHA-256 of the content as the server stores it.
    pub content_sha256: String,
    /// `session_user` of the session that recorded it.
    pub requested_by: String,
    /// `inet_client_addr()` of that session (None over a socket).
    pub requested_from: Option<String>,
    pub database: String,
    pub database_oid: u32,
    pub system_identifier: String,
}

/// The server's copy of a plan (`--apply`).
#[derive(Debug, Clone)]
pub struct StoredPlan {
    pub plan_id: String,
    pub content: Value,
    pub record: PlanRecord,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    /// Deployments already applied from it.
    pub applied: i64,
    /// The server's now().
    pub now: DateTime<Utc>,
}

/// What `approvals install` found and left.
#[derive(Debug, Clone, Serialize)]
pub struct InstallReport {
    pub schema: String,
    pub owner: String,
    /// Created now (false: it was there and was completed).
    pub created: bool,
    pub policy_before: Option<Policy>,
    pub policy: Policy,
    pub enforcing_before: bool,
    pub enforcing: bool,
    /// Where the enforcing trigger is (the control plane's events table).
    pub events_table: String,
}
