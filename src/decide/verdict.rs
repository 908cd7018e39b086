//! The whole assessment of one deployment: the path, its evidence, the
//! findings an operator should know, and what to run next.

use serde::Serialize;

use crate::model::{BreakGlassPath, DeploymentSnapshot, NextCommand};

use super::assessment::{Assessment, Finding, Findings, LastEvent, last_activity};
use super::evidence::{Evidence, dispatch_evidence};
use super::findings;
use super::path::decide_path;
use super::policy::Policy;
use super::verdict_text::{Asker, explain, next_command};
use crate::model::clock::age_seconds;

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
    pub next_command: Option<NextCommand>,
    /// False when a row the decision rests on holds a value this tool does
    /// not know (or a NULL where the reference schema says NOT NULL): the
    /// path is then `none`, the reason names the values, and fail-safely
    /// refuses.
    pub decidable: bool,
}

/// The whole assessment of a snapshot. Pure: same snapshot, same verdict.
pub fn assess(s: &DeploymentSnapshot, policy: &Policy) -> Verdict {
    let now = s.snapshot.at;
    let status = &s.deployment.status;
    let evidence = dispatch_evidence(s);
    let dispatched = !evidence.is_empty();
    let odd = super::unknown::odd_values(s);
    let undecidable = super::unknown::undecidable(&odd);
    let path = match undecidable {
        Some(_) => BreakGlassPath::None,
        None => decide_path(status, dispatched),
    };
    let last_activity = last_activity(s);
    let a = Assessment {
        s,
        policy,
        path,
        dispatched,
        quiet_for: age_seconds(now, last_activity),
    };

    let mut found = Findings::default();
    findings::activity(&a, &mut found);
    findings::jobs(&a, &mut found);
    findings::nodes(&a, &mut found);
    findings::teardown_waits(&a, &mut found);
    findings::reservations(&a, &mut found);
    findings::source_and_artifact(&a, &mut found);
    findings::standby(&a, &mut found);
    super::edges::findings(s, &mut found);
    super::unknown::findings(&odd, &mut found);

    let (headline, reason) = match &undecidable {
        Some(why) => (format!("cannot decide: {why}"), why.clone()),
        None => explain(&a, &evidence),
    };
    Verdict {
        path,
        dispatched,
        evidence,
        findings: found.into_sorted(),
        headline,
        reason,
        last_event: s.last_event().map(|e| LastEvent {
            sequence: e.sequence,
            kind: e.kind.clone(),
            occurred_at: e.occurred_at,
            age_seconds: e.occurred_at.map(|at| age_seconds(now, at)),
        }),
        stuck: super::stuck::stuck(s, policy).stuck,
        stuck_for_seconds: status.in_flight().then_some(a.quiet_for),
        next_command: match undecidable {
            Some(_) => None,
            None => next_command(path, status, s.deployment.id, Asker::Verdict),
        },
        decidable: undecidable.is_none(),
    }
}
