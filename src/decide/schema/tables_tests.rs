use super::super::tests::{complete, judged};
use super::*;

#[test]
fn types_the_tool_can_read() {
    assert!(Kind::Text.accepts("character varying(40)"));
    assert!(!Kind::Int4.accepts("bigint"));
    assert!(!Kind::Timestamptz.accepts("timestamp without time zone"));
    assert!(!Kind::Jsonb.accepts("json"));
}

#[test]
fn a_missing_table_is_named_with_the_schema_and_its_other_checks_skipped() {
    let mut facts = complete();
    facts.tables.retain(|t| t.name != "jobs");
    let report = judged(&facts);
    assert_eq!(
        report.schema_problems,
        ["table jobs is missing (not found in schema public; see --schema / PUSHLEFT_SCHEMA)"]
    );
    assert!(!report.oids.contains_key("jobs"));
    // Its foreign keys and triggers are not judged: the missing table says it.
    assert!(report.foreign_key_problems.is_empty());
    assert!(report.trigger_problems.is_empty());
    assert_eq!(report.foreign_keys.len(), LOCKING_FOREIGN_KEYS_WITHOUT_JOBS);
    assert!(!report.schema_ok());
}

/// The locking keys that neither start nor end at `jobs`.
const LOCKING_FOREIGN_KEYS_WITHOUT_JOBS: usize = 2;

#[test]
fn a_wrong_column_type_and_a_missing_column_are_problems() {
    let mut facts = complete();
    let jobs = facts
        .tables
        .iter_mut()
        .find(|t| t.name == "jobs")
        .expect("jobs in the reference");
    for column in &mut jobs.columns {
        if column.name == "attempt" {
            column.server_type = "bigint".into();
        }
    }
    jobs.columns.retain(|c| c.name != "lease_token");
    let report = judged(&facts);
    assert_eq!(
        report.schema_problems,
        [
            "column jobs.attempt is bigint, expected integer",
            "column jobs.lease_token is missing"
        ]
    );
    // A text column the server holds as character varying reads as text.
    let status = facts.tables[0]
        .columns
        .iter_mut()
        .find(|c| c.name == "status")
        .expect("deployments.status in the reference");
    status.server_type = "character varying(40)".into();
    assert_eq!(judged(&facts).schema_problems.len(), 2);
}

#[test]
fn a_missing_unique_key_is_a_problem_unless_the_events_are_missing() {
    let mut facts = complete();
    facts.unique_key = false;
    assert_eq!(
        judged(&facts).schema_problems,
        [
            "deployment_events has no UNIQUE (deployment_id, sequence): two concurrent appends \
             could write the same sequence"
        ]
    );
    facts.tables.retain(|t| t.name != "deployment_events");
    let report = judged(&facts);
    assert_eq!(report.schema_problems.len(), 1);
    assert!(report.schema_problems[0].starts_with("table deployment_events is missing"));
}
