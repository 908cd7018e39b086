//! `wait <deployment>`: the runbook's Verification step. Follows the
//! deployment until it is `failed` (and, unless a network attachment keeps
//! them, its reservations are released), or `teardown_queued`/`destroyed`
//! with every instance removed and its allocations released.
//!
//! It only reads (each look is one read-only snapshot, as `diagnose`), and
//! it says early when progress is impossible: a teardown waiting for a dead
//! node, or a network attachment that keeps reservations.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use uuid::Uuid;

use crate::cli::{GlobalArgs, WaitArgs};
use crate::commands::diagnose;
use crate::connect::Settings;
use crate::duration::{ago, human};
use crate::exit::{self, ExitCode};
use crate::output::{self, Output};
use crate::snapshot::Snapshot;
use crate::verdict::{DeploymentStatus, Policy};

/// Where the deployment stands with respect to the Verification step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Progress {
    pub deployment_id: Uuid,
    pub status: String,
    pub verified: bool,
    pub instances_total: usize,
    pub instances_removed: usize,
    /// Reserved or active allocations still held.
    pub allocations_held: usize,
    /// What is still outstanding.
    pub pending: Vec<String>,
    /// Why it may never complete on its own (dead node, network attachment).
    pub blocked: Vec<String>,
    pub last_event: Option<String>,
}

/// Pure: what the snapshot says about the Verification step.
pub fn progress(s: &Snapshot, policy: &Policy) -> Progress {
    let status = s.deployment.status();
    let now = s.snapshot.at;
    let instances_total = s.instances.len();
    let instances_removed = s.instances.iter().filter(|i| i.status == "removed").count();
    let held: Vec<_> = s
        .allocations
        .iter()
        .filter(|a| matches!(a.status.as_str(), "reserved" | "active"))
        .collect();
    let mut pending = Vec::new();
    let mut blocked = Vec::new();
    let dead = |node_id: Uuid| -> Option<String> {
        let node = s.node(node_id)?;
        policy.is_dead(node).then(|| {
            format!(
                "waiting for node {}, {}",
                node.name,
                node.last_seen_at
                    .map(|at| format!("last seen {}", ago((now - at).num_seconds())))
                    .unwrap_or_else(|| "never seen".to_string())
            )
        })
    };

    let verified = match status {
        DeploymentStatus::Failed => {
            let reserved: Vec<_> = held.iter().filter(|a| a.status == "reserved").collect();
            if !reserved.is_empty() {
                if s.network_attachments.is_empty() {
                    pending.push(format!(
                        "{} reservation{} not yet released by the reaper",
                        reserved.len(),
                        if reserved.len() == 1 { "" } else { "s" }
                    ));
                } else {
                    blocked.push(format!(
                        "{} reservation{} kept: a network attachment exists in segment {}; the reaper will not release them",
                        reserved.len(),
                        if reserved.len() == 1 { "" } else { "s" },
                        s.network_attachments
                            .iter()
                            .map(|a| a.segment.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
            }
            // With a network attachment the reservations cannot go: the
            // Verification is `failed` alone, and `blocked` says why.
            reserved.is_empty() || !s.network_attachments.is_empty()
        }
        DeploymentStatus::TeardownQueued | DeploymentStatus::Destroyed => {
            for instance in s.instances.iter().filter(|i| i.status != "removed") {
                pending.push(format!(
                    "instance {} ({}) is {}",
                    &instance.id.to_string()[..8],
                    instance.role_name,
                    instance.status
                ));
                if let Some(reason) = instance.active_node_id.and_then(dead)
                    && !blocked.contains(&reason)
                {
                    blocked.push(reason);
                }
            }
            for job in s.jobs.iter().filter(|j| {
                j.kind == "teardown" && matches!(j.status.as_str(), "queued" | "leased")
            }) {
                if let Some(reason) = job.target_node_id.and_then(dead)
                    && !blocked.contains(&reason)
                {
                    blocked.push(reason);
                }
            }
            if !held.is_empty() {
                pending.push(format!(
                    "{} allocation{} still held",
                    held.len(),
                    if held.len() == 1 { "" } else { "s" }
                ));
            }
            pending.is_empty()
        }
        other => {
            pending.push(format!(
                "status is {}: neither failed nor teardown_queued yet (did fail-safely run?)",
                other.as_str()
            ));
            false
        }
    };
    Progress {
        deployment_id: s.deployment.id,
        status: s.deployment.status.clone(),
        verified,
        instances_total,
        instances_removed,
        allocations_held: held.len(),
        pending,
        blocked,
        last_event: s.last_event().map(|e| {
            format!(
                "#{} {} {}",
                e.sequence,
                e.kind,
                ago((now - e.occurred_at).num_seconds())
            )
        }),
    }
}

/// A look failed. Bad input and a missing deployment say so themselves; a
/// lost connection or anything unexpected says how to pick up again.
fn lost_track(err: anyhow::Error, deployment: &str) -> anyhow::Error {
    if exit::is_connection_lost(&err) {
        return exit::connection_lost(format!(
            "lost the connection to the database while waiting for deployment {deployment} \
             ({}). wait only reads: nothing was written, and what fail-safely did stays done. \
             Next step: check that the database is up (`pushleft-controller doctor`), then \
             rerun `pushleft-controller wait {deployment}`",
            exit::lost_connection_cause(&err)
        ));
    }
    if err.chain().any(|cause| cause.is::<exit::Failure>()) {
        return err;
    }
    err.context(format!(
        "lost track of deployment {deployment} while waiting; rerun `pushleft-controller wait {deployment}` when the database is reachable"
    ))
}

/// The `wait --output json` document.
#[derive(Debug, Serialize)]
struct WaitReport<'a> {
    #[serde(flatten)]
    progress: &'a Progress,
    timed_out: bool,
    elapsed_seconds: f64,
}

fn summary(p: &Progress) -> String {
    format!(
        "{}: status {}, instances removed {}/{}, allocations held {}{}",
        &p.deployment_id.to_string()[..8],
        p.status,
        p.instances_removed,
        p.instances_total,
        p.allocations_held,
        p.last_event
            .as_deref()
            .map(|e| format!(", last event {e}"))
            .unwrap_or_default()
    )
}

pub fn run(args: &WaitArgs, global: &GlobalArgs, out: &Output) -> Result<ExitCode> {
    let settings = Settings::from_options(&global.connect_options())?;
    let mut client = super::connect(&settings, Duration::from_secs(5))?;
    let policy = Policy {
        stale_after: args.stale_after,
    };
    let started = Instant::now();
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} [{elapsed}] {bar:30} {pos}/{len} instances removed · {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    });
    let mut deployment = args.deployment.clone();
    let mut last_line = String::new();
    let mut reported_blocked: Vec<String> = Vec::new();
    let (progress, timed_out) = loop {
        let d = diagnose::diagnose(&mut client, &deployment, Some(1), &policy).map_err(|err| {
            // The error goes to stderr next: no half-drawn bar above it.
            if let Some(bar) = &bar {
                bar.finish_and_clear();
            }
            lost_track(err, &deployment)
        })?;
        // Resolve a prefix once; later looks use the full id.
        deployment = d.snapshot.deployment.id.to_string();
        let p = progress(&d.snapshot, &policy);
        for reason in &p.blocked {
            if !reported_blocked.contains(reason) {
                let line = format!("! may never complete on its own: {reason}");
                match &bar {
                    Some(bar) => bar.println(line),
                    None => output::note(&line),
                }
                reported_blocked.push(reason.clone());
            }
        }
        let line = summary(&p);
        match &bar {
            Some(bar) => {
                bar.set_length(p.instances_total as u64);
                bar.set_position(p.instances_removed as u64);
                bar.set_message(format!(
                    "{}{}",
                    p.status,
                    p.last_event
                        .as_deref()
                        .map(|e| format!(" · last event {e}"))
                        .unwrap_or_default()
                ));
            }
            None if line != last_line => output::note(&line),
            None => {}
        }
        last_line = line;
        if p.verified {
            break (p, false);
        }
        if started.elapsed() >= args.timeout {
            break (p, true);
        }
        let remaining = args.timeout.saturating_sub(started.elapsed());
        std::thread::sleep(args.interval.min(remaining));
    };
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let elapsed = started.elapsed();
    if out.json() {
        output::print_json(&WaitReport {
            progress: &progress,
            timed_out,
            elapsed_seconds: elapsed.as_secs_f64(),
        })?;
    } else if !timed_out {
        let mut text = format!(
            "Verified after {}: {}",
            human(elapsed.as_secs() as i64),
            summary(&progress)
        );
        for b in &progress.blocked {
            text.push_str(&format!("\n  note: {b}"));
        }
        output::print(&text)?;
    }
    if timed_out {
        let mut message = format!(
            "timed out after {} waiting for deployment {}: {}",
            human(args.timeout.as_secs() as i64),
            progress.deployment_id,
            summary(&progress)
        );
        for p in &progress.pending {
            message.push_str(&format!("\n  pending: {p}"));
        }
        for b in &progress.blocked {
            message.push_str(&format!("\n  blocked: {b}"));
        }
        message.push_str("\n  next: check the blocked items above, then rerun wait");
        return Err(exit::wait_timed_out(message));
    }
    Ok(ExitCode::Done)
}
