//! The foreign keys "decide under locks" rests on: present and enforced.

use super::{ForeignKeyFacts, SchemaFacts, SchemaReport};
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
/// `foreign_keys` section of `sql/schema_check/check.sql`), in `schema`.
pub(super) fn check_foreign_keys(facts: &SchemaFacts, schema: &str, report: &mut SchemaReport) {
    for (table, column, parent) in LOCKING_FOREIGN_KEYS {
        if !(report.oids.contains_key(table) && report.oids.contains_key(parent)) {
            continue;
        }
        let found: Vec<&ForeignKeyFacts> = facts
            .foreign_keys
            .iter()
            .filter(|k| k.child == *table && k.column == *column && k.parent == *parent)
            .collect();
        judge_foreign_key(schema, table, column, parent, &found, report);
    }
}

/// What the constraints found for one key mean.
fn judge_foreign_key(
    schema: &str,
    table: &str,
    column: &str,
    parent: &str,
    found: &[&ForeignKeyFacts],
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
    match found.iter().find(|k| !k.disabled) {
        Some(key) => report.foreign_keys.push(format!(
            "{table}.{column} → {parent} ({})",
            escaped(&key.name)
        )),
        None if !found.is_empty() => report.foreign_key_problems.push(format!(
            "the foreign key {} from {table}.{column} to {parent}.id is not enforced (its \
             triggers are disabled): {why}. Next step: ALTER TABLE {schema}.{table} ENABLE \
             TRIGGER ALL",
            escaped(&found[0].name),
            schema = escaped(schema)
        )),
        None => report.foreign_key_problems.push(format!(
            "no foreign key from {table}.{column} to {parent}.id: {why}. Next step: ALTER \
             TABLE {schema}.{table} ADD FOREIGN KEY ({column}) REFERENCES \
             {schema}.{parent} (id) NOT VALID",
            schema = escaped(schema)
        )),
    }
}

#[cfg(test)]
#[path = "foreign_keys_tests.rs"]
mod tests;
