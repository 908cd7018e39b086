//! The findings of an assessment, one function per section of the runbook's
//! Diagnosis. Each adds what it sees; `verdict::assess` calls them in order.

use std::collections::BTreeMap;

use crate::duration::{ago, human};
use crate::model::{
    AllocationStatus, BreakGlassPath, DeploymentSnapshot, DeploymentStatus, Job, JobStatus, Node,
    NodeStatus, short_id,
};

use super::assessment::{Assessment, Findings, Severity};
use super::policy::STUCK_AFTER;
use super::seconds_between;
use crate::model::clock::{age_seconds, ahead_seconds};
use crate::model::cut::cut_note;
use crate::model::read_from::ReadFrom;

/// The last event, and whether the deployment is stuck by the alert's rule.
pub fn activity(a: &Assessment, found: &mut Findings) {
    let (s, now) = (a.s, a.s.snapshot.at);
    let status = &s.deployment.status;
    match s.last_event() {
        Some(e) => found.add(
            "last_event",
            Severity::Info,
            format!(
                "last event #{} {} {}",
                e.sequence,
                e.kind,
                match e.occurred_at {
                    None => "at an unknown time (NULL)".to_string(),
                    Some(at) => match ahead_seconds(now, at) {
                        Some(ahead) => format!("{} in the future (clock skew)", human(ahead)),
                        None => ago(age_seconds(now, at)),
                    },
                }
            ),
        ),
        None => found.add(
            "no_events",
            Severity::Warning,
            format!(
                "no events at all; created {}",
                ago(age_seconds(now, s.deployment.created_at))
            ),
        ),
    }
    if status.in_flight() {
        if a.quiet_for >= STUCK_AFTER.as_secs() as i64 {
            found.add(
                "stuck",
                Severity::Problem,
                format!(
                    "stuck: {status} with no new event for {} (deployment_stuck fires after 30m)",
                    human(a.quiet_for)
                ),
            );
        } else {
            found.add(
                "in_flight",
                Severity::Info,
                format!(
                    "{status} and quiet for {}: not stuck yet (deployment_stuck fires after 30m)",
                    human(a.quiet_for)
                ),
            );
        }
    }
    if status.is_unknown() {
        found.add(
            "unknown_status",
            Severity::Problem,
            format!("status `{status}` is not one this tool knows; it will not act on it"),
        );
    }
}

/// Orphaned leases, jobs out of attempts, jobs in backoff.
pub fn jobs(a: &Assessment, found: &mut Findings) {
    for job in &a.s.jobs {
        job_findings(a, job, found);
    }
}

fn job_findings(a: &Assessment, job: &Job, found: &mut Findings) {
    let (s, now) = (a.s, a.s.snapshot.at);
    let node = job
        .target_node_id
        .map(|n| format!(" on {}", s.node_name(n)))
        .unwrap_or_default();
    if job.lease_expired(now)
        && let Some(expires) = job.lease_expires_at
    {
        found.add(
            "lease_orphaned",
            Severity::Problem,
            format!(
                "orphaned lease: {} job {}{} — lease expired {} and nobody reclaimed it (job_lease_orphaned)",
                job.kind,
                short_id(job.id),
                node,
                ago(seconds_between(now, expires))
            ),
        );
    }
    // A failed job, or one queued again, with no attempt left: nothing will
    // retry it. (A leased one may still be on its last attempt.)
    if job.attempt >= job.max_attempts
        && matches!(job.status, JobStatus::Failed | JobStatus::Queued)
    {
        found.add(
            "out_of_attempts",
            Severity::Problem,
            format!(
                "{} job {}{} is out of attempts ({}/{}){}",
                job.kind,
                short_id(job.id),
                node,
                job.attempt,
                job.max_attempts,
                last_error(job)
            ),
        );
    }
    if job.status == JobStatus::Queued && job.available_at > now {
        found.add(
            "waiting_available_at",
            Severity::Info,
            format!(
                "{} job {} waits for available_at ({})",
                job.kind,
                short_id(job.id),
                ago(seconds_between(now, job.available_at))
            ),
        );
    }
}

/// A job's last error as a finding quotes it: `: text`, or, read cut
/// (pushleft-controller-diagnose(1), HUGE TEXT), the note first, so that a screen that shows
/// only the head of a long finding still says so.
fn last_error(job: &Job) -> String {
    match job.last_error.as_deref() {
        None => String::new(),
        Some(error) if job.last_error_cut => {
            format!(
                "; last error ({}): {error}",
                cut_note(job.last_error_length)
            )
        }
        Some(error) => format!(": {error}"),
    }
}

/// "last seen 3h ago" or "never seen".
pub fn heartbeat_text(node: &Node) -> String {
    match node.heartbeat_age_seconds {
        Some(age) => format!("last seen {}", ago(age)),
        None => "never seen".to_string(),
    }
}

/// The involved nodes that are offline, stale, draining or unschedulable.
pub fn nodes(a: &Assessment, found: &mut Findings) {
    let now = a.s.snapshot.at;
    for node in &a.s.nodes {
        if node.status == NodeStatus::Offline {
            found.add(
                "node_offline",
                Severity::Problem,
                format!(
                    "node {} ({}) is offline, {}",
                    node.name,
                    DeploymentSnapshot::pool_name(node),
                    heartbeat_text(node)
                ),
            );
        }
        // An offline node is reported once: its finding already says when
        // it was last seen.
        if a.policy.is_stale(node, now) && node.status != NodeStatus::Offline {
            found.add(
                "node_stale",
                Severity::Problem,
                format!(
                    "node {} ({}) is stale: {} (stale after {})",
                    node.name,
                    DeploymentSnapshot::pool_name(node),
                    heartbeat_text(node),
                    human(a.policy.stale_after.as_secs() as i64)
                ),
            );
        }
        if node.status == NodeStatus::Draining {
            found.add(
                "node_draining",
                Severity::Warning,
                format!(
                    "node {} ({}) is draining",
                    node.name,
                    DeploymentSnapshot::pool_name(node)
                ),
            );
        }
        if !node.schedulable {
            found.add(
                "node_unschedulable",
                Severity::Warning,
                format!(
                    "node {} ({}) is unschedulable",
                    node.name,
                    DeploymentSnapshot::pool_name(node)
                ),
            );
        }
    }
}

/// Where a teardown would go, and whether anything will run it there.
pub fn teardown_waits(a: &Assessment, found: &mut Findings) {
    let (s, now) = (a.s, a.s.snapshot.at);
    if a.path != BreakGlassPath::TeardownRequested
        && s.deployment.status != DeploymentStatus::TeardownQueued
    {
        return;
    }
    let dead = |node_id: Option<uuid::Uuid>| {
        node_id
            .and_then(|n| s.node(n))
            .filter(|node| a.policy.is_dead(node, now))
    };
    let mut waits: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for instance in s.live_instances() {
        if let Some(node) = dead(instance.active_node_id) {
            waits.entry(node.name.clone()).or_default().push(format!(
                "instance {} ({}) is active there",
                short_id(instance.id),
                instance.role_name
            ));
        }
    }
    for job in s.jobs.iter().filter(|j| j.is_open_teardown()) {
        if let Some(node) = dead(job.target_node_id) {
            waits.entry(node.name.clone()).or_default().push(format!(
                "teardown job {} is targeted there",
                short_id(job.id)
            ));
        }
    }
    for (name, why) in waits {
        let seen = s
            .nodes
            .iter()
            .find(|n| n.name == name)
            .map(heartbeat_text)
            .unwrap_or_default();
        found.add(
            "teardown_waits_for_node",
            Severity::Problem,
            format!(
                "teardown will wait for node {name} ({seen}): {}; it completes only when {name} is back",
                why.join(", ")
            ),
        );
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Reservations and the reaper: released once failed, unless a network
/// attachment keeps them; otherwise what capacity is still held.
pub fn reservations(a: &Assessment, found: &mut Findings) {
    let s = a.s;
    let held: Vec<_> = s.held_allocations().collect();
    let reserved: Vec<_> = held
        .iter()
        .filter(|x| x.status == AllocationStatus::Reserved)
        .collect();
    let never_dispatched_failure = a.path == BreakGlassPath::OperatorFailed
        || (s.deployment.status == DeploymentStatus::Failed && !a.dispatched);
    if never_dispatched_failure && !reserved.is_empty() {
        let nodes: Vec<String> = reserved.iter().map(|x| s.node_name(x.node_id)).collect();
        let n = reserved.len();
        if s.network_attachments.is_empty() {
            found.add(
                "reservations_releasable",
                Severity::Info,
                format!(
                    "{n} reservation{} ({}) will be released by the reaper (reap_unstarted_application) once the deployment is failed",
                    plural(n),
                    nodes.join(", ")
                ),
            );
        } else {
            found.add(
                "reservations_blocked",
                Severity::Problem,
                format!(
                    "{n} reservation{} ({}) will NOT be released by the reaper: a network attachment exists in segment {}; they stay held until it is gone (not something this tool removes)",
                    plural(n),
                    nodes.join(", "),
                    s.attachment_segments()
                ),
            );
        }
    } else if !held.is_empty() {
        found.add(
            "allocations_held",
            Severity::Info,
            format!(
                "{} allocation{} held ({}); only accepted teardown results release them",
                held.len(),
                plural(held.len()),
                held.iter()
                    .map(|x| format!("{} {}", s.node_name(x.node_id), x.status))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
    }
}

/// A missing or unverified source, a missing artifact.
pub fn source_and_artifact(a: &Assessment, found: &mut Findings) {
    let s = a.s;
    let status = &s.deployment.status;
    if s.source_snapshots.is_empty() {
        found.add(
            "source_missing",
            Severity::Warning,
            "no source snapshot".to_string(),
        );
    } else if s.source_snapshots.iter().all(|x| x.verified_at.is_none()) {
        found.add(
            "source_unverified",
            Severity::Warning,
            "no verified source snapshot (verified_at is empty)".to_string(),
        );
    }
    // A deployment that failed or is torn down will never get one: that
    // is no news.
    let finished = matches!(
        status,
        DeploymentStatus::Failed | DeploymentStatus::TeardownQueued | DeploymentStatus::Destroyed
    );
    if s.release_artifacts.is_empty() && !finished {
        let needs_artifact = matches!(
            status,
            DeploymentStatus::Deploying | DeploymentStatus::Running
        );
        found.add(
            "artifact_missing",
            if needs_artifact {
                Severity::Warning
            } else {
                Severity::Info
            },
            format!("no release artifact yet ({status})"),
        );
    }
}

/// Read from a standby: say so, and where fail-safely must run.
pub fn standby(a: &Assessment, found: &mut Findings) {
    let info = &a.s.snapshot;
    if info.in_recovery {
        found.add(
            "standby",
            Severity::Info,
            format!(
                "read from a standby ({}); fail-safely must run on the primary",
                ReadFrom::of(info).lag_words()
            ),
        );
    }
}
