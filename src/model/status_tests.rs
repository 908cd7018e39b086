use super::*;

#[test]
fn every_known_value_round_trips_and_anything_else_is_kept() {
    for status in DeploymentStatus::KNOWN {
        assert_eq!(&DeploymentStatus::parse(status.as_str()), status);
    }
    for status in JobStatus::KNOWN {
        assert_eq!(&JobStatus::parse(status.as_str()), status);
    }
    let odd = DeploymentStatus::parse("stuck");
    assert_eq!(odd, DeploymentStatus::Unknown("stuck".to_string()));
    assert_eq!(odd.as_str(), "stuck");
    assert_eq!(
        serde_json::to_value(NodeStatus::Draining).ok(),
        Some(serde_json::json!("draining"))
    );
    assert_eq!(
        serde_json::to_value(InstanceStatus::parse("zombie")).ok(),
        Some(serde_json::json!("zombie"))
    );
    assert!(JobStatus::Null.is_unknown() && JobStatus::Null.is_null());
    assert_eq!(JobStatus::Null.as_str(), "NULL");
    assert!(JobStatus::Null != "NULL");
    assert_eq!(
        serde_json::to_value(NodeStatus::Null).ok(),
        Some(serde_json::Value::Null)
    );
    assert!(AllocationStatus::parse("pending").is_held());
    assert!(!AllocationStatus::Released.is_held());
}

#[test]
fn in_flight_is_queued_building_deploying() {
    let in_flight: Vec<_> = DeploymentStatus::KNOWN
        .iter()
        .filter(|s| s.in_flight())
        .map(DeploymentStatus::as_str)
        .collect();
    assert_eq!(in_flight, ["queued", "building", "deploying"]);
}
