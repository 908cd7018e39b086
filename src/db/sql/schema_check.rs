//! The tables, columns, keys, triggers and rules the tool relies on
//! (catalogs only; tables by schema and name, or by oid).

use super::*;

/// $1 schema, $2 the tables' names: every column of each.
pub const TABLES: Statement = file!(Query "schema_check/tables.sql" [Text, TextArray]);
pub const EVENTS_UNIQUE_KEY: Statement = file!(Query "schema_check/events_unique_key.sql" [Int8]);
/// The n-th key: $1[n] table, $2[n] its column, $3[n] the referenced
/// table.
pub const FOREIGN_KEYS: Statement =
    file!(Query "schema_check/foreign_keys.sql" [Int8Array, TextArray, Int8Array]);
/// $1 the tables' oids (each row names its `root`).
pub const TREE: Statement = file!(Query "schema_check/tree.sql" [Int8Array]);
pub const TRIGGERS: Statement = file!(Query "schema_check/triggers.sql" [Int8Array]);
pub const RULES: Statement = file!(Query "schema_check/rules.sql" [Int8Array]);
/// The closed world: $1/$2 the tables' names and oids, $3 the written
/// tables, $4/$5 the columns read (table, column).
pub const INVENTORY: Statement = file!(Query "schema_check/inventory.sql"
    [TextArray, Int8Array, TextArray, TextArray, TextArray]);
