use super::*;

#[test]
fn seq_scans_on_big_tables_are_found_anywhere_in_the_plan() {
    let plan = serde_json::json!([{"Plan": {"Node Type": "Nested Loop", "Plans": [
        {"Node Type": "Index Scan", "Relation Name": "deployments"},
        {"Node Type": "Seq Scan", "Relation Name": "deployment_events"},
        {"Node Type": "Seq Scan", "Relation Name": "fleet_nodes"}
    ]}}]);
    let mut found = Vec::new();
    collect_seq_scans(&plan, &mut found);
    assert_eq!(found, vec!["deployment_events".to_string()]);
}
