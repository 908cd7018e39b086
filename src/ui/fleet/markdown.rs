//! `fleet list -o markdown`: the ticket's table of the nodes, beside the
//! screen's: each node with its pool, status, heartbeat and the capacity
//! in use, then the stale count and the footer.

use crate::duration;
use crate::model::fleet::FleetList;
use crate::ui::markdown::{Md, at, escape, footer, table};

/// `fleet list -o markdown`.
pub fn fleet(fleet: &FleetList) -> String {
    let stale = fleet.nodes.iter().filter(|n| n.stale).count();
    let mut out = format!("### Fleet: {} nodes, {stale} stale\n\n", fleet.nodes.len());
    let regions = fleet.nodes.iter().any(|n| n.region.is_some());
    let mut headers = vec![
        "node",
        "pool",
        "status",
        "schedulable",
        "heartbeat",
        "last seen",
    ];
    headers.extend(["slots used", "instances"]);
    if regions {
        headers.insert(0, "region");
    }
    let rows: Vec<Vec<Md>> = fleet
        .nodes
        .iter()
        .map(|row| {
            let node = &row.node;
            let heartbeat = match node.heartbeat_age_seconds {
                Some(age) if row.stale => format!("{} STALE", duration::ago(age)),
                Some(age) => duration::ago(age),
                None => "never STALE".to_string(),
            };
            let mut cells = vec![
                Md::Text(node.name.clone()),
                Md::Text(node.pool.clone().unwrap_or_else(|| "NULL".to_string())),
                Md::code(&node.status),
                Md::Text(if node.schedulable { "yes" } else { "no" }.to_string()),
                Md::Text(heartbeat),
                Md::Text(node.last_seen_at.map_or_else(|| "—".to_string(), at)),
                Md::Text(format!("{}/{}", row.slots_used, node.slots)),
                Md::Text(row.instances.to_string()),
            ];
            if regions {
                cells.insert(0, Md::Text(row.region.clone().unwrap_or_default()));
            }
            cells
        })
        .collect();
    if rows.is_empty() {
        out.push_str("No node matches the filters.\n");
    } else {
        out.push_str(&table(&headers, &rows));
    }
    out.push_str(&format!(
        "\n{}\n",
        escape(&format!(
            "Stale: no heartbeat for {}.",
            duration::human(i64::try_from(fleet.snapshot.stale_after_seconds).unwrap_or(i64::MAX))
        ))
    ));
    out.push_str(&footer(fleet.snapshot.at));
    out
}
