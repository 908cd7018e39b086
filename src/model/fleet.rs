//! `fleet list`: the nodes and the capacity in use, as of one instant.

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::deployment::Node;

/// A node and what runs on it.
#[derive(Debug, Clone, Serialize)]
pub struct FleetNode {
    #[serde(flatten)]
    pub node: Node,
    /// The region (connection service) it was read from, when several
    /// were read at once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    pub stale: bool,
    pub slots_used: i64,
    pub instances: i64,
}

/// The instant of the read and the staleness threshold it used.
#[derive(Debug, Clone, Serialize)]
pub struct FleetScanInfo {
    pub at: DateTime<Utc>,
    /// Read from a standby.
    pub in_recovery: bool,
    /// Whole seconds the standby's replay is behind.
    pub replay_lag_seconds: Option<i64>,
    /// A standby's replay is paused.
    pub replay_paused: bool,
    pub stale_after_seconds: u64,
    /// Tables where row-level security applies to the role that read:
    /// rows may have been hidden from the list.
    pub row_security: Vec<String>,
}

/// The `fleet list --output json` document.
#[derive(Debug, Clone, Serialize)]
pub struct FleetList {
    pub nodes: Vec<FleetNode>,
    pub snapshot: FleetScanInfo,
    /// With several regions: how reading each went (the rows say which
    /// region they come from).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub regions: Option<Vec<super::region::RegionStatus>>,
    /// Values the read found that the model cannot take as they are (a
    /// NULL where the reference schema says NOT NULL, an unknown status,
    /// an allocation in an unknown state counted as held).
    pub warnings: Vec<super::Warning>,
    /// The listed nodes whose heartbeat is ahead of the server's clock
    /// (never stale until it passes it).
    pub clock_skew: Vec<super::clock::ClockSkew>,
}
