//! What an assessment of one deployment says (README, "The break-glass
//! decision"): the verdict with its path, its dispatch evidence and its
//! findings. `decide` computes them; every report carries them.

use chrono::{DateTime, Utc};
use serde::Serialize;
use uuid::Uuid;

use super::BreakGlassPath;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Problem,
    Warning,
    Info,
}

/// One thing an operator should know. `code` is stable (scripts match it).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LastEvent {
    pub sequence: i64,
    pub kind: String,
    /// None: NULL in the database.
    pub occurred_at: Option<DateTime<Utc>>,
    pub age_seconds: Option<i64>,
}

impl LastEvent {
    /// `event` as the verdict names it, its age as of `now`.
    pub fn of(event: &super::Event, now: DateTime<Utc>) -> LastEvent {
        LastEvent {
            sequence: event.sequence,
            kind: event.kind.clone(),
            occurred_at: event.occurred_at,
            age_seconds: event
                .occurred_at
                .map(|at| super::clock::age_seconds(now, at)),
        }
    }
}

/// What makes a deployment "dispatched": one job or instance and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Evidence {
    /// "job" or "instance".
    pub kind: &'static str,
    pub id: Uuid,
    /// e.g. "build job targeted at build-03; leased (expired 38m ago)".
    pub detail: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Verdict {
    pub path: BreakGlassPath,
    pub dispatched: bool,
    pub evidence: Vec<Evidence>,
    pub findings: Vec<Finding>,
    /// One line: what is wrong.
    pub headline: String,
    /// Why this path.
    pub reason: String,
    pub last_event: Option<LastEvent>,
    /// Stuck by the alerts' definitions (see `decide::stuck`): what
    /// fail-safely requires, unless told `--even-if-not-stuck`.
    pub stuck: bool,
    /// In flight: seconds since the last event (or creation).
    pub stuck_for_seconds: Option<i64>,
    /// The next command to run, if any.
    pub next_command: Option<super::next::NextCommand>,
    /// False when a row the decision rests on holds a value this tool does
    /// not know (or a NULL where the reference schema says NOT NULL), or
    /// when rows may be hidden from the read (`cannot_vouch`): the
    /// path is then `none`, the reason names the values, and fail-safely
    /// refuses.
    pub decidable: bool,
    /// Why no path is vouched for, when rows may be hidden from the read
    /// (row-level security applies to the role): then `decidable` is
    /// false, the path `none`, `stuck` false, and there is no next command.
    pub cannot_vouch: Option<super::blind::CannotVouch>,
    /// A teardown blocked on dead nodes: their names (empty otherwise).
    /// The headline says so first; only their return completes it.
    pub blocked_on_nodes: Vec<String>,
}
