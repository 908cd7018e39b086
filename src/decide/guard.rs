//! The guard's rules (pushleft-controller-fail-safely(1), STEP BY STEP, step 11), pure:
//! given what the transaction did by the server's own accounts, did it
//! change exactly one `deployments` row and insert exactly one event, and
//! nothing else anywhere?
//!
//! Two accounts, both of this backend's transaction only:
//!
//! - the per-transaction tuple counters of every table, catalogs included
//!   (`pg_stat_xact_all_tables`), read at the start and just before COMMIT
//!   and compared as a delta (on PostgreSQL 15 they also carry
//!   not-yet-flushed counts of earlier transactions, so absolute values
//!   lie). Counting the catalogs makes DDL, a TRUNCATE (a new relfilenode
//!   in `pg_class`) and `CREATE ROLE` visible, not only row writes; the
//!   written tables count with all their partitions;
//! - the locks the transaction holds (`pg_locks`): anything stronger than
//!   a read lock on a relation outside the two written tables (a TRUNCATE,
//!   DDL, `LOCK TABLE`, a sequence advanced by `nextval`).
//!
//! What neither account sees (another database reached through dblink, a
//! NOTIFY) is kept out instead: fail-safely refuses when the written
//! tables carry a trigger or rule it cannot vouch for (`triggers`).

use std::collections::{BTreeMap, BTreeSet};

use uuid::Uuid;

use crate::exit;

/// Per relation (its oid): its name (`schema.name`) and the rows inserted,
/// updated and deleted in this transaction.
pub type Counters = BTreeMap<i64, (String, [i64; 3])>;

/// The relations the transaction may write: the partition (or
/// inheritance) trees of the two tables, their TOAST tables and all their
/// indexes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WriteSet {
    /// `schema.deployments`, for messages.
    pub deployments_name: String,
    /// `schema.deployment_events`, for messages.
    pub events_name: String,
    /// The tables of the `deployments` tree (itself, its partitions).
    pub deployments: BTreeSet<i64>,
    /// The tables of the `deployment_events` tree.
    pub events: BTreeSet<i64>,
    /// `pushleft_approvals.applications` (a database that records plans).
    pub applications: BTreeSet<i64>,
    /// How many applications this write records there (0 or 1).
    pub applications_expected: i64,
    /// The TOAST tables of both trees (a long reason is stored there).
    pub toast: BTreeSet<i64>,
    /// Every relation above, with the indexes of all of them.
    pub all: BTreeSet<i64>,
}

fn delta(before: &Counters, relid: i64, now: [i64; 3]) -> [i64; 3] {
    let was = before.get(&relid).map(|(_, c)| *c).unwrap_or([0, 0, 0]);
    [now[0] - was[0], now[1] - was[1], now[2] - was[2]]
}

fn counts(d: [i64; 3]) -> String {
    format!("{} inserted, {} updated, {} deleted", d[0], d[1], d[2])
}

/// `Ok` when the delta is exactly the runbook's change, else every table
/// that changed otherwise, in words.
pub fn check_guard(before: &Counters, after: &Counters, set: &WriteSet) -> Result<(), String> {
    let mut violations = Vec::new();
    let applications_name = "pushleft_approvals.applications".to_string();
    let mut groups = [
        (
            &set.deployments,
            &set.deployments_name,
            [0i64, 1, 0],
            [0i64; 3],
        ),
        (&set.events, &set.events_name, [1, 0, 0], [0; 3]),
        (
            &set.applications,
            &applications_name,
            [set.applications_expected, 0, 0],
            [0; 3],
        ),
    ];
    for (&relid, (name, now)) in after {
        let d = delta(before, relid, *now);
        if d == [0, 0, 0] {
            continue;
        }
        if let Some(group) = groups.iter_mut().find(|g| g.0.contains(&relid)) {
            for (sum, part) in group.3.iter_mut().zip(d) {
                *sum += part;
            }
        } else if set.toast.contains(&relid) {
            // A long reason is stored out of line: inserts only.
            if d[1] != 0 || d[2] != 0 {
                violations.push(format!("{name} ({})", counts(d)));
            }
        } else {
            let why = if name.starts_with("pg_catalog.") || name.starts_with("pg_toast.") {
                ": DDL, a TRUNCATE or a new role"
            } else {
                ""
            };
            violations.push(format!("{name} ({}; allowed 0 / 0 / 0){why}", counts(d)));
        }
    }
    for (_, name, allowed, sum) in groups {
        if sum != allowed {
            violations.push(format!(
                "{name} ({}; allowed {} / {} / {})",
                counts(sum),
                allowed[0],
                allowed[1],
                allowed[2]
            ));
        }
    }
    if violations.is_empty() {
        Ok(())
    } else {
        Err(violations.join("; "))
    }
}

/// A lock this backend holds on a relation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeldLock {
    pub relid: i64,
    /// `schema.name` (or the oid when the relation is gone).
    pub name: String,
    /// `pg_class.relkind`.
    pub kind: String,
    pub mode: String,
}

/// `Ok` unless the transaction holds more than a read lock on a relation
/// outside the write set, or more than ROW EXCLUSIVE inside it.
pub fn check_locks(locks: &[HeldLock], set: &WriteSet) -> Result<(), String> {
    let violations: Vec<String> = locks
        .iter()
        .filter(|l| !matches!(l.mode.as_str(), "AccessShareLock" | "RowShareLock"))
        .filter(|l| !(l.mode == "RowExclusiveLock" && set.all.contains(&l.relid)))
        .map(|l| {
            let (what, why) = match (l.kind.as_str(), l.mode.as_str()) {
                ("S", _) => ("sequence", "a sequence was advanced (nextval)"),
                (_, "RowExclusiveLock") => ("relation", "a write"),
                ("i", _) => ("index", "DDL or a TRUNCATE"),
                _ => ("table", "DDL, a TRUNCATE or LOCK TABLE"),
            };
            format!("{} ({what}) is held in {}: {why}", l.name, l.mode)
        })
        .collect();
    if violations.is_empty() {
        Ok(())
    } else {
        Err(violations.join("; "))
    }
}

/// Step 11's judgement: the counters and the locks after the writes must
/// show nothing but the runbook's writes; otherwise the refusal, which
/// rolls everything back.
pub fn runbook_writes_only(
    id: Uuid,
    before: &Counters,
    after: &Counters,
    locks: &[HeldLock],
    set: &WriteSet,
) -> anyhow::Result<()> {
    let Err(violations) = check_guard(before, after, set).and_then(|()| check_locks(locks, set))
    else {
        return Ok(());
    };
    Err(exit::refused(format!(
        "guard: the transaction for deployment {id} changed more than the runbook allows: {violations}. \
         Probably a trigger of this database; everything was rolled back and nothing was written. \
         Find out what the trigger does before retrying (`pushleft-controller doctor` lists them)"
    )))
}

#[cfg(test)]
#[path = "guard_tests.rs"]
mod tests;
