//! The schema check ([`schema_check`]), in doctor's words: one line each
//! for the tables, the foreign keys, the protecting triggers, the other
//! triggers and rules of the written tables, and the inventory.

use anyhow::{Context, Result};
use postgres::Row;
use serde_json::Value;

use super::{Checks, Expect, Status};
use crate::db::schema_check::{self, SchemaReport};

/// The schema check (its statement's rows, read in doctor's flight), as
/// four lines of the report.
pub(super) fn schema(rows: Vec<Row>, expect: &Expect, checks: &mut Checks) -> Result<()> {
    let doc: Value = rows
        .into_iter()
        .next()
        .context("sql/schema_check/check.sql returned no row")?
        .try_get(0)
        .context("reading the schema check")?;
    let facts = schema_check::read(&doc).context("reading the schema check")?;
    let report =
        crate::decide::schema::judge(&facts, expect.schema.name(), &expect.allowed_triggers);
    tables(&report, expect, checks);
    foreign_keys(&report, checks);
    triggers(&report, checks);
    other_triggers(&report, checks);
    inventory(&report, checks);
    Ok(())
}

/// The "inventory" lines: the closed world of every table's tree, one line
/// per problem, each with its next step.
fn inventory(report: &SchemaReport, checks: &mut Checks) {
    if report.inventory_problems.is_empty() {
        checks.push(
            "inventory",
            Status::Ok,
            "every table and its partitions and children: plain or partitioned tables, no \
             row-level security that filters this role, the locking foreign keys on every \
             child, no code outside pg_catalog in the written tables' defaults, constraints \
             and indexes, every column readable",
        );
    } else {
        for problem in &report.inventory_problems {
            checks.push(
                "inventory",
                Status::Fail,
                format!("{problem}. fail-safely refuses to write while this is so"),
            );
        }
    }
}

/// The "schema" line: tables, columns and types.
fn tables(report: &SchemaReport, expect: &Expect, checks: &mut Checks) {
    if report.schema_ok() {
        checks.push(
            "schema",
            Status::Ok,
            format!(
                "{} tables and {} columns as expected in schema {}",
                report.tables_checked,
                report.columns_checked,
                crate::model::text::escaped(expect.schema.name())
            ),
        );
    } else {
        checks.push("schema", Status::Fail, report.schema_problems.join("; "));
    }
}

/// The "foreign keys" line: the keys "decide under locks" rests on.
fn foreign_keys(report: &SchemaReport, checks: &mut Checks) {
    if report.foreign_key_problems.is_empty() {
        checks.push(
            "foreign keys",
            Status::Ok,
            format!(
                "decide under locks holds: {}",
                report.foreign_keys.join(", ")
            ),
        );
    } else {
        checks.push(
            "foreign keys",
            Status::Fail,
            format!(
                "{}. fail-safely refuses to write until they are back",
                report.foreign_key_problems.join("; ")
            ),
        );
    }
}

/// The "triggers" line: the triggers that protect the audit trail.
fn triggers(report: &SchemaReport, checks: &mut Checks) {
    if report.protecting_triggers_ok() {
        let names: Vec<String> = report
            .triggers
            .iter()
            .map(|t| format!("{} {}", t.table, t.operation.as_str()))
            .collect();
        checks.push(
            "triggers",
            Status::Ok,
            format!(
                "the audit trail is protected (BEFORE triggers enabled and refusing: {})",
                names.join(", ")
            ),
        );
    } else {
        checks.push(
            "triggers",
            Status::Fail,
            format!(
                "{}. fail-safely refuses to write until they are back",
                report.trigger_problems.join("; ")
            ),
        );
    }
}

/// The "other triggers" line: the triggers and rules of the written tables
/// that fail-safely cannot vouch for, or that only the allow-list vouches
/// for.
fn other_triggers(report: &SchemaReport, checks: &mut Checks) {
    if !report.unvouched.is_empty() {
        checks.push(
            "other triggers",
            Status::Fail,
            format!(
                "fail-safely cannot vouch for: {}. A trigger or rule on the tables it writes runs \
                 inside its transaction, as its user, where it can TRUNCATE, run DDL or reach \
                 another database unseen; fail-safely refuses while they are there. Next step: \
                 review them, and list the safe ones in PUSHLEFT_ALLOWED_TRIGGERS",
                report.unvouched.join("; ")
            ),
        );
    } else if !report.allowed.is_empty() {
        checks.push(
            "other triggers",
            Status::Warn,
            format!(
                "allowed by PUSHLEFT_ALLOWED_TRIGGERS: {}; the guard still checks what they \
                 change, but cannot see a NOTIFY or another database",
                report.allowed.join("; ")
            ),
        );
    } else {
        checks.push(
            "other triggers",
            Status::Ok,
            "no trigger or rule on deployments or deployment_events but the reference schema's own",
        );
    }
}
