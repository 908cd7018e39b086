//! `stuck`: the fleet-wide scan the alerts describe, `deployment_stuck` and
//! `job_lease_orphaned`, from one read-only snapshot, each row with the
//! break-glass path (decided by `verdict::decide_path`) and the next command.

use std::time::Duration;

use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use postgres::Client;
use serde::Serialize;
use uuid::Uuid;

use crate::cli::{GlobalArgs, StuckArgs};
use crate::connect::Settings;
use crate::duration;
use crate::exit::ExitCode;
use crate::output::{self, Output, Paint};
use crate::verdict::{self, DeploymentStatus, Path};

pub const STUCK_DEPLOYMENTS: &str = include_str!("../../sql/stuck_deployments.sql");
pub const STUCK_LEASES: &str = include_str!("../../sql/stuck_leases.sql");

#[derive(Debug, Serialize)]
pub struct StuckDeployment {
    pub deployment_id: Uuid,
    pub org_id: Uuid,
    pub status: String,
    pub created_at: DateTime<Utc>,
    pub stuck_for_seconds: i64,
    pub last_event_at: Option<DateTime<Utc>>,
    pub last_event_kind: Option<String>,
    /// Where it waits: targets of its unfinished jobs, nodes of its instances.
    pub nodes: Vec<String>,
    pub dispatched: bool,
    pub path: Path,
    pub next_command: String,
}

#[derive(Debug, Serialize)]
pub struct OrphanedLease {
    pub job_id: Uuid,
    pub deployment_id: Uuid,
    pub org_id: Uuid,
    pub deployment_status: String,
    pub kind: String,
    pub attempt: i32,
    pub max_attempts: i32,
    pub node_id: Option<Uuid>,
    pub node_name: Option<String>,
    pub node_status: Option<String>,
    pub node_heartbeat_age_seconds: Option<i64>,
    pub lease_expires_at: DateTime<Utc>,
    pub expired_for_seconds: i64,
    pub dispatched: bool,
    pub path: Path,
    pub next_command: String,
}

#[derive(Debug, Serialize)]
pub struct Snapshot {
    pub at: DateTime<Utc>,
    pub stuck_after_seconds: u64,
    pub grace_seconds: u64,
}

#[derive(Debug, Serialize)]
pub struct StuckReport {
    pub deployments_stuck: Vec<StuckDeployment>,
    pub leases_orphaned: Vec<OrphanedLease>,
    pub snapshot: Snapshot,
}

impl StuckReport {
    pub fn found_anything(&self) -> bool {
        !self.deployments_stuck.is_empty() || !self.leases_orphaned.is_empty()
    }
}

pub fn run(global: &GlobalArgs, args: &StuckArgs, output: &Output) -> Result<ExitCode> {
    let settings = Settings::from_options(&global.connect_options())?;
    let mut client = super::connect(&settings, crate::connect::DEFAULT_LOCK_TIMEOUT)?;
    let report = scan(&mut client, args)?;
    if output.json() {
        output::print_json(&report)?;
    } else {
        render(&report, args, output)?;
    }
    Ok(if args.exit_code && report.found_anything() {
        ExitCode::StuckFound
    } else {
        ExitCode::Done
    })
}

/// What an operator runs next for a deployment on `path`.
pub fn next_command(deployment: Uuid, path: Path) -> String {
    match path {
        Path::OperatorFailed | Path::TeardownRequested => {
            format!("pushleft-controller fail-safely {deployment} --reason \"<ticket and reason>\"")
        }
        Path::None => format!("pushleft-controller diagnose {deployment}"),
    }
}

/// Both scans in one READ ONLY REPEATABLE READ transaction: one instant.
pub fn scan(client: &mut Client, args: &StuckArgs) -> Result<StuckReport> {
    let mut tx = crate::snapshot::read_only_snapshot(client)?;
    let at: DateTime<Utc> = tx.query_one("SELECT now()", &[])?.get(0);
    let deployments = tx
        .query(STUCK_DEPLOYMENTS, &[&crate::duration::millis(args.for_)])
        .context("scanning for stuck deployments (sql/stuck_deployments.sql)")?;
    let leases = tx
        .query(STUCK_LEASES, &[&crate::duration::millis(args.grace)])
        .context("scanning for orphaned leases (sql/stuck_leases.sql)")?;
    tx.commit()?;

    let deployments_stuck = deployments
        .iter()
        .map(|row| {
            let id: Uuid = row.get("id");
            let status: String = row.get("status");
            let dispatched: bool = row.get("dispatched");
            let path = verdict::decide_path(DeploymentStatus::parse(&status), dispatched);
            StuckDeployment {
                deployment_id: id,
                org_id: row.get("org_id"),
                created_at: row.get("created_at"),
                stuck_for_seconds: row.get("stuck_for_seconds"),
                last_event_at: row.get("last_event_at"),
                last_event_kind: row.get("last_event_kind"),
                nodes: row.get("nodes"),
                dispatched,
                path,
                next_command: next_command(id, path),
                status,
            }
        })
        .collect();
    let leases_orphaned = leases
        .iter()
        .map(|row| {
            let deployment: Uuid = row.get("deployment_id");
            let status: String = row.get("deployment_status");
            let dispatched: bool = row.get("dispatched");
            let path = verdict::decide_path(DeploymentStatus::parse(&status), dispatched);
            OrphanedLease {
                job_id: row.get("job_id"),
                deployment_id: deployment,
                org_id: row.get("org_id"),
                kind: row.get("kind"),
                attempt: row.get("attempt"),
                max_attempts: row.get("max_attempts"),
                node_id: row.get("node_id"),
                node_name: row.get("node_name"),
                node_status: row.get("node_status"),
                node_heartbeat_age_seconds: row.get("node_heartbeat_age_seconds"),
                lease_expires_at: row.get("lease_expires_at"),
                expired_for_seconds: row.get("expired_for_seconds"),
                dispatched,
                path,
                next_command: next_command(deployment, path),
                deployment_status: status,
            }
        })
        .collect();
    Ok(StuckReport {
        deployments_stuck,
        leases_orphaned,
        snapshot: Snapshot {
            at,
            stuck_after_seconds: args.for_.as_secs(),
            grace_seconds: args.grace.as_secs(),
        },
    })
}

/// The first 8 hex digits: enough to tell rows apart in a table; the next
/// command carries the full id.
fn short(id: Uuid) -> String {
    id.simple().to_string()[..8].to_string()
}

fn secs(duration: Duration) -> i64 {
    i64::try_from(duration.as_secs()).unwrap_or(i64::MAX)
}

fn render(report: &StuckReport, args: &StuckArgs, output: &Output) -> Result<()> {
    let mut text = String::new();
    text.push_str(&output.paint(
        &format!(
            "Stuck deployments (in flight, no event for {} or more): {}",
            duration::human(secs(args.for_)),
            report.deployments_stuck.len()
        ),
        Paint::Bold,
    ));
    text.push('\n');
    if !report.deployments_stuck.is_empty() {
        let mut table = output.table(&[
            "deployment",
            "org",
            "status",
            "stuck for",
            "last event",
            "nodes",
            "path",
            "next",
        ]);
        for d in &report.deployments_stuck {
            let last_event = match (&d.last_event_kind, d.last_event_at) {
                (Some(kind), Some(_)) => kind.clone(),
                _ => "none (since creation)".to_string(),
            };
            table.add_row(vec![
                output.cell(short(d.deployment_id), false),
                output.cell(short(d.org_id), false),
                output.cell(&d.status, false),
                output.cell(duration::human(d.stuck_for_seconds), true),
                output.cell(last_event, false),
                output.cell(d.nodes.join(", "), false),
                output.cell(d.path.as_str(), false),
                output.cell(&d.next_command, false),
            ]);
        }
        text.push_str(&table.to_string());
        text.push('\n');
    }
    text.push('\n');
    text.push_str(&output.paint(
        &format!(
            "Orphaned leases (expired more than {} ago, not reclaimed): {}",
            duration::human(secs(args.grace)),
            report.leases_orphaned.len()
        ),
        Paint::Bold,
    ));
    text.push('\n');
    if !report.leases_orphaned.is_empty() {
        let mut table = output.table(&[
            "job",
            "deployment",
            "org",
            "status",
            "kind",
            "node",
            "expired for",
            "path",
            "next",
        ]);
        for l in &report.leases_orphaned {
            let node = match (&l.node_name, l.node_heartbeat_age_seconds) {
                (Some(name), Some(age)) => format!("{name} (seen {})", duration::ago(age)),
                (Some(name), None) => format!("{name} (never seen)"),
                _ => "-".to_string(),
            };
            table.add_row(vec![
                output.cell(short(l.job_id), false),
                output.cell(short(l.deployment_id), false),
                output.cell(short(l.org_id), false),
                output.cell(&l.deployment_status, false),
                output.cell(&l.kind, false),
                output.cell(node, false),
                output.cell(duration::human(l.expired_for_seconds), true),
                output.cell(l.path.as_str(), false),
                output.cell(&l.next_command, false),
            ]);
        }
        text.push_str(&table.to_string());
        text.push('\n');
    }
    output::print(&text)?;
    if report.found_anything() {
        output::note(
            "Look before you act: `pushleft-controller diagnose <deployment>` shows the evidence; \
             fail-safely decides the path again under row locks and asks before it writes.",
        );
    }
    Ok(())
}
