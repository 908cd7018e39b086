//! Integration tests: one binary, one throwaway PostgreSQL, a database per
//! test.

mod support;

mod clock;
mod control_plane;
mod fleet;
mod simulate;
mod stuck;

mod sandbox;
mod schema;
