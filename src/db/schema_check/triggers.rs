//! The protecting triggers of the audit trail, and the triggers and rules
//! of the two tables fail-safely writes.

use std::collections::BTreeMap;

use crate::db::sql::Conn;
use anyhow::{Context, Result};

use super::{AllowedTriggers, FoundTrigger, Operation, SchemaReport};
use crate::db::sql::{self, Schema};
use crate::decide::triggers::{Rule, Trigger, protects, vouch};
use crate::model::text::escaped;

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

/// The triggers, relations and rules of the trees of the tables the
/// trigger checks look at, read once (three statements, whatever the
/// number of tables), by the table's oid.
#[derive(Default)]
pub(super) struct Trees {
    triggers: BTreeMap<i64, Vec<Trigger>>,
    relations: BTreeMap<i64, Vec<(String, String)>>,
    rules: BTreeMap<i64, Vec<Rule>>,
}

impl Trees {
    /// The trees of the protected and the written tables found so far.
    pub(super) fn read(client: &mut impl Conn, report: &SchemaReport) -> Result<Trees> {
        let mut roots: Vec<i64> = PROTECTING_TRIGGERS
            .iter()
            .map(|(table, _)| *table)
            .chain(WRITTEN_TABLES.iter().map(|(table, _)| *table))
            .filter_map(|table| report.oids.get(table).copied())
            .collect();
        roots.sort_unstable();
        roots.dedup();
        let mut trees = Trees::default();
        for row in sql::schema_check::TRIGGERS
            .query_catalog(client, &[&roots])
            .context("reading the triggers of the tables")?
        {
            trees
                .triggers
                .entry(row.get("root"))
                .or_default()
                .push(Trigger {
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
                });
        }
        for row in sql::schema_check::TREE
            .query_catalog(client, &[&roots])
            .context("reading the partitions of the tables")?
        {
            trees
                .relations
                .entry(row.get("root"))
                .or_default()
                .push((row.get("relation"), row.get("relkind")));
        }
        for row in sql::schema_check::RULES
            .query_catalog(client, &[&roots])
            .context("reading the rules of the tables")?
        {
            trees.rules.entry(row.get("root")).or_default().push(Rule {
                relation: row.get("relation"),
                name: row.get("name"),
            });
        }
        Ok(trees)
    }

    fn triggers(&self, oid: i64) -> &[Trigger] {
        self.triggers.get(&oid).map(Vec::as_slice).unwrap_or(&[])
    }

    fn relations(&self, oid: i64) -> &[(String, String)] {
        self.relations.get(&oid).map(Vec::as_slice).unwrap_or(&[])
    }

    fn rules(&self, oid: i64) -> &[Rule] {
        self.rules.get(&oid).map(Vec::as_slice).unwrap_or(&[])
    }
}

/// For each protected table and operation, on every relation of its tree
/// that holds rows: an enabled BEFORE trigger that refuses.
pub(super) fn check_triggers(trees: &Trees, schema: &Schema, report: &mut SchemaReport) {
    for (table, operation) in PROTECTING_TRIGGERS {
        let Some(oid) = report.oids.get(table).copied() else {
            continue;
        };
        check_protected(
            schema,
            table,
            *operation,
            trees.triggers(oid),
            trees.relations(oid),
            report,
        );
    }
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
            format!("{} (a partition of {table})", escaped(relation))
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
            escaped(schema.name()),
            escaped(relation),
            escaped(&t.name)
        ),
        _ => "see the reference trigger in sql/schema.sql".to_string(),
    };
    let what = if t.enabled == "D" {
        format!(
            "the BEFORE {} trigger {} on {on} is disabled",
            operation.as_str(),
            escaped(&t.name)
        )
    } else {
        format!(
            "the {} trigger {} on {on} does not protect it: {why}",
            operation.as_str(),
            escaped(&t.name)
        )
    };
    format!("{what}: the audit trail is not protected ({fix})")
}

/// The triggers and rules of the two written tables: each vouched for, or
/// a problem.
pub(super) fn check_written_tables(
    trees: &Trees,
    allowed: &AllowedTriggers,
    report: &mut SchemaReport,
) {
    for (table, reference) in WRITTEN_TABLES {
        let Some(oid) = report.oids.get(table).copied() else {
            continue;
        };
        let vouching = vouch(
            table,
            reference,
            allowed,
            trees.triggers(oid),
            trees.rules(oid),
        );
        report.unvouched.extend(vouching.unvouched);
        report.allowed.extend(vouching.allowed);
    }
}
