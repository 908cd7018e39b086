//! What only the tests and the benchmark use: the EXPLAIN check over the
//! SQL registry, and the throwaway cluster's test-only abilities. Hidden
//! from the documentation: not part of the tool's interface.

pub mod cluster;
pub mod pgbouncer;
pub mod plans;

pub use cluster::hand_to_server;
