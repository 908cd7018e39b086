//! The break-glass decision (SPEC.md, "The break-glass decision"), as pure
//! functions over typed rows: no database, unit-tested on their own.
//! `diagnose`, `fail-safely` (under its row locks), `stuck` and `wait` all
//! decide with these functions and nothing else.

use serde::Serialize;

/// The statuses of a deployment. Anything else read from a live database
/// is `Unknown`, and the decision fails closed on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DeploymentStatus {
    Queued,
    Building,
    Deploying,
    Running,
    Failed,
    TeardownQueued,
    Destroyed,
    Unknown,
}

impl DeploymentStatus {
    pub fn parse(text: &str) -> DeploymentStatus {
        match text {
            "queued" => DeploymentStatus::Queued,
            "building" => DeploymentStatus::Building,
            "deploying" => DeploymentStatus::Deploying,
            "running" => DeploymentStatus::Running,
            "failed" => DeploymentStatus::Failed,
            "teardown_queued" => DeploymentStatus::TeardownQueued,
            "destroyed" => DeploymentStatus::Destroyed,
            _ => DeploymentStatus::Unknown,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            DeploymentStatus::Queued => "queued",
            DeploymentStatus::Building => "building",
            DeploymentStatus::Deploying => "deploying",
            DeploymentStatus::Running => "running",
            DeploymentStatus::Failed => "failed",
            DeploymentStatus::TeardownQueued => "teardown_queued",
            DeploymentStatus::Destroyed => "destroyed",
            DeploymentStatus::Unknown => "unknown",
        }
    }

    /// `queued`, `building`, `deploying`: the statuses a deployment can be
    /// stuck in, and the only ones `operator_failed` applies to.
    pub fn in_flight(self) -> bool {
        matches!(
            self,
            DeploymentStatus::Queued | DeploymentStatus::Building | DeploymentStatus::Deploying
        )
    }
}

/// Which break-glass path applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Path {
    /// status -> failed, event `operator_failed`.
    OperatorFailed,
    /// status -> teardown_queued, event `teardown_requested`.
    TeardownRequested,
    /// Nothing to do: refuse and write nothing.
    None,
}

impl Path {
    pub fn as_str(self) -> &'static str {
        match self {
            Path::OperatorFailed => "operator_failed",
            Path::TeardownRequested => "teardown_requested",
            Path::None => "none",
        }
    }

    /// The status the path sets.
    pub fn new_status(self) -> Option<DeploymentStatus> {
        match self {
            Path::OperatorFailed => Some(DeploymentStatus::Failed),
            Path::TeardownRequested => Some(DeploymentStatus::TeardownQueued),
            Path::None => None,
        }
    }
}

/// SPEC's decision table, exactly:
///
/// | status                           | dispatched | path               |
/// |----------------------------------|------------|--------------------|
/// | queued, building, deploying      | no         | operator_failed    |
/// | anything but teardown_queued, destroyed | yes | teardown_requested |
/// | otherwise                        | -          | none               |
///
/// An unknown status (schema drift in a live database) decides `none`.
pub fn decide_path(status: DeploymentStatus, dispatched: bool) -> Path {
    use DeploymentStatus::*;
    match (status, dispatched) {
        (Unknown, _) => Path::None,
        (Queued | Building | Deploying, false) => Path::OperatorFailed,
        (TeardownQueued | Destroyed, true) => Path::None,
        (_, true) => Path::TeardownRequested,
        (_, false) => Path::None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use DeploymentStatus::*;

    #[test]
    fn the_decision_table() {
        for status in [Queued, Building, Deploying] {
            assert_eq!(decide_path(status, false), Path::OperatorFailed);
            assert_eq!(decide_path(status, true), Path::TeardownRequested);
        }
        for status in [Running, Failed] {
            assert_eq!(decide_path(status, false), Path::None);
            assert_eq!(decide_path(status, true), Path::TeardownRequested);
        }
        for status in [TeardownQueued, Destroyed, Unknown] {
            assert_eq!(decide_path(status, false), Path::None);
            assert_eq!(decide_path(status, true), Path::None);
        }
    }

    #[test]
    fn statuses_round_trip() {
        for status in [
            Queued,
            Building,
            Deploying,
            Running,
            Failed,
            TeardownQueued,
            Destroyed,
        ] {
            assert_eq!(DeploymentStatus::parse(status.as_str()), status);
        }
        assert_eq!(DeploymentStatus::parse("stuck"), Unknown);
    }
}
