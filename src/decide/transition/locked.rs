//! Step 9 (pushleft-controller-fail-safely(1), STEP BY STEP): decide from what was read
//! under the row locks, with the same verdict `diagnose` shows. Refused: a
//! deployment that cannot be decided, one with nothing to do, one that is
//! not stuck (unless `--even-if-not-stuck`), and an `--expect-path` or
//! `--expect-fingerprint` that no longer holds. And step 10, before the
//! event is appended: an event trail with no room for it.

use anyhow::Result;
use uuid::Uuid;

use super::Asked;
use crate::decide::{Policy, Stuck, Verdict, assess, edges, fingerprint, stuck};
use crate::exit;
use crate::model::{BreakGlassPath, DeploymentSnapshot, DeploymentStatus, NextCommand};

/// The runbook's change the decision allows: one of the two break-glass
/// paths (never "none": that is a refusal).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// status → failed, event `operator_failed`.
    MarkFailed,
    /// status → teardown_queued, event `teardown_requested`.
    RequestTeardown,
}

impl Change {
    pub fn path(self) -> BreakGlassPath {
        match self {
            Change::MarkFailed => BreakGlassPath::OperatorFailed,
            Change::RequestTeardown => BreakGlassPath::TeardownRequested,
        }
    }

    /// The status the change sets.
    pub fn new_status(self) -> DeploymentStatus {
        match self {
            Change::MarkFailed => DeploymentStatus::Failed,
            Change::RequestTeardown => DeploymentStatus::TeardownQueued,
        }
    }
}

/// What step 9 decided, and what it was decided on (the event's audit and
/// the outcome carry it).
#[derive(Debug)]
pub struct Decision {
    pub change: Change,
    pub verdict: Verdict,
    pub stuck: Stuck,
    pub fingerprint: String,
}

/// Step 9: the verdict, whether it is stuck and the fingerprint of the
/// snapshot read under the locks, held to what the operator asked.
pub fn decide(asked: &Asked, snapshot: &DeploymentSnapshot, policy: &Policy) -> Result<Decision> {
    let verdict = assess(snapshot, policy);
    let fingerprint = fingerprint(snapshot);
    let stuck = stuck(snapshot, policy);
    let id = snapshot.deployment.id;
    let change = check_expectations(asked, id, &verdict, &stuck, &fingerprint)?;
    Ok(Decision {
        change,
        verdict,
        stuck,
        fingerprint,
    })
}

/// "Nothing to do" as a refusal that writes nothing.
fn nothing_to_do(verdict: &Verdict, id: Uuid) -> anyhow::Error {
    exit::refused(format!(
        "nothing to do for deployment {id}: {}; nothing was written",
        verdict.reason
    ))
}

/// A row the decision rests on holds a value this tool does not know (or
/// a NULL where the reference schema says NOT NULL): refuse, naming each.
fn undecidable(verdict: &Verdict, id: Uuid) -> anyhow::Error {
    exit::refused(format!(
        "fail-safely refuses to decide for deployment {id}: {}. Nothing was written. Next step: \
         find out where the value comes from (a control plane newer than this \
         pushleft-controller, a migration, a hand edit); correct the row or use a \
         pushleft-controller that knows the value, then run `{}` again",
        verdict.reason,
        NextCommand::diagnose(id)
    ))
}

/// Not stuck, and not told `--even-if-not-stuck`: say what it would do.
fn not_stuck(verdict: &Verdict, stuck: &Stuck, id: Uuid) -> anyhow::Error {
    let effect = match verdict.path {
        BreakGlassPath::TeardownRequested => {
            "tear it down (teardown_requested: every instance of it is stopped)"
        }
        _ => "mark it failed (operator_failed)",
    };
    exit::refused(format!(
        "deployment {id} is not stuck: {}. fail-safely is for stuck deployments (the \
         deployment_stuck and job_lease_orphaned alerts); here it would {effect}. Nothing \
         was written. Check the deployment id; if you really mean to, rerun with \
         --even-if-not-stuck (the audit records it)",
        stuck.why
    ))
}

/// The refusals of step 9, in this order: undecidable, nothing to do, not
/// stuck, another path than expected, another fingerprint than expected.
/// `Ok`: the change to make.
pub fn check_expectations(
    asked: &Asked,
    id: Uuid,
    verdict: &Verdict,
    stuck: &Stuck,
    fingerprint: &str,
) -> Result<Change> {
    if !verdict.decidable {
        return Err(undecidable(verdict, id));
    }
    let change = match verdict.path {
        BreakGlassPath::None => return Err(nothing_to_do(verdict, id)),
        BreakGlassPath::OperatorFailed => Change::MarkFailed,
        BreakGlassPath::TeardownRequested => Change::RequestTeardown,
    };
    if !stuck.stuck && !asked.even_if_not_stuck {
        return Err(not_stuck(verdict, stuck, id));
    }
    if let Some(expected) = asked.expect_path
        && expected != verdict.path
    {
        return Err(exit::conflict(format!(
            "deployment {id}: the path decided under the locks is {} ({}), not the expected {}; nothing was written. Re-diagnose before deciding again",
            verdict.path.as_str(),
            verdict.reason,
            expected.as_str()
        )));
    }
    if let Some(expected) = asked.expect_fingerprint
        && expected.trim() != fingerprint
    {
        return Err(exit::conflict(format!(
            "deployment {id} changed since it was diagnosed (fingerprint {}, now {fingerprint}); nothing was written. Run diagnose again and retry with the new fingerprint",
            expected.trim()
        )));
    }
    Ok(change)
}

/// Step 10, before anything is written: the event (`sequence = max + 1`)
/// must fit in a bigint. A trail at its largest value is refused, with
/// what to do, instead of the INSERT failing with "bigint out of range".
pub fn trail_has_room(snapshot: &DeploymentSnapshot) -> Result<()> {
    let Some(last) = edges::trail_full(snapshot) else {
        return Ok(());
    };
    Err(exit::refused(format!(
        "fail-safely refuses to change deployment {}: its event trail is at the largest \
         sequence number a bigint holds (event {} has sequence {}); no event can be appended, \
         and the runbook's change is only ever made together with its event and audit. \
         Nothing was written. No control plane counts that far: the sequence was set by hand \
         or by a bug. Find out who wrote event {} (the runbook forbids deleting or renumbering \
         events) and escalate to the control plane's owners",
        snapshot.deployment.id, last.id, last.sequence, last.id
    )))
}

#[cfg(test)]
#[path = "locked_tests.rs"]
mod tests;
