use super::*;

#[test]
fn a_lease_of_a_finished_deployment_is_the_reclaimers() {
    let id = Uuid::from_u128(9);
    let advice = for_orphaned_lease(id, &DeploymentStatus::Destroyed, true);
    assert_eq!(advice.responsible, Responsible::LeaseReclaimer);
    assert_eq!(advice.next_command, None);
    assert!(advice.next_step.contains("lease reclaimer"));
    let odd = for_orphaned_lease(id, &DeploymentStatus::parse("paused"), true);
    assert_eq!(
        (odd.path, odd.responsible),
        (BreakGlassPath::None, Responsible::Operator)
    );
    assert!(
        odd.next_command
            .is_some_and(|c| c.to_string().contains("diagnose"))
    );
    let building = for_orphaned_lease(id, &DeploymentStatus::Building, true);
    assert_eq!(building.responsible, Responsible::Operator);
    assert_eq!(building.path, BreakGlassPath::TeardownRequested);
    assert!(
        building
            .next_command
            .is_some_and(|c| c.to_string().contains("fail-safely"))
    );
}
