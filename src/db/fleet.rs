//! `fleet list`'s read: every node, its heartbeat age and the capacity in
//! use, from one query in one read-only snapshot.

use std::time::Duration;

use anyhow::{Context, Result};
use postgres::Client;

use super::session::with_snapshot;
use super::snapshot::{node_from, read_info};
use super::sql::{self, Schema};
use crate::duration::millis;
use crate::model::NodeStatus;
use crate::model::fleet::{FleetList, FleetNode, FleetScanInfo};

/// Which nodes to list.
#[derive(Debug, Clone, Default)]
pub struct FleetFilter {
    pub pool: Option<String>,
    pub status: Option<NodeStatus>,
    pub stale_only: bool,
}

/// The fleet as of one instant.
pub fn list(
    client: &mut Client,
    schema: &Schema,
    filter: &FleetFilter,
    stale_after: Duration,
) -> Result<FleetList> {
    with_snapshot(client, |tx, at| {
        let status = filter.status.as_ref().map(NodeStatus::as_str);
        let rows = tx
            .query(
                &sql::fleet::LIST.sql(schema),
                &[
                    &filter.pool,
                    &status,
                    &filter.stale_only,
                    &millis(stale_after),
                ],
            )
            .context("listing the fleet's nodes (sql/fleet/list.sql)")?;
        let server = read_info(&tx.query_one(sql::diagnose::SERVER.text, &[])?);
        let nodes = rows
            .iter()
            .map(|row| FleetNode {
                region: None,
                node: node_from(row),
                stale: row.get("stale"),
                slots_used: row.get("slots_used"),
                instances: row.get("instances"),
            })
            .collect();
        Ok(FleetList {
            regions: None,
            nodes,
            snapshot: FleetScanInfo {
                at,
                in_recovery: server.in_recovery,
                replay_lag_seconds: server.replay_lag_seconds,
                stale_after_seconds: stale_after.as_secs(),
            },
        })
    })
}
