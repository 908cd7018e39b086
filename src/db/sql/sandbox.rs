//! The sandbox: its database, scenarios and simulated control plane.

use super::*;

pub const CREATE_DATABASE: Statement = file!(Script "sandbox/create_database.sql" []);
/// The incident scenarios (after the schema).
pub const SCENARIOS: Statement = file!(Script "sandbox/scenarios.sql" []);
/// `sandbox --big-incident` (after the scenarios).
pub const BIG_INCIDENT: Statement = file!(Script "sandbox/big_incident.sql" []);
pub const LIST_SCENARIOS: Statement = file!(Sandbox "sandbox/list_scenarios.sql" []);
pub const SIMULATION_SESSION: Statement = file!(Script "sandbox/simulation_session.sql" []);
pub const LIVE_NODES: Statement = file!(Sandbox "sandbox/live_nodes.sql" []);
pub const HEARTBEAT: Statement = file!(Sandbox "sandbox/heartbeat.sql" [UuidArray]);
/// $1 the simulation's start.
pub const TICK: Statement = file!(Sandbox "sandbox/tick.sql" [Timestamptz]);
