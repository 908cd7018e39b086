//! The guard, in the database (README, "fail-safely, step by step"): the
//! tuple counters read before anything is written (step 3), the relations
//! the transaction may write (step 6), and after the writes, the check that
//! nothing else changed once deferred triggers have fired (step 11).

use crate::db::session::Pinned;
use anyhow::{Context, Result};
use uuid::Uuid;

use crate::db::schema_check::SchemaReport;
use crate::db::sql::{self, Schema};
use crate::decide::guard::{Counters, HeldLock, WriteSet, check_guard, check_locks};
use crate::exit;
use crate::model::text::escaped;

/// Step 11, after the writes: deferred triggers fire now, not at COMMIT;
/// then the counters and the locks must show nothing but the runbook's
/// writes. `Some(refusal)` when they show more: the caller rolls back.
pub(super) fn guard(
    tx: &mut Pinned<'_>,
    id: Uuid,
    before: &Counters,
    write_set: &WriteSet,
) -> Result<Option<anyhow::Error>> {
    tx.batch_execute(sql::fail_safely::FIRE_DEFERRED.text)
        .context("firing deferred constraint triggers before the guard")?;
    let after = read_counters(tx)?;
    let locks = read_locks(tx)?;
    if let Err(violations) =
        check_guard(before, &after, write_set).and_then(|()| check_locks(&locks, write_set))
    {
        return Ok(Some(exit::refused(format!(
            "guard: the transaction for deployment {id} changed more than the runbook allows: {violations}. \
             Probably a trigger of this database; everything was rolled back and nothing was written. \
             Find out what the trigger does before retrying (`pushleft-controller doctor` lists them)"
        ))));
    }
    Ok(None)
}

/// The per-transaction tuple counters of every relation: step 3, and again
/// in step 11.
pub(super) fn read_counters(tx: &mut Pinned<'_>) -> Result<Counters> {
    Ok(sql::fail_safely::GUARD_COUNTERS
        .query_catalog(tx, &[])
        .context("reading the guard's tuple counters")?
        .iter()
        .map(|row| {
            (
                row.get::<_, i64>("relid"),
                (
                    row.get::<_, String>("name"),
                    [
                        row.get::<_, i64>("inserted"),
                        row.get::<_, i64>("updated"),
                        row.get::<_, i64>("deleted"),
                    ],
                ),
            )
        })
        .collect())
}

fn read_locks(tx: &mut Pinned<'_>) -> Result<Vec<HeldLock>> {
    Ok(sql::fail_safely::GUARD_LOCKS
        .query_catalog(tx, &[])
        .context("reading the locks the transaction holds")?
        .iter()
        .map(|row| HeldLock {
            relid: row.get("relid"),
            name: row.get("name"),
            kind: row.get("kind"),
            mode: row.get("mode"),
        })
        .collect())
}

/// Step 6, last: the relations the transaction may write, from the
/// catalogs (the two tables were locked against DDL before).
pub(super) fn write_set(
    tx: &mut Pinned<'_>,
    schema: &Schema,
    report: &SchemaReport,
) -> Result<WriteSet> {
    let (Some(deployments), Some(events)) = (
        report.oids.get("deployments").copied(),
        report.oids.get("deployment_events").copied(),
    ) else {
        return Err(exit::refused(
            "deployments or deployment_events is missing; nothing was written",
        ));
    };
    let mut set = WriteSet {
        deployments_name: format!("{}.deployments", escaped(schema.name())),
        events_name: format!("{}.deployment_events", escaped(schema.name())),
        ..WriteSet::default()
    };
    for row in sql::fail_safely::WRITE_SET
        .query_catalog(tx, &[&deployments, &events])
        .context("reading the partitions, indexes and TOAST of the written tables")?
    {
        let relid: i64 = row.get("relid");
        let root: String = row.get("root");
        let part: String = row.get("part");
        set.all.insert(relid);
        match (part.as_str(), root.as_str()) {
            ("table", "deployments") => {
                set.deployments.insert(relid);
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
    Ok(set)
}
