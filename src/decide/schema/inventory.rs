//! The closed world (pushleft-controller-fail-safely(1), WHAT FAIL-SAFELY CHECKS BEFORE IT WRITES):
//! every table the decision reads or the write touches, and every
//! partition and inheritance child of each (the `inventory` section of
//! `sql/schema_check/check.sql`). Whatever could hide a row from the
//! decision or run code inside the write, and is not vouched for, is a
//! problem: fail-safely refuses, doctor lists it.

use super::tables::read_columns;
use super::{InventoryRow, SchemaFacts, SchemaReport};
use crate::decide::triggers::AllowedTriggers;
use crate::model::text::escaped;

/// Judges the inventory for the role in effect and records what it found.
/// The statement reports every column the role may not read; only those
/// the tool reads are problems.
pub(super) fn check_inventory(
    facts: &SchemaFacts,
    allowed: &AllowedTriggers,
    report: &mut SchemaReport,
) {
    let mut inventoried = 0;
    for found in &facts.inventory {
        if found.what == "privilege"
            && !read_columns().any(|(t, c)| t == found.root && c == found.detail)
        {
            continue;
        }
        inventoried += 1;
        if found.what == "code"
            && let (Some(schema), Some(name)) = (&found.schema, &found.name)
            && allowed.allows_function(schema, name)
        {
            report.allowed.push(format!(
                "{} on {} calls {}.{}",
                found.detail,
                escaped(&found.relation),
                escaped(schema),
                escaped(name)
            ));
            continue;
        }
        report.inventory_problems.push(found.sentence());
    }
    report.relations_inventoried = inventoried;
}

impl InventoryRow {
    /// The relation, and whose tree it is in when it is a child.
    fn place(&self) -> String {
        if self.relation == self.root {
            escaped(&self.relation).into_owned()
        } else {
            format!(
                "{} (a partition or child of {})",
                escaped(&self.relation),
                self.root
            )
        }
    }

    fn sentence(&self) -> String {
        let place = self.place();
        let detail = escaped(&self.detail);
        match self.what.as_str() {
            "kind" => format!(
                "{place} is {detail}, not a plain or partitioned table: fail-safely cannot lock \
                 or vouch for its rows. To fix it: detach it from {}, or run the runbook by hand",
                self.root
            ),
            "row_security" => format!(
                "row-level security applies to this role on {place} (policies: {detail}): \
                 rows the decision rests on may be hidden, so fail-safely decides nothing. To fix \
                 it: run as a role that row-level security does not filter (the table owner \
                 without FORCE ROW LEVEL SECURITY, a BYPASSRLS role, or --role such a role)"
            ),
            "child_foreign_key" => format!(
                "{place} has no foreign key {detail}.id: a row inserted into it does not wait \
                 for the lock fail-safely holds, so a dispatch could slip in between its \
                 decision and its write. To fix it: add the foreign key to {} as its parent has \
                 it (ALTER TABLE … ADD FOREIGN KEY … NOT VALID)",
                escaped(&self.relation)
            ),
            "code" => format!(
                "{detail} on {place} calls {}.{}, which fail-safely cannot vouch for: it would \
                 run inside its transaction, as its user, where it can write other tables or \
                 reach another database unseen by the guard. If it is part of your control \
                 plane and safe, list it in PUSHLEFT_ALLOWED_TRIGGERS (or --allowed-triggers)",
                escaped(self.schema.as_deref().unwrap_or("?")),
                escaped(self.name.as_deref().unwrap_or("?"))
            ),
            "privilege" => format!(
                "this role may not read {}.{detail}: the decision needs it. To fix it: GRANT \
                 SELECT ({detail}) ON {} TO the role, or run with --role set to one that may",
                self.root, self.root
            ),
            other => format!("{place}: {other} {detail}"),
        }
    }
}

#[cfg(test)]
#[path = "inventory_tests.rs"]
mod tests;
