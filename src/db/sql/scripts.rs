//! The reference schema, the reference control plane and the benchmark's
//! data generator: whole scripts, loaded with `batch_execute`.

use super::*;

/// The reference schema of the control plane's database.
pub const SCHEMA: Statement = file!(Script "schema.sql" []);
/// The reference control plane (scheduler, gateway, agents, teardown
/// driver, reaper) as functions in schema `control_plane`: loaded by the
/// sandbox and the tests, never part of the reference schema.
pub const CONTROL_PLANE: Statement = file!(Script "control_plane.sql" []);
/// The production-size data generator (`SELECT * FROM bench.generate(scale)`).
pub const BENCH_GENERATE: Statement = file!(Script "bench/generate.sql" []);
