//! The foreign keys "decide under locks" rests on: present and enforced.

use anyhow::Result;
use serde_json::Value;

use super::SchemaReport;
use crate::db::columns::{Columns, json_rows};
use crate::db::sql::Schema;
use crate::model::text::escaped;

/// The foreign keys "decide under locks" rests on: (table, column, the
/// table whose id it references).
pub const LOCKING_FOREIGN_KEYS: &[(&str, &str, &str)] = &[
    ("jobs", "deployment_id", "deployments"),
    ("application_instances", "deployment_id", "deployments"),
    ("deployment_events", "deployment_id", "deployments"),
    ("agent_job_results", "job_id", "jobs"),
];

/// The foreign keys that make "decide under locks" hold (the
/// `foreign_keys` section of `sql/schema_check/check.sql`).
pub(super) fn check_foreign_keys(
    doc: &Value,
    schema: &Schema,
    report: &mut SchemaReport,
) -> Result<()> {
    // (child, column, parent, constraint, disabled)
    let rows = json_rows(doc.get("foreign_keys"), |row| {
        Ok((
            row.col::<String>("child")?,
            row.col::<String>("column")?,
            row.col::<String>("parent")?,
            row.col::<String>("name")?,
            row.col::<bool>("disabled")?,
        ))
    })?;
    for (table, column, parent) in LOCKING_FOREIGN_KEYS {
        if !(report.oids.contains_key(table) && report.oids.contains_key(parent)) {
            continue;
        }
        let found: Vec<(String, bool)> = rows
            .iter()
            .filter(|(c, col, p, _, _)| c == table && col == column && p == parent)
            .map(|(_, _, _, name, disabled)| (name.clone(), *disabled))
            .collect();
        judge(schema, table, column, parent, &found, report);
    }
    Ok(())
}

/// What the constraints found for one key mean.
fn judge(
    schema: &Schema,
    table: &str,
    column: &str,
    parent: &str,
    found: &[(String, bool)],
    report: &mut SchemaReport,
) {
    let why = format!(
        "without it a row of {table} can be {} for a {} fail-safely holds locked, between its \
         decision and its write",
        if table == "agent_job_results" {
            "inserted"
        } else {
            "inserted or re-pointed"
        },
        if parent == "jobs" {
            "job"
        } else {
            "deployment"
        },
    );
    match found.iter().find(|(_, disabled)| !disabled) {
        Some((name, _)) => report
            .foreign_keys
            .push(format!("{table}.{column} → {parent} ({})", escaped(name))),
        None if !found.is_empty() => report.foreign_key_problems.push(format!(
            "the foreign key {} from {table}.{column} to {parent}.id is not enforced (its \
             triggers are disabled): {why}. Next step: ALTER TABLE {schema}.{table} ENABLE \
             TRIGGER ALL",
            escaped(&found[0].0),
            schema = escaped(schema.name())
        )),
        None => report.foreign_key_problems.push(format!(
            "no foreign key from {table}.{column} to {parent}.id: {why}. Next step: ALTER \
             TABLE {schema}.{table} ADD FOREIGN KEY ({column}) REFERENCES \
             {schema}.{parent} (id) NOT VALID",
            schema = escaped(schema.name())
        )),
    }
}
