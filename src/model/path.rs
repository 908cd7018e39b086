//! The two break-glass paths of the runbook (and "none"), and what each one
//! writes. Which one applies is decided in `decide`; this is the vocabulary.

use serde::{Deserialize, Serialize};

use super::status::DeploymentStatus;

/// Which break-glass path applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BreakGlassPath {
    /// status -> failed, event `operator_failed`.
    OperatorFailed,
    /// status -> teardown_queued, event `teardown_requested`.
    TeardownRequested,
    /// Nothing to do: refuse and write nothing.
    None,
}

impl BreakGlassPath {
    pub fn as_str(self) -> &'static str {
        match self {
            BreakGlassPath::OperatorFailed => "operator_failed",
            BreakGlassPath::TeardownRequested => "teardown_requested",
            BreakGlassPath::None => "none",
        }
    }

    /// The status the path sets.
    pub fn new_status(self) -> Option<DeploymentStatus> {
        match self {
            BreakGlassPath::OperatorFailed => Some(DeploymentStatus::Failed),
            BreakGlassPath::TeardownRequested => Some(DeploymentStatus::TeardownQueued),
            BreakGlassPath::None => None,
        }
    }

    /// The event kind the path appends (the same text as the path).
    pub fn event_kind(self) -> Option<&'static str> {
        match self {
            BreakGlassPath::None => None,
            path => Some(path.as_str()),
        }
    }

    /// The path an event of this kind records (`None` for any other event).
    pub fn of_event_kind(kind: &str) -> BreakGlassPath {
        match kind {
            "operator_failed" => BreakGlassPath::OperatorFailed,
            "teardown_requested" => BreakGlassPath::TeardownRequested,
            _ => BreakGlassPath::None,
        }
    }
}
