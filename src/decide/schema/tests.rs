//! `judge` over a schema as the reference builds it, and the facts the
//! sibling tests (`tables_tests.rs`, …) start from and break one at a time.

use super::tables::{EXPECTED, Kind};
use super::*;
use crate::decide::triggers::{Operation, Trigger};

// PL/pgSQL as the reference schema writes it (in lower case: the layers
// test takes upper-case SQL in a Rust string for a statement).
pub(super) const REFUSE: &str = "\nbegin\n    raise exception '% on % is refused', tg_op, tg_table_name\n        using errcode = 'insufficient_privilege';\nend;\n";

// tgtype: 1 row, 2 before, 4 insert, 8 delete, 16 update, 32 truncate.
pub(super) const BEFORE_ROW_DELETE: i32 = 1 | 2 | 8;
pub(super) const BEFORE_ROW_UPDATE: i32 = 1 | 2 | 16;
const BEFORE_TRUNCATE: i32 = 2 | 32;

/// A server type `kind` accepts.
fn server_type(kind: Kind) -> &'static str {
    match kind {
        Kind::Timestamptz => "timestamp with time zone",
        other => other.expected(),
    }
}

/// An enabled trigger on `relation` calling a function that refuses.
pub(super) fn refusing(relation: &str, name: &str, tgtype: i32) -> Trigger {
    Trigger {
        relation: relation.into(),
        name: name.into(),
        enabled: "O".into(),
        tgtype,
        internal: false,
        constraint: false,
        function: "public.refuse_audit_change()".into(),
        builtin: false,
        language: "plpgsql".into(),
        source: REFUSE.into(),
    }
}

/// `trigger` on the tree of `root`.
pub(super) fn on_tree(root: &str, trigger: Trigger) -> TreeTrigger {
    TreeTrigger {
        root: root.into(),
        trigger,
    }
}

/// The name `complete` gives the trigger protecting `table` from
/// `operation` (the reference schema's own on the events).
pub(super) fn protecting_name(table: &str, operation: Operation) -> String {
    format!("{table}_refuse_{}", operation.as_str().to_lowercase())
}

/// Every table, column, key and trigger as `sql/schema.sql` makes them:
/// nothing to find.
pub(super) fn complete() -> SchemaFacts {
    let tables = EXPECTED
        .iter()
        .zip(1..)
        .map(|((name, columns), oid)| TableFacts {
            name: name.to_string(),
            oid,
            columns: columns
                .iter()
                .map(|(column, kind)| ColumnFacts {
                    name: column.to_string(),
                    server_type: server_type(*kind).to_string(),
                })
                .collect(),
        })
        .collect();
    let foreign_keys = LOCKING_FOREIGN_KEYS
        .iter()
        .map(|(child, column, parent)| ForeignKeyFacts {
            child: child.to_string(),
            column: column.to_string(),
            parent: parent.to_string(),
            name: format!("{child}_{column}_fkey"),
            disabled: false,
        })
        .collect();
    let relations = [
        "deployments",
        "deployment_events",
        "jobs",
        "agent_job_results",
    ]
    .iter()
    .map(|root| TreeRelation {
        root: root.to_string(),
        relation: root.to_string(),
        relkind: "r".into(),
    })
    .collect();
    let mut triggers: Vec<TreeTrigger> = PROTECTING_TRIGGERS
        .iter()
        .map(|(table, operation)| {
            let tgtype = match operation {
                Operation::Update => BEFORE_ROW_UPDATE,
                _ => BEFORE_ROW_DELETE,
            };
            on_tree(
                table,
                refusing(table, &protecting_name(table, *operation), tgtype),
            )
        })
        .collect();
    let truncate = refusing(
        "deployment_events",
        "deployment_events_refuse_truncate",
        BEFORE_TRUNCATE,
    );
    triggers.push(on_tree("deployment_events", truncate));
    SchemaFacts {
        tables,
        unique_key: true,
        foreign_keys,
        relations,
        triggers,
        enforce_body: "\nbegin\n    return null;\nend;\n",
        ..SchemaFacts::default()
    }
}

/// `judge` in the schema `public`, vouching for nothing more.
pub(super) fn judged(facts: &SchemaFacts) -> SchemaReport {
    judge(facts, "public", &AllowedTriggers::default())
}

#[test]
fn the_reference_schema_is_as_expected() {
    let report = judged(&complete());
    assert!(report.ok(), "{:?}", report.problems());
    assert_eq!(report.tables_checked, EXPECTED.len());
    let columns: usize = EXPECTED.iter().map(|(_, c)| c.len()).sum();
    assert_eq!(report.columns_checked, columns);
    assert_eq!(report.oids.len(), EXPECTED.len());
    assert_eq!(report.foreign_keys.len(), LOCKING_FOREIGN_KEYS.len());
    assert_eq!(
        report.foreign_keys[0],
        "jobs.deployment_id → deployments (jobs_deployment_id_fkey)"
    );
    assert_eq!(report.triggers.len(), PROTECTING_TRIGGERS.len());
    assert!(report.unvouched.is_empty() && report.allowed.is_empty());
    assert!(!report.enforcing);
    assert_eq!(report.relations_inventoried, 0);
}

#[test]
fn the_schema_name_is_in_the_next_steps() {
    let mut facts = complete();
    facts.foreign_keys.retain(|k| k.child != "jobs");
    let report = judge(&facts, "control", &AllowedTriggers::default());
    assert_eq!(report.foreign_key_problems.len(), 1);
    assert!(
        report.foreign_key_problems[0]
            .contains("TABLE control.jobs ADD FOREIGN KEY (deployment_id) REFERENCES control.deployments (id) NOT VALID"),
        "{}",
        report.foreign_key_problems[0]
    );
}
