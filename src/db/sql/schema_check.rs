//! The tables, columns, keys, triggers and rules the tool relies on
//! (catalogs only; tables by schema and name, or by oid).

use super::*;

/// $1 schema, $2 table.
pub const TABLE_OID: Statement = file!(Query "schema_check/table_oid.sql" [Text, Text]);
pub const COLUMNS: Statement = file!(Query "schema_check/columns.sql" [Int8]);
pub const EVENTS_UNIQUE_KEY: Statement = file!(Query "schema_check/events_unique_key.sql" [Int8]);
/// $1 table, $2 its column, $3 the referenced table.
pub const FOREIGN_KEY: Statement = file!(Query "schema_check/foreign_key.sql" [Int8, Text, Int8]);
pub const TREE: Statement = file!(Query "schema_check/tree.sql" [Int8]);
pub const TRIGGERS: Statement = file!(Query "schema_check/triggers.sql" [Int8]);
pub const RULES: Statement = file!(Query "schema_check/rules.sql" [Int8]);
/// The closed world: $1/$2 the tables' names and oids, $3 the written
/// tables, $4/$5 the columns read (table, column).
pub const INVENTORY: Statement = file!(Query "schema_check/inventory.sql"
    [TextArray, Int8Array, TextArray, TextArray, TextArray]);
