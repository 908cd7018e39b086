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

fn db(failure: DbFailure, said: Option<&str>) -> anyhow::Error {
    let socket = std::io::Error::other("reset by peer");
    anyhow::Error::new(DbError::new(failure, said.map(str::to_string), socket))
}

#[test]
fn a_database_failure_maps_to_its_code_by_kind_never_by_words() {
    let lock = db(DbFailure::LockTimeout, Some("lock timeout")).context("locking d0000001");
    assert_eq!(
        (code_for(&lock), kind_for(&lock)),
        (ExitCode::Conflict, ErrorKind::Conflict)
    );
    assert_eq!(db_failure(&lock), Some(DbFailure::LockTimeout));
    assert_eq!(
        code_for(&db(DbFailure::DiskFull, None)),
        ExitCode::Unexpected
    );
    let lost = db(DbFailure::LostConnection, None);
    assert!(is_connection_lost(&lost) && !is_connection_lost(&lock));
    assert_eq!(kind_for(&lost), ErrorKind::ConnectionLost);
    // The sentence that explains it is known by its type, whatever it says.
    let sentence = explained(DbFailure::LockTimeout, ExitCode::Conflict, "anything");
    assert_eq!(db_failure(&sentence), Some(DbFailure::LockTimeout));
    let same_words = conflict("another transaction holds deployment d0000001");
    assert_eq!(db_failure(&same_words), None);
}
