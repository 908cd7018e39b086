//! Integration tests: one binary, one throwaway PostgreSQL, a database per
//! test.

mod support;

mod sandbox;
mod schema;
