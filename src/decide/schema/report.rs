//! What the schema check found, for `doctor`'s report and `fail-safely`'s
//! refusal.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::decide::triggers::Operation;

/// A protecting trigger that was found, for reports.
#[derive(Debug, Clone, Serialize)]
pub struct FoundTrigger {
    pub table: String,
    pub operation: Operation,
    pub name: String,
    pub function: String,
}

/// What [`judge`](super::judge) found. Empty problem lists mean the schema is as
/// expected.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SchemaReport {
    pub tables_checked: usize,
    pub columns_checked: usize,
    /// Missing tables or columns, incompatible types, a missing unique key.
    pub schema_problems: Vec<String>,
    /// Locking foreign keys missing or not enforced.
    pub foreign_key_problems: Vec<String>,
    /// The locking foreign keys that are in place, in words.
    pub foreign_keys: Vec<String>,
    /// Protecting triggers missing, disabled, mistimed or not refusing.
    pub trigger_problems: Vec<String>,
    /// The protecting triggers that are in place.
    pub triggers: Vec<FoundTrigger>,
    /// Triggers and rules on the written tables nobody vouches for.
    pub unvouched: Vec<String>,
    /// Triggers and rules on the written tables vouched for only because
    /// `PUSHLEFT_ALLOWED_TRIGGERS` lists them.
    pub allowed: Vec<String>,
    /// What the inventory found that nobody vouches for: relations that
    /// are not tables, row-level security, children without the locking
    /// foreign keys, code outside pg_catalog, unreadable columns.
    pub inventory_problems: Vec<String>,
    /// How many things the inventory reported.
    #[serde(skip)]
    pub relations_inventoried: usize,
    /// The enforcing trigger of `approvals install --enforce` is on the
    /// events table, exactly as the tool creates it (vouched for).
    #[serde(skip)]
    pub enforcing: bool,
    /// The oid of each table found, by name.
    #[serde(skip)]
    pub oids: BTreeMap<&'static str, i64>,
}

impl SchemaReport {
    /// Every table, column, key and trigger is as expected.
    pub fn ok(&self) -> bool {
        self.schema_problems.is_empty()
            && self.foreign_key_problems.is_empty()
            && self.trigger_problems.is_empty()
            && self.unvouched.is_empty()
            && self.inventory_problems.is_empty()
    }

    /// Tables, columns and types are as expected.
    pub fn schema_ok(&self) -> bool {
        self.schema_problems.is_empty()
    }

    /// Every protecting trigger is present, enabled and refusing.
    /// `fail-safely` refuses to write without them.
    pub fn protecting_triggers_ok(&self) -> bool {
        self.trigger_problems.is_empty()
    }

    /// Every problem, one sentence each (schema, foreign keys, protecting
    /// triggers, then triggers nobody vouches for).
    pub fn problems(&self) -> Vec<String> {
        self.schema_problems
            .iter()
            .chain(&self.foreign_key_problems)
            .chain(&self.trigger_problems)
            .chain(&self.unvouched)
            .chain(&self.inventory_problems)
            .cloned()
            .collect()
    }
}

#[cfg(test)]
#[path = "report_tests.rs"]
mod tests;
