//! Integration tests: one binary, one throwaway PostgreSQL, a database per
//! test.

mod support;

mod cli;
mod clock;
mod connect;
mod control_plane;
mod diagnose;
mod doctor;
mod explain;
mod fail_safely;
mod faults;
mod fleet;
mod json_docs;
mod layers;
mod libpq_diff;
mod sandbox;
mod schema;
mod simulate;
mod stuck;
mod wait;
