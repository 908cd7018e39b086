//! The whole assessment of one deployment: the path, its evidence, the
//! findings an operator should know, and what to run next.

pub use crate::model::assessment::Verdict;
use crate::model::{BreakGlassPath, DeploymentSnapshot};

use super::assessment::{Assessment, Findings, LastEvent, last_activity};
use super::evidence::dispatch_evidence;
use super::findings;
use super::path::decide_path;
use super::policy::Policy;
use super::verdict_text::{Asker, explain, next_command};
use crate::model::clock::age_seconds;

/// The whole assessment of a snapshot. Pure: same snapshot, same verdict.
pub fn assess(s: &DeploymentSnapshot, policy: &Policy) -> Verdict {
    let now = s.snapshot.at;
    let status = &s.deployment.status;
    let evidence = dispatch_evidence(s);
    let dispatched = !evidence.is_empty();
    let odd = super::unknown::odd_values(s);
    let blind = super::blind::cannot_vouch(&s.snapshot);
    let undecidable = match &blind {
        Some(b) => Some(b.message.clone()),
        None => super::unknown::undecidable(&odd),
    };
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
    if let Some(b) = &blind {
        super::blind::findings(b, &mut found);
    }

    // A teardown only a dead node's return completes says so first, not
    // "nothing to do" (README, "The break-glass decision").
    let blocked = match (&undecidable, path) {
        (None, BreakGlassPath::None) => super::blocked::on_dead_node(s, policy),
        _ => None,
    };
    let (headline, reason) = match (&blind, &undecidable, &blocked) {
        (Some(b), _, _) => super::blind::headline(b),
        (None, Some(why), _) => (format!("cannot decide: {why}"), why.clone()),
        (None, None, Some(b)) => (b.headline.clone(), b.reason.clone()),
        (None, None, None) => explain(&a, &evidence),
    };
    let stuck = blind.is_none() && super::stuck::stuck(s, policy).stuck;
    Verdict {
        path,
        dispatched,
        evidence,
        findings: found.into_sorted(),
        headline,
        reason,
        last_event: s.last_event().map(|e| LastEvent::of(e, now)),
        stuck,
        stuck_for_seconds: (status.in_flight() && blind.is_none()).then_some(a.quiet_for),
        next_command: match (&undecidable, &blocked) {
            (Some(_), _) => None,
            (None, Some(b)) => Some(b.next_command.clone()),
            (None, None) => next_command(path, status, s.deployment.id, Asker::Verdict),
        },
        blocked_on_nodes: blocked.map(|b| b.nodes).unwrap_or_default(),
        decidable: undecidable.is_none(),
        cannot_vouch: blind,
    }
}
