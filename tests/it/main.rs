//! Integration tests: one binary, one throwaway PostgreSQL, a database per
//! test.

mod support;

mod cli;
mod connect;
mod diagnose;
mod doctor;
mod fail_safely;
mod sandbox;
mod schema;
