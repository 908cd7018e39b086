//! The decision table (README, "The break-glass decision"): which
//! break-glass path a deployment gets.

use crate::model::{BreakGlassPath, DeploymentStatus};

/// The README's decision table ("The break-glass decision"), exactly:
///
/// | status                           | dispatched | path               |
/// |----------------------------------|------------|--------------------|
/// | queued, building, deploying      | no         | operator_failed    |
/// | anything but teardown_queued, destroyed | yes | teardown_requested |
/// | otherwise                        | -          | none               |
///
/// An unknown status (schema drift in a live database) decides `none`.
pub fn decide_path(status: &DeploymentStatus, dispatched: bool) -> BreakGlassPath {
    use DeploymentStatus::*;
    match (status, dispatched) {
        (Unknown(_), _) => BreakGlassPath::None,
        (Queued | Building | Deploying, false) => BreakGlassPath::OperatorFailed,
        (TeardownQueued | Destroyed, true) => BreakGlassPath::None,
        (_, true) => BreakGlassPath::TeardownRequested,
        (_, false) => BreakGlassPath::None,
    }
}

#[cfg(test)]
#[path = "path_tests.rs"]
mod tests;
