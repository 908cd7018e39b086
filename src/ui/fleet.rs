//! `fleet list` on the screen.

use anyhow::Result;

use super::output::{self, Output};
use crate::duration;
use crate::model::NodeStatus;
use crate::model::fleet::FleetList;

pub fn render(fleet: &FleetList, output: &Output) -> Result<()> {
    if fleet.nodes.is_empty() {
        output::note("No node matches the filters.");
        return Ok(());
    }
    output::print(&table(fleet, output))?;
    output::note(&summary(fleet));
    Ok(())
}

/// One line: nodes, stale ones, slots in use.
pub fn summary(fleet: &FleetList) -> String {
    let stale = fleet.nodes.iter().filter(|n| n.stale).count();
    let used: i64 = fleet.nodes.iter().map(|n| n.slots_used).sum();
    let total: i64 = fleet.nodes.iter().map(|n| i64::from(n.node.slots)).sum();
    format!(
        "{} nodes, {stale} stale (no heartbeat for {}); {used} of {total} slots in use.",
        fleet.nodes.len(),
        duration::human(i64::try_from(fleet.snapshot.stale_after_seconds).unwrap_or(i64::MAX)),
    )
}

/// The nodes as a table.
pub fn table(fleet: &FleetList, output: &Output) -> String {
    let mut table = output.table(&[
        "node",
        "pool",
        "status",
        "schedulable",
        "heartbeat",
        "slots used",
        "instances",
    ]);
    for row in &fleet.nodes {
        let node = &row.node;
        let heartbeat = match node.heartbeat_age_seconds {
            Some(age) if row.stale => format!("{} STALE", duration::ago(age)),
            Some(age) => duration::ago(age),
            None => "never STALE".to_string(),
        };
        table.add_row(vec![
            output.cell(&node.name, false),
            output.cell(&node.pool, false),
            output.cell(&node.status, node.status == NodeStatus::Offline),
            output.warn_cell(
                if node.schedulable { "yes" } else { "no" },
                !node.schedulable,
            ),
            output.cell(heartbeat, row.stale),
            output.warn_cell(
                format!("{}/{}", row.slots_used, node.slots),
                row.slots_used >= i64::from(node.slots),
            ),
            output.cell(row.instances, false),
        ]);
    }
    table.to_string()
}
