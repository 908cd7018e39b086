use super::super::tests::{
    BEFORE_ROW_DELETE, complete, judged, on_tree, protecting_name, refusing,
};
use super::*;
use crate::decide::schema::{TreeRule, judge};
use crate::decide::triggers::Rule;

/// The complete schema with the trigger protecting `table` from
/// `operation` changed by `change`.
fn with_protecting(
    table: &str,
    operation: Operation,
    change: impl Fn(&mut Trigger),
) -> SchemaFacts {
    let mut facts = complete();
    let name = protecting_name(table, operation);
    for found in &mut facts.triggers {
        if found.root == table && found.trigger.name == name {
            change(&mut found.trigger);
        }
    }
    facts
}

#[test]
fn a_protecting_trigger_is_found_on_each_table_and_operation() {
    let report = judged(&complete());
    let found: Vec<(&str, Operation)> = report
        .triggers
        .iter()
        .map(|t| (t.table.as_str(), t.operation))
        .collect();
    assert_eq!(found, PROTECTING_TRIGGERS);
    assert_eq!(report.triggers[1].name, "jobs_refuse_delete");
    assert_eq!(report.triggers[1].function, "public.refuse_audit_change()");
}

#[test]
fn a_missing_protecting_trigger_is_a_problem() {
    let mut facts = complete();
    facts.triggers.retain(|t| t.root != "jobs");
    let report = judged(&facts);
    assert_eq!(
        report.trigger_problems,
        ["no BEFORE DELETE trigger on jobs: the audit trail is not protected (see sql/schema.sql)"]
    );
    assert!(report.schema_ok() && !report.protecting_triggers_ok());
    assert_eq!(report.triggers.len(), PROTECTING_TRIGGERS.len() - 1);
}

#[test]
fn a_disabled_protecting_trigger_says_how_to_enable_it() {
    let facts = with_protecting("jobs", Operation::Delete, |t| t.enabled = "D".into());
    assert_eq!(
        judged(&facts).trigger_problems,
        [
            "the BEFORE DELETE trigger jobs_refuse_delete on jobs is disabled: the audit trail \
             is not protected (next step: ALTER TABLE public.jobs ENABLE TRIGGER \
             jobs_refuse_delete)"
        ]
    );
    let replica = with_protecting("jobs", Operation::Delete, |t| t.enabled = "R".into());
    let problems = judged(&replica).trigger_problems;
    assert_eq!(problems.len(), 1);
    assert!(problems[0].contains("does not protect it: it fires only when"));
    assert!(
        problems[0]
            .ends_with("(next step: ALTER TABLE public.jobs ENABLE TRIGGER jobs_refuse_delete)")
    );
}

#[test]
fn an_after_trigger_does_not_protect() {
    let facts = with_protecting("agent_job_results", Operation::Update, |t| {
        t.tgtype = 1 | 16
    });
    let problems = judged(&facts).trigger_problems;
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with(
            "the UPDATE trigger agent_job_results_refuse_update on agent_job_results does not \
             protect it: it fires AFTER UPDATE, FOR EACH ROW, not BEFORE UPDATE"
        ),
        "{}",
        problems[0]
    );
    assert!(problems[0].ends_with("(see the reference trigger in sql/schema.sql)"));
}

#[test]
fn a_trigger_that_does_not_refuse_does_not_protect() {
    let facts = with_protecting("jobs", Operation::Delete, |t| {
        t.source = "begin return old; end".into()
    });
    let problems = judged(&facts).trigger_problems;
    assert_eq!(problems.len(), 1);
    assert!(problems[0].contains("does not refuse"), "{}", problems[0]);
    assert!(problems[0].contains("the audit trail is not protected"));
}

#[test]
fn every_partition_needs_its_own_protecting_trigger() {
    let mut facts = complete();
    for relation in &mut facts.relations {
        if relation.root == "jobs" {
            relation.relkind = "p".into();
        }
    }
    for partition in ["jobs_2026", "jobs_2027"] {
        facts.relations.push(TreeRelation {
            root: "jobs".into(),
            relation: partition.into(),
            relkind: "r".into(),
        });
    }
    let on_2026 = refusing("jobs_2026", "jobs_2026_refuse", BEFORE_ROW_DELETE);
    facts.triggers.push(on_tree("jobs", on_2026));
    let report = judged(&facts);
    assert_eq!(
        report.trigger_problems,
        [
            "no BEFORE DELETE trigger on jobs_2027 (a partition of jobs): the audit trail is \
             not protected (see sql/schema.sql)"
        ]
    );
    assert!(!report.triggers.iter().any(|t| t.table == "jobs"));
}

#[test]
fn an_unvouched_trigger_on_a_written_table_is_a_problem_unless_listed() {
    let mut facts = complete();
    let mut audit = refusing("deployments", "audit", 1 | 16);
    audit.function = "public.audit()".into();
    facts.triggers.push(on_tree("deployments", audit));
    let report = judged(&facts);
    assert_eq!(
        report.unvouched,
        ["trigger `audit` on deployments (AFTER UPDATE, FOR EACH ROW, function public.audit())"]
    );
    assert!(!report.ok());
    let listed = AllowedTriggers::parse(&["deployments.audit".to_string()]);
    let report = judge(&facts, "public", &listed);
    assert!(report.unvouched.is_empty());
    assert_eq!(report.allowed.len(), 1);
    assert!(report.ok());
}

#[test]
fn a_rule_on_a_written_table_is_a_problem_unless_listed() {
    let mut facts = complete();
    facts.rules.push(TreeRule {
        root: "deployment_events".into(),
        rule: Rule {
            relation: "deployment_events".into(),
            name: "copy_events".into(),
        },
    });
    assert_eq!(
        judged(&facts).unvouched,
        ["rule `copy_events` on deployment_events"]
    );
    let listed = AllowedTriggers::parse(&["copy_events".to_string()]);
    assert_eq!(
        judge(&facts, "public", &listed).allowed,
        ["rule `copy_events` on deployment_events"]
    );
}

#[test]
fn the_enforcing_trigger_is_vouched_for_only_as_the_tool_installs_it() {
    let mut facts = complete();
    let enforcing = Trigger {
        relation: "deployment_events".into(),
        name: "pushleft_approvals_enforce".into(),
        enabled: "O".into(),
        tgtype: 1 | 4,
        internal: false,
        constraint: true,
        function: "pushleft_approvals.enforce_plan()".into(),
        builtin: false,
        language: "plpgsql".into(),
        source: facts.enforce_body.into(),
    };
    facts
        .triggers
        .push(on_tree("deployment_events", enforcing.clone()));
    let report = judged(&facts);
    assert!(report.enforcing && report.ok(), "{:?}", report.problems());
    let mut changed = enforcing;
    changed.source = "begin return new; end".into();
    let mut facts = complete();
    facts.triggers.push(on_tree("deployment_events", changed));
    let report = judged(&facts);
    assert!(!report.enforcing);
    assert_eq!(report.unvouched.len(), 1);
}
