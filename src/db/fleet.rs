//! `fleet list`'s read: every node, its heartbeat age and the capacity in
//! use, from one statement in one read-only snapshot.

use std::time::Duration;

use anyhow::{Context, Result, anyhow};
use postgres::fallible_iterator::FallibleIterator;

use super::columns::{Columns, RowReader};
use super::session::{Arg, Session, Step};
use super::snapshot::{node_from, read_info};
use super::sql::{self, Rows, Schema};
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

/// The fleet as of one instant: one statement sent in one flight with its
/// read-only transaction's first message and COMMIT (`Session::flight`),
/// one round trip. The rows are made into nodes as they arrive, so a
/// fleet of 50,000 is never held twice. On a schema whose catalog lets an
/// allocation's status hold any value, the allocations in a status this
/// tool does not know are read in a flight of their own (a second round
/// trip, on such a schema only).
pub fn list(
    session: &mut Session,
    schema: &Schema,
    filter: &FleetFilter,
    stale_after: Duration,
) -> Result<FleetList> {
    let read = FleetRead {
        schema,
        filter,
        stale_after,
    };
    let mut flight = session.flight(vec![read.step()])?;
    let (mut list, checked) = read.run(flight.stream().context(LISTING)?)?;
    flight.finish()?;
    if !checked {
        read.count_odd_allocations(session, &mut list)?;
    }
    Ok(list)
}

const LISTING: &str = "listing the fleet's nodes (sql/fleet/list.sql)";

struct FleetRead<'a> {
    schema: &'a Schema,
    filter: &'a FleetFilter,
    stale_after: Duration,
}

impl FleetRead<'_> {
    fn step(&self) -> Step {
        let status = self.filter.status.as_ref().map(|s| s.as_str().to_string());
        let values: Vec<Arg> = vec![
            Box::new(self.filter.pool.clone()),
            Box::new(status),
            Box::new(self.filter.stale_only),
            Box::new(millis(self.stale_after)),
            Box::new(self.schema.name().to_string()),
        ];
        Step::of(&sql::fleet::LIST, self.schema, values)
    }

    /// The list from its rows, and whether the catalog rules out
    /// allocations in a status this tool does not know.
    fn run(&self, mut rows: Rows<'_>) -> Result<(FleetList, bool)> {
        let mut first = None;
        let mut checked = true;
        let mut nodes = Vec::new();
        let mut warnings = Vec::new();
        while let Some(row) = rows.next().context(LISTING)? {
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
        Ok((list, checked))
    }

    /// The allocations in a status this tool does not know hold their
    /// slot until they say otherwise: counted as used, each with a note.
    fn count_odd_allocations(&self, session: &mut Session, list: &mut FleetList) -> Result<()> {
        let rows: Vec<postgres::Row> = session
            .read_in_flight(vec![Step::of(
                &sql::fleet::ODD_ALLOCATIONS,
                self.schema,
                Vec::new(),
            )])
            .context("reading the allocations in an unknown state (sql/fleet/odd_allocations.sql)")?
            .into_iter()
            .flatten()
            .collect();
        let (nodes, warnings) = (&mut list.nodes, &mut list.warnings);
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
