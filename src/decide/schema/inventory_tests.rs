use super::super::tests::{complete, judged};
use super::*;
use crate::decide::schema::judge;

/// The complete schema with `row` in its inventory.
fn with(row: InventoryRow) -> SchemaFacts {
    let mut facts = complete();
    facts.inventory.push(row);
    facts
}

fn row(what: &str, relation: &str, detail: &str) -> InventoryRow {
    InventoryRow {
        what: what.into(),
        root: "jobs".into(),
        relation: relation.into(),
        detail: detail.into(),
        schema: None,
        name: None,
    }
}

#[test]
fn a_relation_that_is_not_a_table_is_a_problem() {
    let report = judged(&with(row("kind", "jobs_remote", "a foreign table")));
    assert_eq!(
        report.inventory_problems,
        [
            "jobs_remote (a partition or child of jobs) is a foreign table, not a plain or \
             partitioned table: fail-safely cannot lock or vouch for its rows. To fix it: \
             detach it from jobs, or run the runbook by hand"
        ]
    );
    assert_eq!(report.relations_inventoried, 1);
    assert!(!report.ok());
}

#[test]
fn row_level_security_is_a_problem() {
    let report = judged(&with(row("row_security", "jobs", "tenant_only")));
    assert_eq!(report.inventory_problems.len(), 1);
    assert!(report.inventory_problems[0].starts_with(
        "row-level security applies to this role on jobs (policies: tenant_only): rows the \
         decision rests on may be hidden"
    ));
}

#[test]
fn a_child_without_the_locking_foreign_key_is_a_problem() {
    let report = judged(&with(row(
        "child_foreign_key",
        "jobs_2026",
        "to deployments",
    )));
    assert_eq!(report.inventory_problems.len(), 1);
    let problem = &report.inventory_problems[0];
    assert!(problem.starts_with(
        "jobs_2026 (a partition or child of jobs) has no foreign key to deployments.id"
    ));
    assert!(problem.contains("add the foreign key to jobs_2026 as its parent has it"));
}

#[test]
fn code_outside_pg_catalog_is_a_problem_unless_listed() {
    let mut code = row("code", "deployments", "the default of id");
    code.root = "deployments".into();
    code.schema = Some("public".into());
    code.name = Some("new_id".into());
    let facts = with(code);
    let report = judged(&facts);
    assert_eq!(report.inventory_problems.len(), 1);
    assert!(
        report.inventory_problems[0]
            .starts_with("the default of id on deployments calls public.new_id, which")
    );
    let listed = AllowedTriggers::parse(&["public.new_id".to_string()]);
    let report = judge(&facts, "public", &listed);
    assert!(report.inventory_problems.is_empty());
    assert_eq!(
        report.allowed,
        ["the default of id on deployments calls public.new_id"]
    );
    assert_eq!(report.relations_inventoried, 1);
}

#[test]
fn an_unreadable_column_is_a_problem_only_when_the_tool_reads_it() {
    let report = judged(&with(row("privilege", "jobs", "lease_token")));
    assert_eq!(
        report.inventory_problems,
        [
            "this role may not read jobs.lease_token: the decision needs it. To fix it: GRANT \
             SELECT (lease_token) ON jobs TO the role, or run with --role set to one that may"
        ]
    );
    let unread = judged(&with(row("privilege", "jobs", "notes")));
    assert!(unread.inventory_problems.is_empty());
    assert_eq!(unread.relations_inventoried, 0);
}

#[test]
fn an_unknown_finding_is_still_a_problem() {
    let report = judged(&with(row("sequence", "jobs", "jobs_id_seq")));
    assert_eq!(report.inventory_problems, ["jobs: sequence jobs_id_seq"]);
}
