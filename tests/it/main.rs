//! Integration tests: one binary, one throwaway PostgreSQL, a database per
//! test.

mod support;

mod batch;
mod cli;
mod clock;
mod connect;
mod control_plane;
mod defaults;
mod diagnose;
mod doctor;
mod explain;
mod fail_safely;
mod faults;
mod fleet;
mod guard;
mod history;
mod json_docs;
mod json_errors;
mod killed_client;
mod layers;
mod libpq_diff;
mod markdown;
mod metrics;
mod race;
mod regions;
mod sandbox;
mod schema;
mod screen;
mod screen_safety;
mod simulate;
mod stuck;
mod unknown;
mod wait;
mod watch;
mod without_indexes;
