//! `stuck`'s rule for each row of the fleet-wide scan: the path, who can
//! act on it, and the next step. An orphaned lease of a deployment no
//! break-glass path applies to (already torn down, destroyed) is not the
//! operator's to fix with this tool: expired leases are the lease
//! reclaimer's job, so such a row names the reclaimer and does not count
//! for `stuck --exit-code`.

use uuid::Uuid;

use super::path::decide_path;
use super::verdict_text::{Asker, next_command};
use crate::model::stuck::Responsible;
use crate::model::{BreakGlassPath, DeploymentStatus, NextCommand};

/// What a row of the scan says to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Advice {
    pub path: BreakGlassPath,
    pub responsible: Responsible,
    /// The command to run (none when it is not the operator's to fix).
    pub next_command: Option<NextCommand>,
    /// The next step in words.
    pub next_step: String,
}

/// A deployment in flight with no new event for too long: always the
/// operator's (diagnose, then the path).
pub fn for_stuck_deployment(id: Uuid, status: &DeploymentStatus, dispatched: bool) -> Advice {
    let path = decide_path(status, dispatched);
    let command =
        next_command(path, status, id, Asker::Scan).unwrap_or_else(|| NextCommand::diagnose(id));
    Advice {
        path,
        responsible: Responsible::Operator,
        next_step: "diagnose it, then apply the path (fail-safely asks before it writes)"
            .to_string(),
        next_command: Some(command),
    }
}

/// A row of the scan that rests on a value the model does not know (an
/// unknown status or kind, or a NULL, named in the report's warnings): no
/// path is decided for it; the operator diagnoses it.
pub fn for_undecided(id: Uuid) -> Advice {
    Advice {
        path: BreakGlassPath::None,
        responsible: Responsible::Operator,
        next_command: Some(NextCommand::diagnose(id)),
        next_step: "diagnose it: one of its rows holds a value pushleft-controller does not know \
                    (see the warnings), so no path is decided for it"
            .to_string(),
    }
}

/// An expired lease nobody reclaimed.
pub fn for_orphaned_lease(id: Uuid, status: &DeploymentStatus, dispatched: bool) -> Advice {
    if status.is_unknown() {
        return for_undecided(id);
    }
    let path = decide_path(status, dispatched);
    if path == BreakGlassPath::None {
        return Advice {
            path,
            responsible: Responsible::LeaseReclaimer,
            next_command: None,
            next_step: format!(
                "nothing to do on the deployment (it is {status}): the lease reclaimer should \
                 have released this lease; check that it runs and what its log says"
            ),
        };
    }
    Advice {
        path,
        responsible: Responsible::Operator,
        next_command: next_command(path, status, id, Asker::Scan),
        next_step: "diagnose the deployment, then apply the path".to_string(),
    }
}

#[cfg(test)]
#[path = "stuck_advice_tests.rs"]
mod tests;
