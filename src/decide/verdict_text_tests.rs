use super::*;

#[test]
fn one_rule_for_the_next_command() {
    let id = Uuid::from_u128(7);
    // The rule's commands as the operator reads them.
    fn next_command(
        path: BreakGlassPath,
        status: &DeploymentStatus,
        id: Uuid,
        asker: Asker,
    ) -> Option<String> {
        super::next_command(path, status, id, asker).map(|c| c.to_string())
    }
    let fail = Some(format!(
        "pushleft-controller fail-safely {id} --reason \"<ticket and reason>\""
    ));
    let running = DeploymentStatus::Running;
    let queued = DeploymentStatus::Queued;
    let teardown = DeploymentStatus::TeardownQueued;
    use BreakGlassPath::*;
    assert_eq!(
        next_command(OperatorFailed, &queued, id, Asker::Verdict),
        fail
    );
    assert_eq!(next_command(OperatorFailed, &queued, id, Asker::Scan), fail);
    assert_eq!(
        next_command(TeardownRequested, &running, id, Asker::Verdict),
        Option::None
    );
    assert_eq!(
        next_command(TeardownRequested, &running, id, Asker::Scan),
        fail
    );
    assert_eq!(
        next_command(None, &teardown, id, Asker::Verdict),
        Some(format!("pushleft-controller wait {id}"))
    );
    assert_eq!(
        next_command(None, &teardown, id, Asker::Scan),
        Some(format!("pushleft-controller diagnose {id}"))
    );
    assert_eq!(
        next_command(None, &running, id, Asker::Verdict),
        Option::None
    );
}
