//! `stuck`'s read: the fleet-wide scan the alerts describe,
//! `deployment_stuck` and `job_lease_orphaned`, in one read-only snapshot;
//! each row with the break-glass path and the next command.

use std::time::Duration;

use anyhow::{Context, Result};
use postgres::{Client, Row};
use uuid::Uuid;

use super::session::with_snapshot;
use super::snapshot::read_info;
use super::sql::{self, Schema};
use crate::decide::scan;
use crate::duration::millis;
use crate::model::DeploymentStatus;
use crate::model::stuck::{OrphanedLease, StuckDeployment, StuckReport, StuckScanInfo};

/// The thresholds of the two alerts.
#[derive(Debug, Clone, Copy)]
pub struct StuckThresholds {
    /// In flight with no event for this long is stuck.
    pub stuck_after: Duration,
    /// A lease expired longer ago than this is orphaned.
    pub grace: Duration,
}

fn stuck_deployment(row: &Row) -> StuckDeployment {
    let id: Uuid = row.get("id");
    let status: DeploymentStatus = row.get("status");
    let dispatched: bool = row.get("dispatched");
    let advice = scan::for_stuck_deployment(id, &status, dispatched);
    StuckDeployment {
        region: None,
        deployment_id: id,
        org_id: row.get("org_id"),
        status,
        created_at: row.get("created_at"),
        stuck_for_seconds: row.get("stuck_for_seconds"),
        last_event_at: row.get("last_event_at"),
        last_event_kind: row.get("last_event_kind"),
        nodes: row.get("nodes"),
        pools: row.get("pools"),
        dispatched,
        path: advice.path,
        responsible: advice.responsible,
        next_command: advice.next_command,
        next_step: advice.next_step,
    }
}

fn orphaned_lease(row: &Row) -> OrphanedLease {
    let deployment: Uuid = row.get("deployment_id");
    let status: DeploymentStatus = row.get("deployment_status");
    let dispatched: bool = row.get("dispatched");
    let advice = scan::for_orphaned_lease(deployment, &status, dispatched);
    OrphanedLease {
        region: None,
        job_id: row.get("job_id"),
        deployment_id: deployment,
        org_id: row.get("org_id"),
        deployment_status: status,
        kind: row.get("kind"),
        attempt: row.get("attempt"),
        max_attempts: row.get("max_attempts"),
        node_id: row.get("node_id"),
        node_name: row.get("node_name"),
        node_status: row.get("node_status"),
        node_pool: row.get("node_pool"),
        node_heartbeat_age_seconds: row.get("node_heartbeat_age_seconds"),
        lease_expires_at: row.get("lease_expires_at"),
        expired_for_seconds: row.get("expired_for_seconds"),
        dispatched,
        path: advice.path,
        responsible: advice.responsible,
        next_command: advice.next_command,
        next_step: advice.next_step,
    }
}

/// Both scans in one READ ONLY REPEATABLE READ transaction: one instant.
pub fn scan(
    client: &mut Client,
    schema: &Schema,
    thresholds: StuckThresholds,
) -> Result<StuckReport> {
    with_snapshot(client, |tx, at| {
        let deployments = tx
            .query(
                &sql::stuck::DEPLOYMENTS.sql(schema),
                &[&millis(thresholds.stuck_after)],
            )
            .context("scanning for stuck deployments (sql/stuck/deployments.sql)")?;
        let leases = tx
            .query(
                &sql::stuck::LEASES.sql(schema),
                &[&millis(thresholds.grace)],
            )
            .context("scanning for orphaned leases (sql/stuck/leases.sql)")?;
        let server = read_info(&tx.query_one(sql::diagnose::SERVER.text, &[])?);
        Ok(StuckReport {
            regions: None,
            deployments_stuck: deployments.iter().map(stuck_deployment).collect(),
            leases_orphaned: leases.iter().map(orphaned_lease).collect(),
            snapshot: StuckScanInfo {
                at,
                in_recovery: server.in_recovery,
                replay_lag_seconds: server.replay_lag_seconds,
                stuck_after_seconds: thresholds.stuck_after.as_secs(),
                grace_seconds: thresholds.grace.as_secs(),
            },
            groups: None,
            left_out: None,
        })
    })
}
