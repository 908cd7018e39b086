//! The SQL files the binary embeds. They are the single source: psql loads
//! the same files (`psql -v ON_ERROR_STOP=1 -f sql/schema.sql`).

/// The reference schema of the control plane's database.
pub const SCHEMA: &str = include_str!("../sql/schema.sql");

/// The sandbox's incident scenarios (after the schema).
pub const SCENARIOS: &str = include_str!("../sql/sandbox/scenarios.sql");

/// The reference control plane (scheduler, gateway, agents, teardown driver,
/// reaper) as SQL functions in schema `control_plane`: loaded by the sandbox
/// and the tests, never part of the reference schema.
pub const CONTROL_PLANE: &str = include_str!("../sql/control_plane.sql");

/// The production-size data generator (`SELECT * FROM bench.generate(scale)`).
pub const BENCH_GENERATOR: &str = include_str!("../sql/bench/generate.sql");
