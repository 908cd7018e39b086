use super::*;

#[test]
fn ids_come_from_lines_or_from_stuck_json() {
    let lines = "# INC-9 edge-07\nd0000001\n\n  d0000002   # orphaned lease\nd0000001\n";
    assert_eq!(ids_in(lines).unwrap(), ["d0000001", "d0000002"]);
    let json = r#"{"deployments_stuck": [{"deployment_id": "d1"}, {"deployment_id": "d2"}],
                       "leases_orphaned": []}"#;
    assert_eq!(ids_in(json).unwrap(), ["d1", "d2"]);
    let err = ids_in("{ not json").unwrap_err();
    assert_eq!(exit::code_for(&err), exit::ExitCode::Usage);
}
