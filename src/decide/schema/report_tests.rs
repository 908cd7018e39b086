use super::*;
use crate::decide::schema::PROTECTING_TRIGGERS;

#[test]
fn protecting_triggers_are_the_five_of_the_spec() {
    assert_eq!(PROTECTING_TRIGGERS.len(), 5);
    let report = SchemaReport {
        trigger_problems: vec!["no BEFORE DELETE trigger on jobs".into()],
        ..SchemaReport::default()
    };
    assert!(report.schema_ok());
    assert!(!report.protecting_triggers_ok());
    assert_eq!(report.problems().len(), 1);
}

#[test]
fn foreign_keys_and_unvouched_triggers_are_problems_too() {
    let report = SchemaReport {
        foreign_key_problems: vec!["no foreign key from agent_job_results.job_id".into()],
        unvouched: vec!["trigger `x` on deployments".into()],
        ..SchemaReport::default()
    };
    assert!(!report.ok());
    assert_eq!(report.problems().len(), 2);
}
