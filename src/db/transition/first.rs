//! Step 4 (pushleft-controller-fail-safely(1), STEP BY STEP): one simple-query message,
//! no parameters, one round trip: the guard's counters before anything is
//! written, the idempotency key's advisory lock, the two written tables
//! locked against DDL, who writes, the whole schema check and the write
//! set. Read in order from what the message returns.

use anyhow::{Context, Result, anyhow};
use postgres::{SimpleQueryMessage, SimpleQueryRow};
use serde_json::Value;

use crate::db::schema_check;
use crate::db::sql::{self, Schema};
use crate::decide::guard::{Counters, WriteSet};
use crate::decide::input::key_lock;
use crate::decide::schema::{SchemaReport, judge};
use crate::decide::transition::server::write_set_complete;
use crate::decide::triggers::AllowedTriggers;
use crate::model::text::escaped;

/// What step 4 found.
pub(super) struct FirstMessage {
    pub(super) before: Counters,
    pub(super) session_user: String,
    pub(super) current_user: String,
    pub(super) report: SchemaReport,
    pub(super) write_set: WriteSet,
}

/// The message: its statements in the order they run, each file whole.
pub(super) fn script(schema: &Schema, key: &str) -> String {
    let (class, hash) = key_lock(key);
    let lock_key = sql::fail_safely::LOCK_KEY
        .text
        .replace(":key_class", &class.to_string())
        .replace(":key_hash", &hash.to_string());
    [
        sql::fail_safely::GUARD_COUNTERS.text.to_string(),
        lock_key,
        sql::fail_safely::LOCK_TABLES.sql(schema),
        sql::fail_safely::WHO.text.to_string(),
        schema_check::statement(schema),
        sql::fail_safely::WRITE_SET.sql(schema),
    ]
    // A file may end in a comment: the semicolon goes on a line of its own.
    .join("\n;\n")
}

/// The rows of each statement of a simple-query message, in order (one
/// list per command completed).
pub(super) fn results(messages: Vec<SimpleQueryMessage>) -> Vec<Vec<SimpleQueryRow>> {
    let mut results = Vec::new();
    let mut rows = Vec::new();
    for message in messages {
        match message {
            SimpleQueryMessage::Row(row) => rows.push(row),
            SimpleQueryMessage::CommandComplete(_) => results.push(std::mem::take(&mut rows)),
            _ => {}
        }
    }
    results
}

/// A column of a row of a simple-query message, as text (`None`: NULL).
pub(super) fn text<'r>(row: &'r SimpleQueryRow, name: &str) -> Result<Option<&'r str>> {
    row.try_get(name)
        .with_context(|| format!("reading column {name}"))
}

/// A column that must be there, parsed.
pub(super) fn parsed<T: std::str::FromStr>(row: &SimpleQueryRow, name: &str) -> Result<T> {
    text(row, name)?
        .and_then(|value| value.parse().ok())
        .ok_or_else(|| anyhow!("column {name} is NULL or not what was expected"))
}

/// The guard's counters from the rows of `01_guard_counters.sql`.
pub(super) fn counters(rows: &[SimpleQueryRow]) -> Result<Counters> {
    rows.iter()
        .map(|row| {
            Ok((
                parsed::<i64>(row, "relid")?,
                (
                    parsed::<String>(row, "name")?,
                    [
                        parsed::<i64>(row, "inserted")?,
                        parsed::<i64>(row, "updated")?,
                        parsed::<i64>(row, "deleted")?,
                    ],
                ),
            ))
        })
        .collect()
}

/// Reads what step 4's message returned.
pub(super) fn read(
    messages: Vec<SimpleQueryMessage>,
    schema: &Schema,
    allowed: &AllowedTriggers,
) -> Result<FirstMessage> {
    let results = results(messages);
    let [counted, _key, _tables, who, check, write_set] = results.as_slice() else {
        return Err(anyhow!(
            "step 4's message returned {} results instead of 6",
            results.len()
        ));
    };
    let who = who
        .first()
        .ok_or_else(|| anyhow!("04_who.sql returned no row"))?;
    let doc: Value = check
        .first()
        .and_then(|row| text(row, "check").ok().flatten())
        .ok_or_else(|| anyhow!("sql/schema_check/check.sql returned no document"))
        .and_then(|text| serde_json::from_str(text).context("reading the schema check"))?;
    let facts = schema_check::read(&doc)
        .context("checking the schema, the foreign keys and the triggers before writing")?;
    let report = judge(&facts, schema.name(), allowed);
    Ok(FirstMessage {
        before: counters(counted).context("reading the guard's tuple counters")?,
        session_user: parsed(who, "session_user")?,
        current_user: parsed(who, "current_user")?,
        write_set: write_set_from(write_set, schema, &report)?,
        report,
    })
}

/// The relations the transaction may write (`05_write_set.sql`).
fn write_set_from(
    rows: &[SimpleQueryRow],
    schema: &Schema,
    report: &SchemaReport,
) -> Result<WriteSet> {
    let mut set = WriteSet {
        deployments_name: format!("{}.deployments", escaped(schema.name())),
        events_name: format!("{}.deployment_events", escaped(schema.name())),
        ..WriteSet::default()
    };
    if !(report.oids.contains_key("deployments") && report.oids.contains_key("deployment_events")) {
        // The schema check says why; the refusal names it.
        return Ok(set);
    }
    for row in rows {
        let relid: i64 = parsed(row, "relid")?;
        let root: String = parsed(row, "root")?;
        let part: String = parsed(row, "part")?;
        set.all.insert(relid);
        match (part.as_str(), root.as_str()) {
            ("table", "deployments") => {
                set.deployments.insert(relid);
            }
            ("table", "applications") => {
                set.applications.insert(relid);
            }
            ("table", _) => {
                set.events.insert(relid);
            }
            ("toast", _) => {
                set.toast.insert(relid);
            }
            _ => {}
        }
    }
    write_set_complete(&set)?;
    Ok(set)
}
