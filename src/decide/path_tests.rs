use super::*;
use DeploymentStatus::*;

#[test]
fn the_decision_table() {
    for status in [Queued, Building, Deploying] {
        assert_eq!(decide_path(&status, false), BreakGlassPath::OperatorFailed);
        assert_eq!(
            decide_path(&status, true),
            BreakGlassPath::TeardownRequested
        );
    }
    for status in [Running, Failed] {
        assert_eq!(decide_path(&status, false), BreakGlassPath::None);
        assert_eq!(
            decide_path(&status, true),
            BreakGlassPath::TeardownRequested
        );
    }
    for status in [TeardownQueued, Destroyed, Unknown("stuck".into())] {
        assert_eq!(decide_path(&status, false), BreakGlassPath::None);
        assert_eq!(decide_path(&status, true), BreakGlassPath::None);
    }
}

#[test]
fn statuses_round_trip() {
    for status in DeploymentStatus::KNOWN {
        assert_eq!(&DeploymentStatus::parse(status.as_str()), status);
    }
    assert!(DeploymentStatus::parse("stuck").is_unknown());
}
