//! `fleet list`: every node, its heartbeat age and the capacity in use, from
//! one read-only query. How the operator sees capacity drop after a
//! teardown (the runbook's Verification).

use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use postgres::Client;
use serde::Serialize;
use uuid::Uuid;

use crate::cli::{FleetCommand, FleetListArgs, GlobalArgs, NodeStatus};
use crate::connect::Settings;
use crate::duration;
use crate::exit::ExitCode;
use crate::output::{self, Output};

pub const FLEET_LIST: &str = include_str!("../../sql/fleet_list.sql");

#[derive(Debug, Serialize)]
pub struct Node {
    pub id: Uuid,
    pub name: String,
    pub pool: String,
    pub status: String,
    pub schedulable: bool,
    pub last_seen_at: Option<DateTime<Utc>>,
    pub heartbeat_age_seconds: Option<i64>,
    pub stale: bool,
    pub slots: i32,
    pub slots_used: i64,
    pub instances: i64,
}

#[derive(Debug, Serialize)]
pub struct Snapshot {
    pub at: DateTime<Utc>,
    pub stale_after_seconds: u64,
}

#[derive(Debug, Serialize)]
pub struct FleetList {
    pub nodes: Vec<Node>,
    pub snapshot: Snapshot,
}

pub fn run(global: &GlobalArgs, command: &FleetCommand, output: &Output) -> Result<ExitCode> {
    match command {
        FleetCommand::List(args) => list(global, args, output),
    }
}

fn list(global: &GlobalArgs, args: &FleetListArgs, output: &Output) -> Result<ExitCode> {
    let settings = Settings::from_options(&global.connect_options())?;
    let mut client = super::connect(&settings, crate::connect::DEFAULT_LOCK_TIMEOUT)?;
    let fleet = query(&mut client, args)?;
    if output.json() {
        output::print_json(&fleet)?;
    } else {
        render(&fleet, args, output)?;
    }
    Ok(ExitCode::Done)
}

fn status_name(status: NodeStatus) -> &'static str {
    match status {
        NodeStatus::Online => "online",
        NodeStatus::Draining => "draining",
        NodeStatus::Offline => "offline",
    }
}

/// The fleet as of one instant, in a READ ONLY transaction.
pub fn query(client: &mut Client, args: &FleetListArgs) -> Result<FleetList> {
    let mut tx = crate::snapshot::read_only_snapshot(client)?;
    let at: DateTime<Utc> = tx.query_one("SELECT now()", &[])?.get(0);
    let rows = tx
        .query(
            FLEET_LIST,
            &[
                &args.pool,
                &args.status.map(status_name),
                &args.stale,
                &crate::duration::millis(args.stale_after),
            ],
        )
        .context("listing the fleet's nodes (sql/fleet_list.sql)")?;
    tx.commit()?;
    let nodes = rows
        .iter()
        .map(|row| Node {
            id: row.get("id"),
            name: row.get("name"),
            pool: row.get("pool"),
            status: row.get("status"),
            schedulable: row.get("schedulable"),
            last_seen_at: row.get("last_seen_at"),
            heartbeat_age_seconds: row.get("heartbeat_age_seconds"),
            stale: row.get("stale"),
            slots: row.get("slots"),
            slots_used: row.get("slots_used"),
            instances: row.get("instances"),
        })
        .collect();
    Ok(FleetList {
        nodes,
        snapshot: Snapshot {
            at,
            stale_after_seconds: args.stale_after.as_secs(),
        },
    })
}

fn render(fleet: &FleetList, args: &FleetListArgs, output: &Output) -> Result<()> {
    if fleet.nodes.is_empty() {
        output::note("No node matches the filters.");
        return Ok(());
    }
    let mut table = output.table(&[
        "node",
        "pool",
        "status",
        "schedulable",
        "heartbeat",
        "slots used",
        "instances",
    ]);
    for node in &fleet.nodes {
        let heartbeat = match node.heartbeat_age_seconds {
            Some(age) if node.stale => format!("{} STALE", duration::ago(age)),
            Some(age) => duration::ago(age),
            None => "never STALE".to_string(),
        };
        table.add_row(vec![
            output.cell(&node.name, false),
            output.cell(&node.pool, false),
            output.cell(&node.status, node.status == "offline"),
            output.warn_cell(
                if node.schedulable { "yes" } else { "no" },
                !node.schedulable,
            ),
            output.cell(heartbeat, node.stale),
            output.warn_cell(
                format!("{}/{}", node.slots_used, node.slots),
                node.slots_used >= i64::from(node.slots),
            ),
            output.cell(node.instances, false),
        ]);
    }
    output::print(&table.to_string())?;
    let stale = fleet.nodes.iter().filter(|n| n.stale).count();
    let used: i64 = fleet.nodes.iter().map(|n| n.slots_used).sum();
    let total: i64 = fleet.nodes.iter().map(|n| i64::from(n.slots)).sum();
    output::note(&format!(
        "{} nodes, {stale} stale (no heartbeat for {}); {used} of {total} slots in use.",
        fleet.nodes.len(),
        duration::human(i64::try_from(args.stale_after.as_secs()).unwrap_or(i64::MAX)),
    ));
    Ok(())
}
