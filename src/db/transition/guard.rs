//! The guard, in the database (pushleft-controller-fail-safely(1), STEP BY STEP): the
//! tuple counters read before anything is written (step 4's message), and
//! after the writes, in ONE message (step 11): deferred triggers fire
//! first, then the counters, the locks held and the read-back (step 12),
//! which must show the runbook's writes and nothing else
//! (`decide::guard` judges them). A dry run's message ends with its
//! ROLLBACK.

use crate::db::session::Pinned;
use anyhow::{Context, Result, anyhow};
use postgres::SimpleQueryRow;
use serde_json::Value;

use super::first::{counters, parsed, results, text};
use crate::db::sql::{self, Schema};
use crate::decide::guard::{Counters, HeldLock};

/// What step 11's message read, once deferred triggers had fired.
pub(super) struct After {
    pub(super) counters: Counters,
    pub(super) locks: Vec<HeldLock>,
    /// Step 12's read-back (`14_reread.sql`).
    pub(super) reread: Value,
}

/// Step 11's message; `end` (ROLLBACK for a dry run) goes last in it.
/// Without `fire` (a dry run whose deferred triggers already fire at the
/// end of each statement, the enforcing one only at COMMIT) SET
/// CONSTRAINTS is left out.
fn script(schema: &Schema, end: Option<&str>, fire: bool) -> String {
    let mut parts = Vec::new();
    if fire {
        parts.push(sql::fail_safely::FIRE_DEFERRED.text.to_string());
    }
    parts.extend([
        sql::fail_safely::GUARD_COUNTERS.text.to_string(),
        sql::fail_safely::GUARD_LOCKS.text.to_string(),
        sql::fail_safely::REREAD.sql(schema),
    ]);
    parts.extend(end.map(str::to_string));
    parts.join("\n;\n")
}

/// Step 11 in a transaction that goes on (to COMMIT).
pub(super) fn read_after(tx: &mut Pinned<'_>, schema: &Schema, fire: bool) -> Result<After> {
    let messages = tx
        .simple_query(&script(schema, None, fire))
        .context("firing deferred constraint triggers, then the guard's reads")?;
    after(messages, usize::from(fire))
}

/// Step 11 for a dry run: the same reads, and the ROLLBACK with them.
pub(super) fn read_after_and_roll_back(
    tx: Pinned<'_>,
    schema: &Schema,
    fire: bool,
) -> Result<After> {
    let messages = tx
        .end_with(&script(schema, Some("ROLLBACK"), fire))
        .context("firing deferred constraint triggers, then the guard's reads")?;
    after(messages, usize::from(fire))
}

/// The results after the first `skip` (SET CONSTRAINTS's, when sent).
fn after(messages: Vec<postgres::SimpleQueryMessage>, skip: usize) -> Result<After> {
    let results = results(messages);
    let (Some(counted), Some(locks), Some(reread)) = (
        results.get(skip),
        results.get(skip + 1),
        results.get(skip + 2),
    ) else {
        return Err(anyhow!(
            "step 11's message returned {} results",
            results.len()
        ));
    };
    let reread = match reread.first() {
        None => Value::Null,
        Some(row) => text(row, "reread")?
            .map(serde_json::from_str)
            .transpose()
            .context("reading back what the transaction wrote")?
            .unwrap_or(Value::Null),
    };
    Ok(After {
        counters: counters(counted).context("reading the guard's tuple counters")?,
        locks: locks.iter().map(held_lock).collect::<Result<_>>()?,
        reread,
    })
}

fn held_lock(row: &SimpleQueryRow) -> Result<HeldLock> {
    Ok(HeldLock {
        relid: parsed(row, "relid")?,
        name: parsed(row, "name")?,
        kind: text(row, "kind")?.unwrap_or("").to_string(),
        mode: parsed(row, "mode")?,
    })
}
