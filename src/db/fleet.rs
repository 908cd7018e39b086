//! `fleet list`'s read: every node, its heartbeat age and the capacity in
//! use, from one statement in one read-only snapshot.

use std::time::Duration;

use anyhow::{Context, Result, anyhow};
use postgres::fallible_iterator::FallibleIterator;
use postgres::types::ToSql;

use super::columns::{Columns, RowReader};
use super::session::Session;
use super::snapshot::{node_from, read_info};
use super::sql::{self, Conn, Schema};
use crate::decide::edges;
use crate::duration::millis;
use crate::model::fleet::{FleetList, FleetNode, FleetScanInfo};
use crate::model::{AllocationStatus, NodeStatus, Warning};

/// Which nodes to list.
#[derive(Debug, Clone, Default)]
pub struct FleetFilter {
    pub pool: Option<String>,
    pub status: Option<NodeStatus>,
    pub stale_only: bool,
}

/// The fleet as of one instant: one statement in a pinned read-only
/// transaction (`Session::read`). The rows are made into nodes as they
/// arrive, so a fleet of 50,000 is never held twice.
pub fn list(
    session: &mut Session,
    schema: &Schema,
    filter: &FleetFilter,
    stale_after: Duration,
) -> Result<FleetList> {
    session.read(|tx| {
        FleetRead {
            schema,
            filter,
            stale_after,
        }
        .run(tx)
    })
}

struct FleetRead<'a> {
    schema: &'a Schema,
    filter: &'a FleetFilter,
    stale_after: Duration,
}

impl FleetRead<'_> {
    fn run(&self, client: &mut impl Conn) -> Result<FleetList> {
        let status = self.filter.status.as_ref().map(NodeStatus::as_str);
        let stale_after = millis(self.stale_after);
        let statement = &sql::fleet::LIST;
        let values: [&(dyn ToSql + Sync); 5] = [
            &self.filter.pool,
            &status,
            &self.filter.stale_only,
            &stale_after,
            &self.schema.name(),
        ];
        let mut rows = statement
            .query_stream(client, self.schema, &values)
            .context("listing the fleet's nodes (sql/fleet/list.sql)")?;
        let mut first = None;
        let mut checked = true;
        let mut nodes = Vec::new();
        let mut warnings = Vec::new();
        while let Some(row) = rows
            .next()
            .context("listing the fleet's nodes (sql/fleet/list.sql)")?
        {
            if first.is_none() {
                first = Some(read_info(&row)?);
                checked = row.col("allocations_checked")?;
            }
            // The one row of an empty fleet has no node.
            if row.col::<Option<uuid::Uuid>>("id")?.is_none() {
                continue;
            }
            let node = node_from(&row, &mut warnings)?;
            let id = node.id.to_string();
            warnings.extend(Warning::of_status(
                "fleet_nodes",
                "status",
                &id,
                &node.status,
            ));
            nodes.push(FleetNode {
                region: None,
                node,
                stale: row.col("stale")?,
                slots_used: row.col("slots_used")?,
                instances: row.col("instances")?,
            });
        }
        drop(rows);
        let server = first.ok_or_else(|| anyhow!("sql/fleet/list.sql returned no row"))?;
        if !checked {
            self.count_odd_allocations(client, &mut nodes, &mut warnings)?;
        }
        let clock_skew = edges::of_nodes(nodes.iter().map(|n| &n.node), server.at);
        let list = FleetList {
            clock_skew,
            regions: None,
            nodes,
            snapshot: FleetScanInfo {
                at: server.at,
                in_recovery: server.in_recovery,
                replay_lag_seconds: server.replay_lag_seconds,
                replay_paused: server.replay_paused,
                stale_after_seconds: self.stale_after.as_secs(),
                row_security: server.row_security,
            },
            warnings,
        };
        Ok(list)
    }

    /// The allocations in a status this tool does not know hold their
    /// slot until they say otherwise: counted as used, each with a note.
    fn count_odd_allocations(
        &self,
        client: &mut impl Conn,
        nodes: &mut [FleetNode],
        warnings: &mut Vec<Warning>,
    ) -> Result<()> {
        let rows = sql::fleet::ODD_ALLOCATIONS
            .query(client, self.schema, &[])
            .context(
                "reading the allocations in an unknown state (sql/fleet/odd_allocations.sql)",
            )?;
        for row in &rows {
            let mut found = Vec::new();
            let mut r = RowReader::new(row, "fleet_allocations", "id", &mut found)?;
            let node_id: Option<uuid::Uuid> = r.or_unknown("node_id")?;
            let status: AllocationStatus = r.required("status")?;
            let id = r.id().to_string();
            let node = node_id.and_then(|n| nodes.iter_mut().find(|f| f.node.id == n));
            let Some(node) = node else {
                // Another node than the listed ones (a filter), or none.
                if node_id.is_none() {
                    warnings.append(&mut found);
                }
                continue;
            };
            node.slots_used += 1;
            let counted = format!(
                ": counted as holding a slot of node {} (only `released` frees one)",
                node.node.name
            );
            let warning =
                Warning::of_status("fleet_allocations", "status", &id, &status).map(|w| {
                    let said = w.message.split("; it is shown").next().unwrap_or_default();
                    let message = format!("{said}{counted}");
                    w.saying(message)
                });
            warnings.extend(warning);
        }
        Ok(())
    }
}
