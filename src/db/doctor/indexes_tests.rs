use super::*;

#[test]
fn the_reference_schema_lists_its_indexes_with_their_purpose() {
    let all = expected_indexes(sql::scripts::SCHEMA.text);
    assert!(all.len() >= 15, "{all:#?}");
    let history = all
        .iter()
        .find(|i| i.name == "deployment_events_operator_actions")
        .expect("history's index");
    assert_eq!(
        history.purpose,
        "`history`: the operators' actions, newest first."
    );
    assert_eq!(
        history.create_concurrently(&Schema::public()),
        "CREATE INDEX CONCURRENTLY deployment_events_operator_actions ON \"public\".deployment_events (occurred_at) WHERE kind IN ('operator_failed', 'teardown_requested');"
    );
    let plain = all
        .iter()
        .find(|i| i.name == "jobs_deployment")
        .expect("one");
    assert_eq!(plain.purpose, "lookups ON jobs (deployment_id, created_at)");
}
