//! Does the live database have the shape this tool relies on? One check,
//! shared by `doctor` (which reports it) and `fail-safely` (which writes
//! nothing unless all of it holds):
//!
//! - every table and column the tool reads (README, "The database it
//!   talks to", and `sql/schema.sql`) exists in the schema (`--schema`)
//!   with a type the tool can read, and the events are unique per
//!   `(deployment_id, sequence)`;
//! - the foreign keys "decide under locks" rests on exist and are enforced:
//!   from jobs, instances and events to the deployment, from results to the
//!   job (README, "The database it talks to");
//! - the triggers that protect the audit trail (`BEFORE DELETE` on
//!   `deployment_events`, `jobs` and `agent_job_results`, `BEFORE UPDATE`
//!   on `deployment_events` and `agent_job_results`) are on every relation
//!   of those tables (partitions too), enabled, fire BEFORE the operation,
//!   and really refuse (`decide::triggers::protects`), not only exist;
//! - `deployments` and `deployment_events`, the two tables fail-safely
//!   writes, carry no trigger or rule it cannot vouch for;
//! - the closed world (`inventory.rs`): no relation of any tree that is not
//!   a table, no row-level security that filters the role, every child
//!   with the locking foreign keys, no code outside pg_catalog in the
//!   defaults, constraints and indexes of the written tables, and every
//!   column readable.
//!
//! Only catalog reads, in one statement without parameters
//! (`sql/schema_check/check.sql`): safe on a standby, inside a read-only
//! transaction, and sent by fail-safely in the same message as the lock
//! that freezes what it vouches for ([`statement`], [`judge`]).
//!
//! One file per concern: `tables.rs` (tables, columns, types and the
//! events' unique key), `foreign_keys.rs`, `triggers.rs` (the protecting
//! triggers, and the triggers and rules of the written tables) and
//! `report.rs` (what the check found).

use crate::db::sql::{self, Conn};
use anyhow::{Context, Result};
use serde_json::Value;

use super::sql::Schema;
pub use crate::decide::triggers::{AllowedTriggers, Operation};

mod foreign_keys;
mod inventory;
mod report;
mod tables;
mod triggers;

pub use foreign_keys::LOCKING_FOREIGN_KEYS;
use foreign_keys::check_foreign_keys;
pub use report::{FoundTrigger, SchemaReport};
pub use tables::tables;
use tables::{check_tables, check_unique_key};
pub use triggers::{PROTECTING_TRIGGERS, WRITTEN_TABLES};
use triggers::{Trees, check_triggers, check_written_tables};

/// Checks tables, columns, types, the events' unique key, the locking
/// foreign keys, the protecting triggers and the triggers and rules on the
/// written tables, in `schema`: one statement. Reads the catalogs only.
pub fn check(
    client: &mut impl Conn,
    schema: &Schema,
    allowed: &AllowedTriggers,
) -> Result<SchemaReport> {
    let doc: Value = sql::schema_check::CHECK
        .query_one(client, schema, &[])
        .context("checking the schema (sql/schema_check/check.sql)")?
        .try_get(0)
        .context("reading the schema check")?;
    judge(&doc, schema, allowed)
}

/// The check's statement for `schema`, to send in a message of its own
/// making (it has no parameters).
pub fn statement(schema: &Schema) -> String {
    sql::schema_check::CHECK.sql(schema)
}

/// What the check's document (the one column of [`statement`]) says.
pub fn judge(doc: &Value, schema: &Schema, allowed: &AllowedTriggers) -> Result<SchemaReport> {
    let mut report = SchemaReport::default();
    check_tables(doc, schema, &mut report)?;
    check_unique_key(doc, &mut report);
    check_foreign_keys(doc, schema, &mut report)?;
    let trees = Trees::read(doc)?;
    check_triggers(&trees, schema, &mut report);
    check_written_tables(&trees, allowed, &mut report);
    inventory::check_inventory(doc, allowed, &mut report)?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::tables::Kind;
    use super::*;

    #[test]
    fn the_statement_names_every_table_and_key_the_check_expects() {
        let text = sql::schema_check::CHECK.text;
        for table in tables() {
            assert!(text.contains(&format!("('{table}')")), "{table}");
        }
        for (n, (child, column, parent)) in LOCKING_FOREIGN_KEYS.iter().enumerate() {
            let row = format!("({}, '{child}', '{column}', '{parent}')", n + 1);
            assert!(text.contains(&row), "{row}");
        }
        let checked: Vec<&str> = PROTECTING_TRIGGERS
            .iter()
            .map(|(t, _)| *t)
            .chain(WRITTEN_TABLES.iter().map(|(t, _)| *t))
            .collect();
        let roots =
            "WHERE tree.root IN ('deployments', 'deployment_events', 'jobs', 'agent_job_results')";
        assert!(text.contains(roots));
        for table in checked {
            assert!(roots.contains(&format!("'{table}'")), "{table}");
        }
        assert!(text.contains("WHERE tree.root IN ('deployments', 'deployment_events')"));
        assert_eq!(WRITTEN_TABLES.len(), 2);
    }

    #[test]
    fn types_the_tool_can_read() {
        assert!(Kind::Text.accepts("character varying(40)"));
        assert!(!Kind::Int4.accepts("bigint"));
        assert!(!Kind::Timestamptz.accepts("timestamp without time zone"));
        assert!(!Kind::Jsonb.accepts("json"));
    }

    #[test]
    fn protecting_triggers_are_the_five_of_the_spec() {
        assert_eq!(PROTECTING_TRIGGERS.len(), 5);
        let report = SchemaReport {
            trigger_problems: vec!["no BEFORE DELETE trigger on jobs".into()],
            ..SchemaReport::default()
        };
        assert!(report.schema_ok());
        assert!(!report.protecting_triggers_ok());
        assert_eq!(report.problems().len(), 1);
    }

    #[test]
    fn foreign_keys_and_unvouched_triggers_are_problems_too() {
        let report = SchemaReport {
            foreign_key_problems: vec!["no foreign key from agent_job_results.job_id".into()],
            unvouched: vec!["trigger `x` on deployments".into()],
            ..SchemaReport::default()
        };
        assert!(!report.ok());
        assert_eq!(report.problems().len(), 2);
    }
}
