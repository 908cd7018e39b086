//! The schema check's statement, and its catalog document read into
//! [`SchemaFacts`]: what the judgements of `decide::schema` decide over
//! (README, "The layers": `db` reads, `decide` judges). One check, shared
//! by `doctor` (which reports it) and `fail-safely` (which writes nothing
//! unless all of it holds; what it checks is listed in `decide::schema`).
//!
//! Only catalog reads, in one statement without parameters
//! (`sql/schema_check/check.sql`): safe on a standby, inside a read-only
//! transaction, and sent by fail-safely in the same message as the lock
//! that freezes what it vouches for ([`statement`], [`read`]).

use crate::db::sql::{self, Conn};
use anyhow::{Context, Result};
use serde_json::Value;

use super::sql::Schema;
pub use crate::decide::schema::{
    FoundTrigger, LOCKING_FOREIGN_KEYS, PROTECTING_TRIGGERS, SchemaFacts, SchemaReport,
    WRITTEN_TABLES, tables,
};
pub use crate::decide::triggers::{AllowedTriggers, Operation};

mod read;

pub use read::read;

/// Checks tables, columns, types, the events' unique key, the locking
/// foreign keys, the protecting triggers and the triggers and rules on the
/// written tables, in `schema`: one statement. Reads the catalogs only;
/// `decide::schema::judge` says what they come to.
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
    let facts = read(&doc)?;
    Ok(crate::decide::schema::judge(&facts, schema.name(), allowed))
}

/// The check's statement for `schema`, to send in a message of its own
/// making (it has no parameters).
pub fn statement(schema: &Schema) -> String {
    sql::schema_check::CHECK.sql(schema)
}

#[cfg(test)]
mod tests;
