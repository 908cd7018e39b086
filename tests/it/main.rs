//! Integration tests: one binary, one throwaway PostgreSQL, a database per
//! test.

mod support;

mod cli;
mod connect;
mod doctor;
mod sandbox;
mod schema;
