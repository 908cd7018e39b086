//! `fleet list`'s read: every node, its heartbeat age and the capacity in
//! use, from one statement in one read-only snapshot.

use std::time::Duration;

use anyhow::{Context, Result, anyhow};
use postgres::fallible_iterator::FallibleIterator;
use postgres::types::ToSql;

use super::columns::Columns;
use super::session::Session;
use super::snapshot::{node_from, read_info};
use super::sql::{self, Conn, Schema};
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
        let values: [&(dyn ToSql + Sync); 4] = [
            &self.filter.pool,
            &status,
            &self.filter.stale_only,
            &stale_after,
        ];
        let mut rows = statement
            .query_stream(client, self.schema, &values)
            .context("listing the fleet's nodes (sql/fleet/list.sql)")?;
        let mut first = None;
        let mut nodes = Vec::new();
        while let Some(row) = rows
            .next()
            .context("listing the fleet's nodes (sql/fleet/list.sql)")?
        {
            if first.is_none() {
                first = Some(read_info(&row)?);
            }
            // The one row of an empty fleet has no node.
            if row.col::<Option<uuid::Uuid>>("id")?.is_none() {
                continue;
            }
            nodes.push(FleetNode {
                region: None,
                node: node_from(&row)?,
                stale: row.col("stale")?,
                slots_used: row.col("slots_used")?,
                instances: row.col("instances")?,
            });
        }
        let server = first.ok_or_else(|| anyhow!("sql/fleet/list.sql returned no row"))?;
        let list = FleetList {
            regions: None,
            nodes,
            snapshot: FleetScanInfo {
                at: server.at,
                in_recovery: server.in_recovery,
                replay_lag_seconds: server.replay_lag_seconds,
                stale_after_seconds: self.stale_after.as_secs(),
                row_security: server.row_security,
            },
        };
        Ok(list)
    }
}
