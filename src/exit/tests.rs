use super::*;
use anyhow::Context;

#[test]
fn the_first_failure_in_the_chain_decides() {
    let err = Err::<(), _>(refused("nothing to do"))
        .context("deployment d0000006")
        .unwrap_err();
    assert_eq!(code_for(&err), ExitCode::Refused);
    assert_eq!(code_for(&anyhow::anyhow!("boom")), ExitCode::Unexpected);
    assert_eq!(code_for(&usage("bad id")), ExitCode::Usage);
    assert_eq!(ExitCode::Interrupted.as_i32(), 130);
}

#[test]
fn every_error_has_a_kind() {
    assert_eq!(kind_for(&not_found("no such")), ErrorKind::NotFound);
    assert_eq!(
        kind_for(&connection_lost("gone")),
        ErrorKind::ConnectionLost
    );
    let tagged = tag(anyhow::anyhow!("refused"), ErrorKind::ConnectionFailed);
    assert_eq!(kind_for(&tagged), ErrorKind::ConnectionFailed);
    assert_eq!(code_for(&tagged), ExitCode::Unexpected);
    assert_eq!(kind_for(&anyhow::anyhow!("boom")), ErrorKind::Unexpected);
}
