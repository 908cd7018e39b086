//! What one run of fail-safely did (the `--output json` document; README,
//! "Output and exit codes"): the path, the state change, the event written
//! and the assessment it was decided on.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;
use uuid::Uuid;

use super::assessment::{Evidence, Finding};
use super::{BreakGlassPath, DeploymentStatus};

/// The event written (or that would be written, in a dry run).
#[derive(Debug, Clone, Serialize)]
pub struct EventOut {
    pub id: Uuid,
    pub sequence: i64,
    pub kind: String,
    pub payload: Value,
    pub occurred_at: DateTime<Utc>,
}

/// The result of a run (the `--output json` document).
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub deployment_id: Uuid,
    /// Where it was written (a single run; a batch names it once).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<super::target::WriteTarget>,
    pub path: BreakGlassPath,
    /// The state change is in effect (by this run, or by the earlier run a
    /// replay found). False for a dry run.
    pub applied: bool,
    /// An earlier run with the same idempotency key did it; this run wrote
    /// nothing.
    pub replayed: bool,
    pub dry_run: bool,
    pub previous_status: DeploymentStatus,
    pub new_status: DeploymentStatus,
    pub event: EventOut,
    /// Stuck by the alerts' definitions, when the decision was made (for a
    /// replay: as the earlier run recorded it).
    pub stuck: bool,
    /// See `decide::Stuck`.
    pub stuck_for_seconds: Option<i64>,
    pub idempotency_key: String,
    /// Of the state read under the locks (not for a replay).
    pub fingerprint: Option<String>,
    pub evidence: Vec<Evidence>,
    pub findings: Vec<Finding>,
    pub next_command: super::next::NextCommand,
    /// After a dry run: the same command without `--dry-run`, for the
    /// screen (it asks before it writes); `next_command` is the unattended
    /// one, held to what the dry run checked.
    #[serde(skip)]
    pub rerun: Option<super::next::NextCommand>,
    /// Whether the primary's standbys had replayed the write, read right
    /// after COMMIT; absent for a dry run, a replay, and where it could
    /// not be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replication: Option<super::replication::Replication>,
}

/// A session holding row locks on the tables fail-safely locks.
#[derive(Debug, Clone)]
pub struct LockHolder {
    pub pid: i32,
    pub user: Option<String>,
    pub application: Option<String>,
    pub client_addr: Option<String>,
    pub state: Option<String>,
    /// Whole seconds its transaction has been open.
    pub transaction_age_seconds: Option<i64>,
}
