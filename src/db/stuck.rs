//! `stuck`'s read: the fleet-wide scan the alerts describe,
//! `deployment_stuck` and `job_lease_orphaned`, in one read-only snapshot;
//! each row with the break-glass path and the next command.

use std::time::Duration;

use std::collections::BTreeSet;

use anyhow::{Context, Result};
use serde_json::Value;
use uuid::Uuid;

use super::columns::{Columns, RowReader, json_rows};
use super::session::{Arg, Session, Step};
use super::snapshot::read_info;
use super::sql::{self, Schema};
use crate::decide::stuck_advice;
use crate::duration::millis;
use crate::model::clock::{CLOCK_SKEW_TOLERANCE, ClockSkew};
use crate::model::stuck::{OrphanedLease, StuckDeployment, StuckReport, StuckScanInfo};
use crate::model::warning::push_unique;
use crate::model::{DeploymentStatus, InstanceStatus, JobKind, JobStatus, NodeStatus, Warning};

/// The thresholds of the two alerts.
#[derive(Debug, Clone, Copy)]
pub struct StuckThresholds {
    /// In flight with no event for this long is stuck.
    pub stuck_after: Duration,
    /// A lease expired longer ago than this is orphaned.
    pub grace: Duration,
}

fn stuck_deployment(row: &impl Columns, w: &mut Vec<Warning>) -> Result<StuckDeployment> {
    let mut r = RowReader::new(row, "deployments", "id", w)?;
    let id: Uuid = r.col("id")?;
    let status: DeploymentStatus = r.required("status")?;
    let org_id = r.or_unknown("org_id")?;
    let created_at = r.required("created_at")?;
    let last_event_id: Option<Uuid> = r.col("last_event_id")?;
    let last_event_at: Option<chrono::DateTime<chrono::Utc>> = r.col("last_event_at")?;
    let last_event_kind: Option<String> = r.col("last_event_kind")?;
    // NULL when the last activity is unknown (the warnings say why).
    let stuck_for_seconds = r
        .col::<Option<i64>>("stuck_for_seconds")?
        .unwrap_or(0)
        .max(0);
    let dispatched: bool = r.col("dispatched")?;
    let waits_on: Value = r.col("waits_on")?;
    let jobs_seen: Option<Value> = r.col("jobs_seen")?;
    let instances_seen: Option<Value> = r.col("instances_seen")?;
    if let Some(event) = last_event_id.map(|e| e.to_string()) {
        if last_event_at.is_none() {
            r.null("deployment_events", "occurred_at", &event);
        }
        if last_event_kind.is_none() {
            r.null("deployment_events", "kind", &event);
        }
    }
    let (nodes, pools) = waits(&waits_on, w)?;
    let known =
        odd_rows(jobs_seen.as_ref(), instances_seen.as_ref(), w)? == 0 && !status.is_unknown();
    let advice = if known {
        stuck_advice::for_stuck_deployment(id, &status, dispatched)
    } else {
        stuck_advice::for_undecided(id)
    };
    Ok(StuckDeployment {
        region: None,
        deployment_id: id,
        org_id,
        status,
        created_at,
        stuck_for_seconds,
        last_event_at,
        last_event_kind,
        nodes,
        pools,
        dispatched,
        path: advice.path,
        responsible: advice.responsible,
        next_command: advice.next_command,
        next_step: advice.next_step,
    })
}

/// The nodes a deployment waits on and their pools, by name; a node whose
/// name is NULL shows as its id, a NULL pool is left out; each a warning.
fn waits(waits_on: &Value, w: &mut Vec<Warning>) -> Result<(Vec<String>, Vec<String>)> {
    let mut nodes = BTreeSet::new();
    let mut pools = BTreeSet::new();
    json_rows(Some(waits_on), |row| {
        let mut r = RowReader::new(row, "fleet_nodes", "id", w)?;
        let name: Option<String> = r.or_unknown("name")?;
        let pool: Option<String> = r.or_unknown("pool")?;
        nodes.insert(name.unwrap_or_else(|| r.id().to_string()));
        pools.extend(pool);
        Ok(())
    })?;
    Ok((nodes.into_iter().collect(), pools.into_iter().collect()))
}

/// Warnings for the jobs and instances of a stuck deployment whose kind or
/// status the model does not know (or is NULL); how many there were.
fn odd_rows(
    jobs: Option<&Value>,
    instances: Option<&Value>,
    w: &mut Vec<Warning>,
) -> Result<usize> {
    let mut found = Vec::new();
    json_rows(jobs, |row| {
        let id = row
            .col::<Option<Uuid>>("id")?
            .unwrap_or_default()
            .to_string();
        let kind: JobKind = row.col::<Option<JobKind>>("kind")?.unwrap_or(JobKind::Null);
        let status = row
            .col::<Option<JobStatus>>("status")?
            .unwrap_or(JobStatus::Null);
        found.extend(Warning::of_status("jobs", "kind", &id, &kind));
        found.extend(Warning::of_status("jobs", "status", &id, &status));
        Ok(())
    })?;
    json_rows(instances, |row| {
        let id = row
            .col::<Option<Uuid>>("id")?
            .unwrap_or_default()
            .to_string();
        let status = row
            .col::<Option<InstanceStatus>>("status")?
            .unwrap_or(InstanceStatus::Null);
        found.extend(Warning::of_status(
            "application_instances",
            "status",
            &id,
            &status,
        ));
        Ok(())
    })?;
    let n = found.len();
    for warning in found {
        push_unique(w, warning);
    }
    Ok(n)
}

fn orphaned_lease(row: &impl Columns, w: &mut Vec<Warning>) -> Result<OrphanedLease> {
    let mut d = RowReader::new(row, "deployments", "deployment_id", w)?;
    let deployment: Uuid = d.col("deployment_id")?;
    let org_id = d.or_unknown("org_id")?;
    let status: DeploymentStatus = d.required_as("deployment_status", "status")?;
    let deployment_text = deployment.to_string();
    w.extend(
        Warning::of_status("deployments", "status", &deployment_text, &status)
            .filter(|_| !status.is_null()),
    );
    let mut r = RowReader::new(row, "jobs", "job_id", w)?;
    let kind: JobKind = r.required("kind")?;
    let attempt = r.required("attempt")?;
    let max_attempts = r.required("max_attempts")?;
    let job_id: Uuid = r.col("job_id")?;
    let node_id: Option<Uuid> = r.col("node_id")?;
    let lease_expires_at = r.required("lease_expires_at")?;
    let expired_for_seconds = r.required::<i64>("expired_for_seconds")?.max(0);
    // Ahead of the server's clock: seen just now (the skew is a warning).
    let node_heartbeat_age_seconds = r
        .col::<Option<i64>>("node_heartbeat_age_seconds")?
        .map(|age| age.max(0));
    let (node_name, node_status, node_pool) = lease_node(row, node_id, w)?;
    if !kind.is_null() {
        w.extend(Warning::of_status(
            "jobs",
            "kind",
            &job_id.to_string(),
            &kind,
        ));
    }
    let advice = stuck_advice::for_orphaned_lease(deployment, &status, true);
    Ok(OrphanedLease {
        region: None,
        job_id,
        deployment_id: deployment,
        org_id,
        deployment_status: status,
        kind,
        attempt,
        max_attempts,
        node_id,
        node_name,
        node_status,
        node_pool,
        node_heartbeat_age_seconds,
        lease_expires_at,
        expired_for_seconds,
        // Dispatched by definition: the job has a lease.
        dispatched: true,
        path: advice.path,
        responsible: advice.responsible,
        next_command: advice.next_command,
        next_step: advice.next_step,
    })
}

type LeaseNode = (Option<String>, Option<NodeStatus>, Option<String>);

/// The node an orphaned lease's job targets (none: no target); a NULL
/// name, status or pool of that node is a warning.
fn lease_node(
    row: &impl Columns,
    node_id: Option<Uuid>,
    w: &mut Vec<Warning>,
) -> Result<LeaseNode> {
    let Some(node_id) = node_id else {
        return Ok((None, None, None));
    };
    let mut r = RowReader::with_id(row, "fleet_nodes", node_id.to_string(), w);
    let name = r.or_unknown_as("node_name", "name")?;
    let status: NodeStatus = r.required_as("node_status", "status")?;
    let pool = r.or_unknown_as("node_pool", "pool")?;
    if !status.is_null() {
        w.extend(Warning::of_status(
            "fleet_nodes",
            "status",
            &node_id.to_string(),
            &status,
        ));
    }
    Ok((name, Some(status), pool))
}

/// A row of `clock_skew_rows`: an in-flight deployment's last event (or
/// creation) or a node's heartbeat ahead of the server's clock.
fn clock_skew(row: &impl Columns) -> Result<ClockSkew> {
    let of: String = row.col("of")?;
    let at = row.col("at")?;
    let ahead: i64 = row.col("ahead_seconds")?;
    let deployment: Option<Uuid> = row.col("deployment_id")?;
    let sequence: Option<i64> = row.col("sequence")?;
    Ok(match (of.as_str(), deployment, sequence) {
        ("event", Some(d), Some(n)) => ClockSkew::event(d, n, at, ahead),
        ("created", Some(d), _) => ClockSkew::created(d, at, ahead),
        _ => {
            let node: Option<String> = row.col("node")?;
            ClockSkew::heartbeat(node.as_deref().unwrap_or("NULL"), at, ahead)
        }
    })
}

/// Both scans in one statement, sent in one flight with its read-only
/// transaction's first message and COMMIT (`Session::flight`): one
/// instant, one round trip. On a schema without the indexes the statement
/// probes, it reads nothing, and the variant that reads every table once
/// runs in a flight of its own (a second round trip, on such a schema
/// only; why there are two statements: the top of both files).
pub fn scan(
    session: &mut Session,
    schema: &Schema,
    thresholds: StuckThresholds,
) -> Result<StuckReport> {
    let values = || -> Vec<Arg> {
        vec![
            Box::new(millis(thresholds.stuck_after)),
            Box::new(millis(thresholds.grace)),
            Box::new(schema.name().to_string()),
            Box::new(millis(CLOCK_SKEW_TOLERANCE)),
        ]
    };
    let read = |session: &mut Session, statement: &sql::Statement| -> Result<postgres::Row> {
        session
            .read_in_flight(vec![Step::of(statement, schema, values())])?
            .into_iter()
            .flatten()
            .next()
            .with_context(|| format!("sql/{} returned no row", statement.path))
            .with_context(|| format!("scanning (sql/{})", statement.path))
    };
    let probed = read(session, &sql::stuck::SCAN)?;
    let row = if probed.col::<bool>("indexed")? {
        probed
    } else {
        read(session, &sql::stuck::SCAN_WITHOUT_INDEXES)?
    };
    let server = read_info(&row)?;
    let deployments: Option<Value> = row.col("stuck_rows")?;
    let leases: Option<Value> = row.col("orphaned_rows")?;
    let skews: Option<Value> = row.col("clock_skew_rows")?;
    let mut warnings = Vec::new();
    let deployments_stuck =
        json_rows(deployments.as_ref(), |r| stuck_deployment(r, &mut warnings))?;
    let leases_orphaned = json_rows(leases.as_ref(), |r| orphaned_lease(r, &mut warnings))?;
    Ok(StuckReport {
        regions: None,
        deployments_stuck,
        leases_orphaned,
        snapshot: StuckScanInfo {
            at: server.at,
            in_recovery: server.in_recovery,
            replay_lag_seconds: server.replay_lag_seconds,
            replay_paused: server.replay_paused,
            stuck_after_seconds: thresholds.stuck_after.as_secs(),
            grace_seconds: thresholds.grace.as_secs(),
            row_security: server.row_security,
            row_security_policies: server.row_security_policies,
            role: server.role,
        },
        groups: None,
        left_out: None,
        warnings,
        clock_skew: json_rows(skews.as_ref(), clock_skew)?,
        cannot_vouch: None,
        cannot_tell: Vec::new(),
        listing: None,
    })
}
