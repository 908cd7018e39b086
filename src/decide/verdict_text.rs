//! The verdict in words (a headline and the reason for the path) and the
//! one rule for what an operator runs next.

use uuid::Uuid;

use crate::duration::human;
use crate::model::clock::ahead_seconds;
use crate::model::{BreakGlassPath, DeploymentStatus, NextCommand};

use super::assessment::Assessment;
use super::evidence::Evidence;

/// Who suggests the next step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asker {
    /// A verdict after a full diagnosis: it knows whether acting is right.
    Verdict,
    /// A row of a fleet-wide scan: it has not looked closely, so where no
    /// path applies it points at `diagnose` for the whole picture.
    Scan,
}

/// The next command for a deployment, the same rule everywhere:
/// a path applies → `fail-safely` (except after a full diagnosis of a
/// running deployment, which is not stuck); a teardown already queued →
/// `wait`; otherwise a scan points at `diagnose` and a verdict says nothing.
pub fn next_command(
    path: BreakGlassPath,
    status: &DeploymentStatus,
    id: Uuid,
    asker: Asker,
) -> Option<NextCommand> {
    match (path, asker) {
        (BreakGlassPath::TeardownRequested, Asker::Verdict)
            if *status == DeploymentStatus::Running =>
        {
            None
        }
        (BreakGlassPath::OperatorFailed | BreakGlassPath::TeardownRequested, _) => {
            Some(NextCommand::fail_safely(id))
        }
        (BreakGlassPath::None, Asker::Scan) => Some(NextCommand::diagnose(id)),
        (BreakGlassPath::None, Asker::Verdict) if *status == DeploymentStatus::TeardownQueued => {
            Some(NextCommand::wait(id))
        }
        (BreakGlassPath::None, Asker::Verdict) => None,
    }
}

fn dispatched_text(evidence: &[Evidence]) -> String {
    format!(
        "dispatched: {}",
        evidence
            .iter()
            .map(|e| e.detail.as_str())
            .collect::<Vec<_>>()
            .join("; ")
    )
}

/// The headline (what is wrong, one line) and the reason for the path.
pub fn explain(a: &Assessment, evidence: &[Evidence]) -> (String, String) {
    let status = &a.s.deployment.status;
    // Quiet since the last event, which is not the deployment's age: say
    // which it is.
    let now = a.s.snapshot.at;
    let last = a.s.last_event();
    let ahead = last
        .and_then(|e| e.occurred_at)
        .and_then(|at| ahead_seconds(now, at));
    let state = if let Some(ahead) = ahead {
        format!(
            "{status}, its last event {} in the future of the server's clock (clock skew)",
            human(ahead)
        )
    } else if last.is_some() {
        format!("{status}, no new event for {}", human(a.quiet_for))
    } else {
        format!("{status} for {} since it was created", human(a.quiet_for))
    };
    match a.path {
        BreakGlassPath::OperatorFailed => (
            format!("operator_failed: {state}, nothing was ever dispatched — mark it failed"),
            "no job has a target node, a lease or an agent result, and no instance is active on a node"
                .to_string(),
        ),
        BreakGlassPath::TeardownRequested if *status == DeploymentStatus::Running => (
            "not stuck: running; if it must go anyway, the break-glass path is teardown_requested (the same state change as `pl down`)"
                .to_string(),
            dispatched_text(evidence),
        ),
        BreakGlassPath::TeardownRequested => (
            format!(
                "teardown_requested: {}, and something was dispatched — request a teardown",
                if status.in_flight() { state } else { status.to_string() }
            ),
            dispatched_text(evidence),
        ),
        BreakGlassPath::None => {
            let why = nothing_to_do(status, a.dispatched, a.s.deployment.id);
            (format!("nothing to do: {why}"), why)
        }
    }
}

fn nothing_to_do(status: &DeploymentStatus, dispatched: bool, id: uuid::Uuid) -> String {
    match status {
        DeploymentStatus::Failed => "it is already failed".to_string(),
        DeploymentStatus::TeardownQueued => format!(
            "its teardown is already queued; follow it with `{}`",
            crate::model::NextCommand::wait(id)
        ),
        DeploymentStatus::Destroyed => "it is already destroyed".to_string(),
        DeploymentStatus::Unknown(text) => {
            format!("its status `{text}` is unknown to this tool")
        }
        _ if !dispatched => {
            format!("it is {status} and nothing was dispatched: neither break-glass path applies")
        }
        _ => "neither break-glass path applies".to_string(),
    }
}

#[cfg(test)]
#[path = "verdict_text_tests.rs"]
mod tests;
