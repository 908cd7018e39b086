//! The tables, columns, keys, triggers and rules the tool relies on, and
//! the closed world: one catalog statement, no parameters (the schema is
//! rendered as a literal).

use super::*;

pub const CHECK: Statement = file!(Query "schema_check/check.sql" []);
