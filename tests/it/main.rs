//! Integration tests: one binary, one throwaway PostgreSQL, a database per
//! test.

mod support;

mod diagnose;
mod fail_safely;
mod sandbox;
mod schema;
