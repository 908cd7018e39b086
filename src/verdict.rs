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

// ---------------------------------------------------------------------------
// The assessment of a whole snapshot: the path, its evidence, and findings.
// ---------------------------------------------------------------------------

use std::collections::BTreeMap;
use std::time::Duration;

use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::duration::{ago, human};
use crate::snapshot::{Job, Node, Snapshot};

/// The alert `deployment_stuck` fires after this long without an event.
pub const STUCK_AFTER: Duration = Duration::from_secs(30 * 60);

/// Knobs of the assessment.
#[derive(Debug, Clone, Copy)]
pub struct Policy {
    /// A node whose heartbeat is older than this is stale.
    pub stale_after: Duration,
}

impl Policy {
    /// The node's heartbeat is older than `stale_after` (or it never had one).
    pub fn is_stale(&self, node: &Node) -> bool {
        node.heartbeat_age_seconds
            .is_none_or(|age| age > self.stale_after.as_secs_f64())
    }

    /// Nothing will run on the node: it is offline or its heartbeat is stale.
    pub fn is_dead(&self, node: &Node) -> bool {
        node.status == "offline" || self.is_stale(node)
    }
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            stale_after: Duration::from_secs(120),
        }
    }
}

/// What makes a deployment "dispatched": one job or instance and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Evidence {
    /// "job" or "instance".
    pub kind: &'static str,
    pub id: Uuid,
    /// e.g. "build job targeted at build-03; leased (expired 38m ago)".
    pub detail: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Problem,
    Warning,
    Info,
}

/// One thing an operator should know. `code` is stable (scripts match it).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct LastEvent {
    pub sequence: i64,
    pub kind: String,
    pub occurred_at: DateTime<Utc>,
    pub age_seconds: i64,
}

#[derive(Debug, Clone, Serialize)]
pub struct Verdict {
    pub path: Path,
    pub dispatched: bool,
    pub evidence: Vec<Evidence>,
    pub findings: Vec<Finding>,
    /// One line: what is wrong.
    pub headline: String,
    /// Why this path.
    pub reason: String,
    pub last_event: Option<LastEvent>,
    /// In flight: seconds since the last event (or creation).
    pub stuck_for_seconds: Option<i64>,
    /// The next command to run, if any.
    pub next_command: Option<String>,
}

fn short(id: Uuid) -> String {
    id.to_string()[..8].to_string()
}

fn seconds_between(now: DateTime<Utc>, then: DateTime<Utc>) -> i64 {
    (now - then).num_seconds()
}

/// Which jobs and instances count as dispatched, and why (SPEC: a job with a
/// target node, a lease or any agent result; an instance with an active node).
pub fn dispatch_evidence(s: &Snapshot) -> Vec<Evidence> {
    let now = s.snapshot.at;
    let mut evidence = Vec::new();
    for job in &s.jobs {
        let mut reasons = Vec::new();
        if let Some(node) = job.target_node_id {
            reasons.push(format!("targeted at {}", s.node_name(node)));
        }
        if job.has_lease_token || job.lease_expires_at.is_some() {
            reasons.push(match job.lease_expires_at {
                Some(at) if at <= now => {
                    format!("leased (expired {})", ago(seconds_between(now, at)))
                }
                Some(at) => format!("leased (expires {})", ago(seconds_between(now, at))),
                None => "leased".to_string(),
            });
        }
        let results = s.results.iter().filter(|r| r.job_id == job.id).count();
        if results > 0 {
            reasons.push(format!(
                "{results} agent result{}",
                if results == 1 { "" } else { "s" }
            ));
        }
        if !reasons.is_empty() {
            evidence.push(Evidence {
                kind: "job",
                id: job.id,
                detail: format!("{} job {}: {}", job.kind, short(job.id), reasons.join("; ")),
            });
        }
    }
    for instance in &s.instances {
        if let Some(node) = instance.active_node_id {
            evidence.push(Evidence {
                kind: "instance",
                id: instance.id,
                detail: format!(
                    "instance {} ({}, {}) active on {}",
                    short(instance.id),
                    instance.role_name,
                    instance.status,
                    s.node_name(node)
                ),
            });
        }
    }
    evidence
}

fn heartbeat_text(node: &Node) -> String {
    match node.heartbeat_age_seconds {
        Some(age) => format!("last seen {}", ago(age as i64)),
        None => "never seen".to_string(),
    }
}

/// The whole assessment of a snapshot. Pure: same snapshot, same verdict.
pub fn assess(s: &Snapshot, policy: &Policy) -> Verdict {
    let now = s.snapshot.at;
    let status = s.deployment.status();
    let id = s.deployment.id;
    let evidence = dispatch_evidence(s);
    let dispatched = !evidence.is_empty();
    let path = decide_path(status, dispatched);
    let mut findings = Vec::new();
    let mut add = |code: &'static str, severity: Severity, message: String| {
        findings.push(Finding {
            code,
            severity,
            message,
        })
    };

    // The last event and how long the deployment has been stuck.
    let last_event = s.last_event().map(|e| LastEvent {
        sequence: e.sequence,
        kind: e.kind.clone(),
        occurred_at: e.occurred_at,
        age_seconds: seconds_between(now, e.occurred_at),
    });
    let last_activity = s
        .last_event()
        .map(|e| e.occurred_at)
        .unwrap_or(s.deployment.created_at);
    let quiet_for = seconds_between(now, last_activity);
    match &last_event {
        Some(e) => add(
            "last_event",
            Severity::Info,
            format!(
                "last event #{} {} {}",
                e.sequence,
                e.kind,
                ago(e.age_seconds)
            ),
        ),
        None => add(
            "no_events",
            Severity::Warning,
            format!(
                "no events at all; created {}",
                ago(seconds_between(now, s.deployment.created_at))
            ),
        ),
    }
    let stuck_for_seconds = status.in_flight().then_some(quiet_for);
    if status.in_flight() {
        if quiet_for >= STUCK_AFTER.as_secs() as i64 {
            add(
                "stuck",
                Severity::Problem,
                format!(
                    "stuck: {} with no new event for {} (deployment_stuck fires after 30m)",
                    status.as_str(),
                    human(quiet_for)
                ),
            );
        } else {
            add(
                "in_flight",
                Severity::Info,
                format!(
                    "{} and quiet for {}: not stuck yet (deployment_stuck fires after 30m)",
                    status.as_str(),
                    human(quiet_for)
                ),
            );
        }
    }
    if status == DeploymentStatus::Unknown {
        add(
            "unknown_status",
            Severity::Problem,
            format!(
                "status `{}` is not one this tool knows; it will not act on it",
                s.deployment.status
            ),
        );
    }

    // Jobs: orphaned leases, attempts, backoff.
    for job in &s.jobs {
        job_findings(s, job, now, &mut add);
    }

    // Involved nodes.
    for node in &s.nodes {
        let (stale, offline) = (policy.is_stale(node), node.status == "offline");
        if offline {
            add(
                "node_offline",
                Severity::Problem,
                format!(
                    "node {} ({}) is offline, {}",
                    node.name,
                    node.pool,
                    heartbeat_text(node)
                ),
            );
        }
        if stale {
            add(
                "node_stale",
                Severity::Problem,
                format!(
                    "node {} ({}) is stale: {} (stale after {})",
                    node.name,
                    node.pool,
                    heartbeat_text(node),
                    human(policy.stale_after.as_secs() as i64)
                ),
            );
        }
        if node.status == "draining" {
            add(
                "node_draining",
                Severity::Warning,
                format!("node {} ({}) is draining", node.name, node.pool),
            );
        }
        if !node.schedulable {
            add(
                "node_unschedulable",
                Severity::Warning,
                format!("node {} ({}) is unschedulable", node.name, node.pool),
            );
        }
    }

    // Where a teardown would go, and whether anything will run it there.
    if path == Path::TeardownRequested || status == DeploymentStatus::TeardownQueued {
        let mut waits: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for instance in s.instances.iter().filter(|i| i.status != "removed") {
            if let Some(node) = instance.active_node_id.and_then(|n| s.node(n))
                && policy.is_dead(node)
            {
                waits.entry(node.name.clone()).or_default().push(format!(
                    "instance {} ({}) is active there",
                    short(instance.id),
                    instance.role_name
                ));
            }
        }
        for job in s
            .jobs
            .iter()
            .filter(|j| j.kind == "teardown" && matches!(j.status.as_str(), "queued" | "leased"))
        {
            if let Some(node) = job.target_node_id.and_then(|n| s.node(n))
                && policy.is_dead(node)
            {
                waits
                    .entry(node.name.clone())
                    .or_default()
                    .push(format!("teardown job {} is targeted there", short(job.id)));
            }
        }
        for (name, why) in waits {
            let seen = s
                .nodes
                .iter()
                .find(|n| n.name == name)
                .map(heartbeat_text)
                .unwrap_or_default();
            add(
                "teardown_waits_for_node",
                Severity::Problem,
                format!(
                    "teardown will wait for node {name} ({seen}): {}; it completes only when {name} is back",
                    why.join(", ")
                ),
            );
        }
    }

    // Reservations and the reaper.
    let held: Vec<_> = s
        .allocations
        .iter()
        .filter(|a| matches!(a.status.as_str(), "reserved" | "active"))
        .collect();
    let reserved: Vec<_> = held.iter().filter(|a| a.status == "reserved").collect();
    let never_dispatched_failure =
        path == Path::OperatorFailed || (status == DeploymentStatus::Failed && !dispatched);
    if never_dispatched_failure && !reserved.is_empty() {
        let nodes: Vec<String> = reserved.iter().map(|a| s.node_name(a.node_id)).collect();
        if s.network_attachments.is_empty() {
            add(
                "reservations_releasable",
                Severity::Info,
                format!(
                    "{} reservation{} ({}) will be released by the reaper (reap_unstarted_application) once the deployment is failed",
                    reserved.len(),
                    if reserved.len() == 1 { "" } else { "s" },
                    nodes.join(", ")
                ),
            );
        } else {
            let segments: Vec<&str> = s
                .network_attachments
                .iter()
                .map(|a| a.segment.as_str())
                .collect();
            add(
                "reservations_blocked",
                Severity::Problem,
                format!(
                    "{} reservation{} ({}) will NOT be released by the reaper: a network attachment exists in segment {}; they stay held until it is gone (not something this tool removes)",
                    reserved.len(),
                    if reserved.len() == 1 { "" } else { "s" },
                    nodes.join(", "),
                    segments.join(", ")
                ),
            );
        }
    } else if !held.is_empty() {
        add(
            "allocations_held",
            Severity::Info,
            format!(
                "{} allocation{} held ({}); only accepted teardown results release them",
                held.len(),
                if held.len() == 1 { "" } else { "s" },
                held.iter()
                    .map(|a| format!("{} {}", s.node_name(a.node_id), a.status))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
    }

    // Source and artifact.
    let needs_artifact = matches!(
        status,
        DeploymentStatus::Deploying | DeploymentStatus::Running
    );
    if s.source_snapshots.is_empty() {
        add(
            "source_missing",
            Severity::Warning,
            "no source snapshot".to_string(),
        );
    } else if s.source_snapshots.iter().all(|x| x.verified_at.is_none()) {
        add(
            "source_unverified",
            Severity::Warning,
            "no verified source snapshot (verified_at is empty)".to_string(),
        );
    }
    if s.release_artifacts.is_empty() {
        add(
            "artifact_missing",
            if needs_artifact {
                Severity::Warning
            } else {
                Severity::Info
            },
            format!("no release artifact yet ({})", status.as_str()),
        );
    }

    if s.snapshot.in_recovery {
        add(
            "standby",
            Severity::Info,
            format!(
                "read from a standby (replay lag {}); fail-safely must run on the primary",
                s.snapshot
                    .replay_lag_seconds
                    .map(|l| human(l as i64))
                    .unwrap_or_else(|| "unknown".to_string())
            ),
        );
    }

    let (headline, reason) = explain(s, path, status, dispatched, &evidence, quiet_for);
    let next_command = next_command(path, status, id);
    findings.sort_by_key(|f| f.severity);
    Verdict {
        path,
        dispatched,
        evidence,
        findings,
        headline,
        reason,
        last_event,
        stuck_for_seconds,
        next_command,
    }
}

fn job_findings(
    s: &Snapshot,
    job: &Job,
    now: DateTime<Utc>,
    add: &mut impl FnMut(&'static str, Severity, String),
) {
    let node = job
        .target_node_id
        .map(|n| format!(" on {}", s.node_name(n)))
        .unwrap_or_default();
    if job.status == "leased"
        && let Some(expires) = job.lease_expires_at
        && expires <= now
    {
        add(
            "lease_orphaned",
            Severity::Problem,
            format!(
                "orphaned lease: {} job {}{} — lease expired {} and nobody reclaimed it (job_lease_orphaned)",
                job.kind,
                short(job.id),
                node,
                ago(seconds_between(now, expires))
            ),
        );
    }
    if job.attempt >= job.max_attempts && matches!(job.status.as_str(), "failed" | "queued") {
        add(
            "out_of_attempts",
            Severity::Problem,
            format!(
                "{} job {}{} is out of attempts ({}/{}){}",
                job.kind,
                short(job.id),
                node,
                job.attempt,
                job.max_attempts,
                job.last_error
                    .as_deref()
                    .map(|e| format!(": {e}"))
                    .unwrap_or_default()
            ),
        );
    }
    if job.status == "queued" && job.available_at > now {
        add(
            "waiting_available_at",
            Severity::Info,
            format!(
                "{} job {} waits for available_at ({})",
                job.kind,
                short(job.id),
                ago(seconds_between(now, job.available_at))
            ),
        );
    }
}

fn explain(
    s: &Snapshot,
    path: Path,
    status: DeploymentStatus,
    dispatched: bool,
    evidence: &[Evidence],
    quiet_for: i64,
) -> (String, String) {
    let state = format!("{} for {}", status.as_str(), human(quiet_for));
    match path {
        Path::OperatorFailed => (
            format!("operator_failed: {state}, nothing was ever dispatched — mark it failed"),
            "no job has a target node, a lease or an agent result, and no instance is active on a node"
                .to_string(),
        ),
        Path::TeardownRequested if status == DeploymentStatus::Running => (
            "not stuck: running; if it must go anyway, the break-glass path is teardown_requested (the same state change as `pl down`)"
                .to_string(),
            format!(
                "dispatched: {}",
                evidence
                    .iter()
                    .map(|e| e.detail.as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        ),
        Path::TeardownRequested => (
            format!(
                "teardown_requested: {}, and something was dispatched — request a teardown",
                if status.in_flight() { state } else { status.as_str().to_string() }
            ),
            format!(
                "dispatched: {}",
                evidence
                    .iter()
                    .map(|e| e.detail.as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        ),
        Path::None => {
            let why = match status {
                DeploymentStatus::Failed => "it is already failed".to_string(),
                DeploymentStatus::TeardownQueued => {
                    "its teardown is already queued; follow it with `wait`".to_string()
                }
                DeploymentStatus::Destroyed => "it is already destroyed".to_string(),
                DeploymentStatus::Unknown => format!(
                    "its status `{}` is unknown to this tool",
                    s.deployment.status
                ),
                _ if !dispatched => format!(
                    "it is {} and nothing was dispatched: neither break-glass path applies",
                    status.as_str()
                ),
                _ => "neither break-glass path applies".to_string(),
            };
            (format!("nothing to do: {why}"), why)
        }
    }
}

fn next_command(path: Path, status: DeploymentStatus, id: Uuid) -> Option<String> {
    match path {
        // A running deployment is not stuck: no break-glass step is "next".
        Path::TeardownRequested if status == DeploymentStatus::Running => None,
        Path::OperatorFailed | Path::TeardownRequested => Some(format!(
            "pushleft-controller fail-safely {id} --reason \"<ticket and reason>\""
        )),
        Path::None if status == DeploymentStatus::TeardownQueued => {
            Some(format!("pushleft-controller wait {id}"))
        }
        Path::None => None,
    }
}

/// A fingerprint of the state the decision depends on: the deployment's
/// status, its last event, and every job, result and instance field that
/// counts for "dispatched". Heartbeats and ages are left out: they change
/// every second without changing the decision.
pub fn fingerprint(s: &Snapshot) -> String {
    let mut h = Sha256::new();
    let mut put = |field: &str| {
        h.update(field.as_bytes());
        h.update([0u8]);
    };
    put("v1");
    put(&s.deployment.id.to_string());
    put(&s.deployment.status);
    put(&s.events_total.to_string());
    put(&s.last_event().map(|e| e.sequence).unwrap_or(0).to_string());
    for job in &s.jobs {
        put(&job.id.to_string());
        put(&job.kind);
        put(&job.status);
        put(&job
            .target_node_id
            .map(|n| n.to_string())
            .unwrap_or_default());
        put(&job.has_lease_token.to_string());
        put(&job
            .lease_expires_at
            .map(|t| t.to_rfc3339())
            .unwrap_or_default());
        put(&job.attempt.to_string());
    }
    let mut results: Vec<String> = s.results.iter().map(|r| r.id.to_string()).collect();
    results.sort();
    for r in results {
        put(&r);
    }
    for i in &s.instances {
        put(&i.id.to_string());
        put(&i.status);
        put(&i.active_node_id.map(|n| n.to_string()).unwrap_or_default());
        put(&i.generation.to_string());
    }
    let digest = h.finalize();
    hex::encode(&digest[..8])
}

#[cfg(test)]
#[path = "verdict_tests.rs"]
mod assess_tests;
