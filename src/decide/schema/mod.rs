//! Does the live database have the shape this tool relies on? The
//! judgements of the one check shared by `doctor` (which reports it) and
//! `fail-safely` (which writes nothing unless all of it holds), pure over
//! what `db::schema_check` read from the catalogs ([`SchemaFacts`]):
//!
//! - every table and column the tool reads (README, "The database it
//!   talks to", and `sql/schema.sql`) exists in the schema (`--schema`)
//!   with a type the tool can read, and the events are unique per
//!   `(deployment_id, sequence)` (`tables.rs`);
//! - the foreign keys "decide under locks" rests on exist and are enforced:
//!   from jobs, instances and events to the deployment, from results to the
//!   job (pushleft-controller(1), THE DATABASE IT TALKS TO;
//!   `foreign_keys.rs`);
//! - the triggers that protect the audit trail (`BEFORE DELETE` on
//!   `deployment_events`, `jobs` and `agent_job_results`, `BEFORE UPDATE`
//!   on `deployment_events` and `agent_job_results`) are on every relation
//!   of those tables (partitions too), enabled, fire BEFORE the operation,
//!   and really refuse (`decide::triggers::protects`), not only exist;
//!   `deployments` and `deployment_events`, the two tables fail-safely
//!   writes, carry no trigger or rule it cannot vouch for (`triggers.rs`);
//! - the closed world (`inventory.rs`): no relation of any tree that is not
//!   a table, no row-level security that filters the role, every child
//!   with the locking foreign keys, no code outside pg_catalog in the
//!   defaults, constraints and indexes of the written tables, and every
//!   column readable.
//!
//! What was found is a [`SchemaReport`] (`report.rs`); whether fail-safely
//! may write over it is `decide::transition::server::safe_to_write`.

mod facts;
mod foreign_keys;
mod inventory;
mod report;
mod tables;
mod triggers;

pub use facts::{
    ColumnFacts, ForeignKeyFacts, InventoryRow, SchemaFacts, TableFacts, TreeRelation, TreeRule,
    TreeTrigger,
};
pub use foreign_keys::LOCKING_FOREIGN_KEYS;
pub use report::{FoundTrigger, SchemaReport};
pub use tables::tables;
pub use triggers::{PROTECTING_TRIGGERS, WRITTEN_TABLES};

use crate::decide::triggers::AllowedTriggers;

/// What the catalog document says of the schema named `schema` (its name
/// as `--schema` gave it, for the next steps' SQL), with the triggers and
/// functions `allowed` vouches for.
pub fn judge(facts: &SchemaFacts, schema: &str, allowed: &AllowedTriggers) -> SchemaReport {
    let mut report = SchemaReport::default();
    tables::check_tables(facts, schema, &mut report);
    tables::check_unique_key(facts, &mut report);
    foreign_keys::check_foreign_keys(facts, schema, &mut report);
    triggers::check_triggers(facts, schema, &mut report);
    triggers::check_written_tables(facts, allowed, &mut report);
    inventory::check_inventory(facts, allowed, &mut report);
    report
}

#[cfg(test)]
mod tests;
