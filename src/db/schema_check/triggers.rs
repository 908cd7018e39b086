//! The protecting triggers of the audit trail, and the triggers and rules
//! of the two tables fail-safely writes.

use std::collections::BTreeMap;

use crate::db::sql::Conn;
use anyhow::{Context, Result};

use super::{AllowedTriggers, FoundTrigger, Operation, SchemaReport};
use crate::db::sql::{self, Schema};
use crate::decide::triggers::{Rule, Trigger, protects, visible, vouch};

/// The triggers that keep the audit trail intact (README, "The database it
/// talks to"): table and operation, each needing an enabled BEFORE trigger
/// that refuses.
pub const PROTECTING_TRIGGERS: &[(&str, Operation)] = &[
    ("deployment_events", Operation::Delete),
    ("jobs", Operation::Delete),
    ("agent_job_results", Operation::Delete),
    ("deployment_events", Operation::Update),
    ("agent_job_results", Operation::Update),
];

/// The tables fail-safely writes, and the reference schema's own triggers
/// on them (by name, with the operation each refuses): the only ones it
/// vouches for without being told.
pub const WRITTEN_TABLES: &[(&str, &[(&str, Operation)])] = &[
    ("deployments", &[]),
    (
        "deployment_events",
        &[
            ("deployment_events_refuse_delete", Operation::Delete),
            ("deployment_events_refuse_update", Operation::Update),
            ("deployment_events_refuse_truncate", Operation::Truncate),
        ],
    ),
];

/// The triggers of a table's whole tree.
fn triggers_of(client: &mut impl Conn, table: &str, oid: i64) -> Result<Vec<Trigger>> {
    Ok(sql::schema_check::TRIGGERS
        .query_catalog(client, &[&oid])
        .with_context(|| format!("reading the triggers of {table}"))?
        .iter()
        .map(|row| Trigger {
            relation: row.get("relation"),
            name: row.get("name"),
            enabled: row.get("enabled"),
            tgtype: row.get("tgtype"),
            internal: row.get("internal"),
            constraint: row.get("constraint_trigger"),
            function: row.get("function"),
            builtin: row.get("builtin"),
            language: row.get("language"),
            source: row.get("source"),
        })
        .collect())
}

/// The triggers of a table's tree, and its relations (name, relkind).
type TableTriggers = (Vec<Trigger>, Vec<(String, String)>);

/// For each protected table and operation, on every relation of its tree
/// that holds rows: an enabled BEFORE trigger that refuses.
pub(super) fn check_triggers(
    client: &mut impl Conn,
    schema: &Schema,
    report: &mut SchemaReport,
) -> Result<()> {
    let mut by_table: BTreeMap<&str, TableTriggers> = BTreeMap::new();
    for (table, operation) in PROTECTING_TRIGGERS {
        let Some(oid) = report.oids.get(table).copied() else {
            continue;
        };
        if !by_table.contains_key(table) {
            by_table.insert(table, tree_of(client, table, oid)?);
        }
        let (triggers, relations) = &by_table[table];
        check_protected(schema, table, *operation, triggers, relations, report);
    }
    Ok(())
}

/// The triggers of a table's whole tree, and the relations of that tree.
fn tree_of(client: &mut impl Conn, table: &str, oid: i64) -> Result<TableTriggers> {
    let triggers = triggers_of(client, table, oid)?;
    let relations = sql::schema_check::TREE
        .query_catalog(client, &[&oid])
        .with_context(|| format!("reading the partitions of {table}"))?
        .iter()
        .map(|r| (r.get("relation"), r.get("relkind")))
        .collect();
    Ok((triggers, relations))
}

/// One protected table and operation: on every relation of its tree that
/// holds rows, an enabled BEFORE trigger that refuses; the trigger found
/// is reported when no relation of the tree lacks one.
fn check_protected(
    schema: &Schema,
    table: &str,
    operation: Operation,
    triggers: &[Trigger],
    relations: &[(String, String)],
    report: &mut SchemaReport,
) {
    let problems_before = report.trigger_problems.len();
    let mut found: Option<&Trigger> = None;
    for (relation, relkind) in relations {
        // A partitioned table holds no rows; its partitions do.
        if relkind == "p" {
            continue;
        }
        let candidates: Vec<&Trigger> = triggers
            .iter()
            .filter(|t| &t.relation == relation && t.on(operation) && !t.internal)
            .collect();
        let protecting = candidates.iter().find(|t| protects(t, operation).is_ok());
        let on = if relation == table {
            table.to_string()
        } else {
            format!("{} (a partition of {table})", visible(relation))
        };
        match (protecting, candidates.first()) {
            (Some(t), _) => {
                found.get_or_insert(t);
            }
            (None, Some(t)) => report
                .trigger_problems
                .push(not_protecting(schema, relation, &on, operation, t)),
            (None, None) => report.trigger_problems.push(format!(
                "no BEFORE {} trigger on {on}: the audit trail is not protected \
                 (see sql/schema.sql)",
                operation.as_str()
            )),
        }
    }
    if let Some(t) = found
        && report.trigger_problems.len() == problems_before
    {
        report.triggers.push(FoundTrigger {
            table: table.to_string(),
            operation,
            name: t.name.clone(),
            function: t.function.clone(),
        });
    }
}

/// The problem with a trigger on `relation` (`on`, in words) that is there
/// for `operation` but does not protect it: disabled, or not refusing.
fn not_protecting(
    schema: &Schema,
    relation: &str,
    on: &str,
    operation: Operation,
    t: &Trigger,
) -> String {
    let why = protects(t, operation).unwrap_err();
    let fix = match t.enabled.as_str() {
        "D" | "R" => format!(
            "next step: ALTER TABLE {}.{} ENABLE TRIGGER {}",
            visible(schema.name()),
            visible(relation),
            visible(&t.name)
        ),
        _ => "see the reference trigger in sql/schema.sql".to_string(),
    };
    let what = if t.enabled == "D" {
        format!(
            "the BEFORE {} trigger {} on {on} is disabled",
            operation.as_str(),
            visible(&t.name)
        )
    } else {
        format!(
            "the {} trigger {} on {on} does not protect it: {why}",
            operation.as_str(),
            visible(&t.name)
        )
    };
    format!("{what}: the audit trail is not protected ({fix})")
}

/// The triggers and rules of the two written tables: each vouched for, or
/// a problem.
pub(super) fn check_written_tables(
    client: &mut impl Conn,
    allowed: &AllowedTriggers,
    report: &mut SchemaReport,
) -> Result<()> {
    for (table, reference) in WRITTEN_TABLES {
        let Some(oid) = report.oids.get(table).copied() else {
            continue;
        };
        let triggers = triggers_of(client, table, oid)?;
        let rules: Vec<Rule> = sql::schema_check::RULES
            .query_catalog(client, &[&oid])
            .with_context(|| format!("reading the rules of {table}"))?
            .iter()
            .map(|r| Rule {
                relation: r.get("relation"),
                name: r.get("name"),
            })
            .collect();
        let vouching = vouch(table, reference, allowed, &triggers, &rules);
        report.unvouched.extend(vouching.unvouched);
        report.allowed.extend(vouching.allowed);
    }
    Ok(())
}
