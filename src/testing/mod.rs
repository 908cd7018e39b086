//! What only the tests and the benchmark use: the EXPLAIN check over the
//! SQL registry, the throwaway cluster's test-only abilities, and the
//! proxy that counts round trips, slows the link and breaks it on cue. Hidden
//! from the documentation: not part of the tool's interface.

pub mod cluster;
pub mod pgbouncer;
pub mod plans;
pub mod proxy;

pub use cluster::hand_to_server;
