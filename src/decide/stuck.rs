//! Stuck or not (README, "The break-glass decision"), pure: by the alerts'
//! own definitions. `deployment_stuck`: in flight (queued, building,
//! deploying) with no event for `stuck_after` (or, without any event,
//! created that long ago). `job_lease_orphaned`: a job still leased whose
//! lease expired more than `lease_grace` ago. The same rules as
//! `sql/stuck/scan.sql`.

use serde::Serialize;

use super::Policy;
use super::seconds_between;
use crate::duration::human;
use crate::model::clock::{CLOCK_SKEW_TOLERANCE, age_seconds, ahead_seconds};
use crate::model::{DeploymentSnapshot, JobStatus};

/// Whether a deployment is stuck, for how long, and why, in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Stuck {
    pub stuck: bool,
    /// In flight: seconds since the last event (or since creation without
    /// one), stuck or not yet. Otherwise, with an orphaned lease: seconds
    /// since that lease expired. Else none.
    pub stuck_for_seconds: Option<i64>,
    /// One sentence: why it is (or is not) stuck.
    #[serde(skip)]
    pub why: String,
}

/// Stuck or not, at the snapshot's instant.
pub fn stuck(s: &DeploymentSnapshot, policy: &Policy) -> Stuck {
    let now = s.snapshot.at;
    let status = &s.deployment.status;
    let secs = |d: std::time::Duration| i64::try_from(d.as_secs()).unwrap_or(i64::MAX);
    let last_activity = super::assessment::last_activity(s);
    let quiet_for = age_seconds(now, last_activity);
    let orphaned = s
        .jobs
        .iter()
        .filter(|j| j.status == JobStatus::Leased)
        .filter_map(|j| j.lease_expires_at.map(|at| (j, seconds_between(now, at))))
        .filter(|(_, expired_for)| *expired_for > secs(policy.lease_grace))
        .max_by_key(|(_, expired_for)| *expired_for);
    let in_flight = status.in_flight();
    let quiet = in_flight && quiet_for >= secs(policy.stuck_after);
    let alert_after = human(secs(policy.stuck_after));
    if quiet {
        return Stuck {
            stuck: true,
            stuck_for_seconds: Some(quiet_for),
            why: format!(
                "{status} with no new event for {} (deployment_stuck fires after {alert_after})",
                human(quiet_for)
            ),
        };
    }
    if let Some((job, expired_for)) = orphaned {
        return Stuck {
            stuck: true,
            stuck_for_seconds: Some(if in_flight { quiet_for } else { expired_for }),
            why: format!(
                "the lease of its {} job expired {} ago and was not reclaimed (job_lease_orphaned)",
                job.kind,
                human(expired_for)
            ),
        };
    }
    Stuck {
        stuck: false,
        stuck_for_seconds: in_flight.then_some(quiet_for),
        why: if let Some(ahead) = ahead_seconds(now, last_activity).filter(|_| in_flight) {
            ahead_why(s, status, ahead)
        } else if in_flight {
            format!(
                "it is {status} and its last progress was {} ago (deployment_stuck fires after \
                 {alert_after}), and no lease of it is orphaned",
                human(quiet_for)
            )
        } else {
            format!("it is {status}, not in flight, and no lease of it is orphaned")
        },
    }
}

/// In flight, and its last progress is ahead of the server's clock: by
/// that clock it progressed just now, so it is not stuck; say why.
fn ahead_why(
    s: &DeploymentSnapshot,
    status: &crate::model::DeploymentStatus,
    ahead: i64,
) -> String {
    let what = match s.last_event() {
        Some(e) => format!("its last event (#{}, {})", e.sequence, e.kind),
        None => "its creation (it has no event)".to_string(),
    };
    format!(
        "it is {status} and {what} is {} in the future of the database server's clock (clock \
         skew beyond {}): by that clock it made progress just now, so deployment_stuck does not \
         fire, and no lease of it is orphaned. Fix the clock of what wrote it (NTP) and \
         diagnose again",
        human(ahead),
        human(i64::try_from(CLOCK_SKEW_TOLERANCE.as_secs()).unwrap_or(i64::MAX))
    )
}
