//! The protecting triggers of the audit trail, and the triggers and rules
//! of the two tables fail-safely writes.

use super::{FoundTrigger, SchemaFacts, SchemaReport, TreeRelation};
use crate::decide::triggers::{
    AllowedTriggers, Operation, Trigger, enforcing_trigger, protects, vouch,
};
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

/// For each protected table and operation, on every relation of its tree
/// that holds rows: an enabled BEFORE trigger that refuses.
pub(super) fn check_triggers(facts: &SchemaFacts, schema: &str, report: &mut SchemaReport) {
    for (table, operation) in PROTECTING_TRIGGERS {
        if !report.oids.contains_key(table) {
            continue;
        }
        let relations: Vec<&TreeRelation> = facts.relations_of(table).collect();
        check_protected(
            schema,
            table,
            *operation,
            &facts.triggers_of(table),
            &relations,
            report,
        );
    }
}

/// One protected table and operation: on every relation of its tree that
/// holds rows, an enabled BEFORE trigger that refuses; the trigger found
/// is reported when no relation of the tree lacks one.
fn check_protected(
    schema: &str,
    table: &str,
    operation: Operation,
    triggers: &[Trigger],
    relations: &[&TreeRelation],
    report: &mut SchemaReport,
) {
    let problems_before = report.trigger_problems.len();
    let mut found: Option<&Trigger> = None;
    for TreeRelation {
        relation, relkind, ..
    } in relations.iter().copied()
    {
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
    schema: &str,
    relation: &str,
    on: &str,
    operation: Operation,
    t: &Trigger,
) -> String {
    let why = protects(t, operation).err().unwrap_or_default();
    let fix = match t.enabled.as_str() {
        "D" | "R" => format!(
            "next step: ALTER TABLE {}.{} ENABLE TRIGGER {}",
            escaped(schema),
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
    facts: &SchemaFacts,
    allowed: &AllowedTriggers,
    report: &mut SchemaReport,
) {
    for (table, reference) in WRITTEN_TABLES {
        if !report.oids.contains_key(table) {
            continue;
        }
        // The enforcing trigger of `approvals install --enforce`, exactly
        // as the tool creates it (README, "Two-person break-glass").
        let (ours, others): (Vec<Trigger>, Vec<Trigger>) =
            facts.triggers_of(table).into_iter().partition(|t| {
                *table == "deployment_events" && enforcing_trigger(t, facts.enforce_body)
            });
        report.enforcing |= ours.iter().any(Trigger::fires);
        let vouching = vouch(table, reference, allowed, &others, &facts.rules_of(table));
        report.unvouched.extend(vouching.unvouched);
        report.allowed.extend(vouching.allowed);
    }
}

#[cfg(test)]
#[path = "triggers_tests.rs"]
mod tests;
