//! The check's document (the one column of [`statement`](super::statement))
//! read section by section into [`SchemaFacts`], with `db::columns`: a
//! section that is not an array of rows, or a row missing a column or
//! holding the wrong type, is an error naming the column.

use anyhow::Result;
use serde_json::Value;

use crate::db::columns::{Columns, JsonRow, json_rows};
use crate::db::sql::approvals::enforce_body;
use crate::decide::schema::{
    ColumnFacts, ForeignKeyFacts, InventoryRow, SchemaFacts, TableFacts, TreeRelation, TreeRule,
    TreeTrigger,
};
use crate::decide::triggers::{Rule, Trigger};

/// What the check's document says, as typed rows.
pub fn read(doc: &Value) -> Result<SchemaFacts> {
    Ok(SchemaFacts {
        tables: tables(doc)?,
        unique_key: doc.get("unique_key").and_then(Value::as_bool) == Some(true),
        foreign_keys: json_rows(doc.get("foreign_keys"), |row| {
            Ok(ForeignKeyFacts {
                child: row.col("child")?,
                column: row.col("column")?,
                parent: row.col("parent")?,
                name: row.col("name")?,
                disabled: row.col("disabled")?,
            })
        })?,
        triggers: json_rows(doc.get("triggers"), |row| {
            Ok(TreeTrigger {
                root: row.col("root")?,
                trigger: trigger(row)?,
            })
        })?,
        relations: json_rows(doc.get("tree"), |row| {
            Ok(TreeRelation {
                root: row.col("root")?,
                relation: row.col("relation")?,
                relkind: row.col("relkind")?,
            })
        })?,
        rules: json_rows(doc.get("rules"), |row| {
            Ok(TreeRule {
                root: row.col("root")?,
                rule: Rule {
                    relation: row.col("relation")?,
                    name: row.col("name")?,
                },
            })
        })?,
        inventory: json_rows(doc.get("inventory"), |row| {
            Ok(InventoryRow {
                what: row.col("what")?,
                root: row.col("root")?,
                relation: row.col("relation")?,
                detail: row.col("detail")?,
                schema: row.col("schema_name")?,
                name: row.col("name")?,
            })
        })?,
        enforce_body: enforce_body(),
    })
}

/// The `tables` section: one row per column (a table without columns has
/// one row with none), grouped by table in the order first seen; a
/// table's oid is its first row's.
fn tables(doc: &Value) -> Result<Vec<TableFacts>> {
    let mut tables: Vec<TableFacts> = Vec::new();
    json_rows(doc.get("tables"), |row| {
        let name: String = row.col("table_name")?;
        let oid: i64 = row.col("oid")?;
        let at = match tables.iter().position(|t| t.name == name) {
            Some(at) => at,
            None => {
                tables.push(TableFacts {
                    name,
                    oid,
                    columns: Vec::new(),
                });
                tables.len() - 1
            }
        };
        if let (Some(name), Some(server_type)) = (
            row.col::<Option<String>>("column_name")?,
            row.col::<Option<String>>("type")?,
        ) {
            tables[at].columns.push(ColumnFacts { name, server_type });
        }
        Ok(())
    })?;
    Ok(tables)
}

/// One row of the `triggers` section.
fn trigger(row: &JsonRow<'_>) -> Result<Trigger> {
    Ok(Trigger {
        relation: row.col("relation")?,
        name: row.col("name")?,
        enabled: row.col("enabled")?,
        tgtype: row.col("tgtype")?,
        internal: row.col("internal")?,
        constraint: row.col("constraint_trigger")?,
        function: row.col("function")?,
        builtin: row.col("builtin")?,
        language: row.col("language")?,
        source: row.col("source")?,
    })
}
