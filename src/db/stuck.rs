//! `stuck`'s read: the fleet-wide scan the alerts describe,
//! `deployment_stuck` and `job_lease_orphaned`, in one read-only snapshot;
//! each row with the break-glass path and the next command.

use std::time::Duration;

use anyhow::{Context, Result};
use postgres::types::ToSql;
use uuid::Uuid;

use super::columns::{Columns, json_rows};
use super::session::Session;
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

fn stuck_deployment(row: &impl Columns) -> Result<StuckDeployment> {
    let id: Uuid = row.col("id")?;
    let status: DeploymentStatus = row.col("status")?;
    let dispatched: bool = row.col("dispatched")?;
    let advice = scan::for_stuck_deployment(id, &status, dispatched);
    Ok(StuckDeployment {
        region: None,
        deployment_id: id,
        org_id: row.col("org_id")?,
        status,
        created_at: row.col("created_at")?,
        stuck_for_seconds: row.col("stuck_for_seconds")?,
        last_event_at: row.col("last_event_at")?,
        last_event_kind: row.col("last_event_kind")?,
        nodes: row.col("nodes")?,
        pools: row.col("pools")?,
        dispatched,
        path: advice.path,
        responsible: advice.responsible,
        next_command: advice.next_command,
        next_step: advice.next_step,
    })
}

fn orphaned_lease(row: &impl Columns) -> Result<OrphanedLease> {
    let deployment: Uuid = row.col("deployment_id")?;
    let status: DeploymentStatus = row.col("deployment_status")?;
    let dispatched: bool = row.col("dispatched")?;
    let advice = scan::for_orphaned_lease(deployment, &status, dispatched);
    Ok(OrphanedLease {
        region: None,
        job_id: row.col("job_id")?,
        deployment_id: deployment,
        org_id: row.col("org_id")?,
        deployment_status: status,
        kind: row.col("kind")?,
        attempt: row.col("attempt")?,
        max_attempts: row.col("max_attempts")?,
        node_id: row.col("node_id")?,
        node_name: row.col("node_name")?,
        node_status: row.col("node_status")?,
        node_pool: row.col("node_pool")?,
        node_heartbeat_age_seconds: row.col("node_heartbeat_age_seconds")?,
        lease_expires_at: row.col("lease_expires_at")?,
        expired_for_seconds: row.col("expired_for_seconds")?,
        dispatched,
        path: advice.path,
        responsible: advice.responsible,
        next_command: advice.next_command,
        next_step: advice.next_step,
    })
}

/// Both scans in one statement, in one pinned read-only transaction
/// (`Session::read`): one instant. On a schema without the indexes the
/// first statement probes, it reads nothing and the variant that reads
/// every table once runs in the same snapshot.
pub fn scan(
    session: &mut Session,
    schema: &Schema,
    thresholds: StuckThresholds,
) -> Result<StuckReport> {
    let stuck_after = millis(thresholds.stuck_after);
    let grace = millis(thresholds.grace);
    let values: [&(dyn ToSql + Sync); 3] = [&stuck_after, &grace, &schema.name()];
    let row = session.read(|tx| {
        let row = sql::stuck::SCAN
            .query_one(tx, schema, &values)
            .context("scanning (sql/stuck/scan.sql)")?;
        if row.col::<bool>("indexed")? {
            return Ok(row);
        }
        sql::stuck::SCAN_WITHOUT_INDEXES
            .query_one(tx, schema, &values)
            .context("scanning (sql/stuck/scan_without_indexes.sql)")
    })?;
    let server = read_info(&row)?;
    let deployments: Option<serde_json::Value> = row.col("stuck_rows")?;
    let leases: Option<serde_json::Value> = row.col("orphaned_rows")?;
    Ok(StuckReport {
        regions: None,
        deployments_stuck: json_rows(deployments.as_ref(), stuck_deployment)?,
        leases_orphaned: json_rows(leases.as_ref(), orphaned_lease)?,
        snapshot: StuckScanInfo {
            at: server.at,
            in_recovery: server.in_recovery,
            replay_lag_seconds: server.replay_lag_seconds,
            stuck_after_seconds: thresholds.stuck_after.as_secs(),
            grace_seconds: thresholds.grace.as_secs(),
            row_security: server.row_security,
        },
        groups: None,
        left_out: None,
    })
}
