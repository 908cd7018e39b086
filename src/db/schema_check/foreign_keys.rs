//! The foreign keys "decide under locks" rests on: present and enforced.

use crate::db::sql::Conn;
use anyhow::{Context, Result};

use super::SchemaReport;
use crate::db::sql::{self, Schema};
use crate::decide::triggers::visible;

/// The foreign keys "decide under locks" rests on: (table, column, the
/// table whose id it references).
pub const LOCKING_FOREIGN_KEYS: &[(&str, &str, &str)] = &[
    ("jobs", "deployment_id", "deployments"),
    ("application_instances", "deployment_id", "deployments"),
    ("deployment_events", "deployment_id", "deployments"),
    ("agent_job_results", "job_id", "jobs"),
];

/// The foreign keys that make "decide under locks" hold.
pub(super) fn check_foreign_keys(
    client: &mut impl Conn,
    schema: &Schema,
    report: &mut SchemaReport,
) -> Result<()> {
    for (table, column, parent) in LOCKING_FOREIGN_KEYS {
        let (Some(child), Some(parent_oid)) = (
            report.oids.get(table).copied(),
            report.oids.get(parent).copied(),
        ) else {
            continue;
        };
        let rows = sql::schema_check::FOREIGN_KEY
            .query_catalog(client, &[&child, column, &parent_oid])
            .with_context(|| format!("reading the foreign keys of {table}"))?;
        let why = format!(
            "without it a row of {table} can be {} for a {} fail-safely holds locked, between \
             its decision and its write",
            if *table == "agent_job_results" {
                "inserted"
            } else {
                "inserted or re-pointed"
            },
            if *parent == "jobs" {
                "job"
            } else {
                "deployment"
            },
        );
        match rows.iter().find(|r| !r.get::<_, bool>("disabled")) {
            Some(row) => report.foreign_keys.push(format!(
                "{table}.{column} → {parent} ({})",
                visible(&row.get::<_, String>("name"))
            )),
            None if !rows.is_empty() => report.foreign_key_problems.push(format!(
                "the foreign key {} from {table}.{column} to {parent}.id is not enforced (its \
                 triggers are disabled): {why}. Next step: ALTER TABLE {schema}.{table} ENABLE \
                 TRIGGER ALL",
                visible(&rows[0].get::<_, String>("name")),
                schema = visible(schema.name())
            )),
            None => report.foreign_key_problems.push(format!(
                "no foreign key from {table}.{column} to {parent}.id: {why}. Next step: ALTER \
                 TABLE {schema}.{table} ADD FOREIGN KEY ({column}) REFERENCES \
                 {schema}.{parent} (id) NOT VALID",
                schema = visible(schema.name())
            )),
        }
    }
    Ok(())
}
