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
//!   job (pushleft-controller(1), THE DATABASE IT TALKS TO);
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
mod tests;
