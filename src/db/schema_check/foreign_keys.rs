//! The foreign keys "decide under locks" rests on: present and enforced.

use crate::db::sql::Conn;
use anyhow::{Context, Result};

use super::SchemaReport;
use crate::db::sql::{self, Schema};
use crate::model::text::escaped;

/// The foreign keys "decide under locks" rests on: (table, column, the
/// table whose id it references).
pub const LOCKING_FOREIGN_KEYS: &[(&str, &str, &str)] = &[
    ("jobs", "deployment_id", "deployments"),
    ("application_instances", "deployment_id", "deployments"),
    ("deployment_events", "deployment_id", "deployments"),
    ("agent_job_results", "job_id", "jobs"),
];

/// The foreign keys that make "decide under locks" hold: one statement
/// for all of them.
pub(super) fn check_foreign_keys(
    client: &mut impl Conn,
    schema: &Schema,
    report: &mut SchemaReport,
) -> Result<()> {
    let present: Vec<&(&str, &str, &str)> = LOCKING_FOREIGN_KEYS
        .iter()
        .filter(|(table, _, parent)| {
            report.oids.contains_key(table) && report.oids.contains_key(parent)
        })
        .collect();
    let children: Vec<i64> = present.iter().map(|(t, _, _)| report.oids[t]).collect();
    let columns: Vec<String> = present.iter().map(|(_, c, _)| c.to_string()).collect();
    let parents: Vec<i64> = present.iter().map(|(_, _, p)| report.oids[p]).collect();
    let rows = sql::schema_check::FOREIGN_KEYS
        .query_catalog(client, &[&children, &columns, &parents])
        .context("reading the locking foreign keys")?;
    for (n, (table, column, parent)) in present.into_iter().enumerate() {
        let key = i64::try_from(n + 1).unwrap_or(i64::MAX);
        let found: Vec<(String, bool)> = rows
            .iter()
            .filter(|r| r.get::<_, i64>("key") == key)
            .map(|r| (r.get("name"), r.get("disabled")))
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
