//! The closed world (README, "What fail-safely checks before it writes"):
//! every table the decision reads or the write touches, and every
//! partition and inheritance child of each, in one catalog statement
//! (`sql/schema_check/inventory.sql`). Whatever could hide a row from the
//! decision or run code inside the write, and is not vouched for, is a
//! problem: fail-safely refuses, doctor lists it.

use anyhow::{Context, Result};

use super::tables::read_columns;
use super::triggers::WRITTEN_TABLES;
use super::{AllowedTriggers, SchemaReport};
use crate::db::sql::{self, Conn};
use crate::model::text::escaped;

/// Runs the inventory over the tables found so far (`report.oids`) and
/// records what it found, for the role in effect.
pub(super) fn check_inventory(
    client: &mut impl Conn,
    allowed: &AllowedTriggers,
    report: &mut SchemaReport,
) -> Result<()> {
    let (names, oids): (Vec<String>, Vec<i64>) = report
        .oids
        .iter()
        .map(|(name, oid)| (name.to_string(), *oid))
        .unzip();
    let written: Vec<String> = WRITTEN_TABLES.iter().map(|(t, _)| t.to_string()).collect();
    let (tables, columns): (Vec<String>, Vec<String>) = read_columns()
        .map(|(t, c)| (t.to_string(), c.to_string()))
        .unzip();
    let rows = sql::schema_check::INVENTORY
        .query_catalog(client, &[&names, &oids, &written, &tables, &columns])
        .context("taking the inventory of the tables (sql/schema_check/inventory.sql)")?;
    for row in &rows {
        let found = Found {
            what: row.get("what"),
            root: row.get("root"),
            relation: row.get("relation"),
            detail: row.get("detail"),
            schema: row.get("schema_name"),
            name: row.get("name"),
        };
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
    report.relations_inventoried = rows.len();
    Ok(())
}

/// One row of the inventory.
struct Found {
    what: String,
    root: String,
    relation: String,
    detail: String,
    schema: Option<String>,
    name: Option<String>,
}

impl Found {
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
