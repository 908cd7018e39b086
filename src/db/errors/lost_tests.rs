use super::*;

fn db(said: Option<&str>) -> DbError {
    let socket = std::io::Error::other("reset by peer");
    DbError::new(
        crate::db_failure::DbFailure::LostConnection,
        said.map(str::to_string),
        socket,
    )
}

#[test]
fn the_cause_is_what_the_server_said_else_the_socket() {
    assert_eq!(cause(&db(None)), "reset by peer");
    assert_eq!(cause(&db(Some("ended"))), "ended");
}

#[test]
fn a_failed_commit_may_have_been_written() {
    let id = Uuid::from_u128(0xd000_0001_0000_4000_8000_0000_0000_0001);
    let err = anyhow::Error::new(CommitFailed {
        deployment: id,
        source: db(None),
    });
    let doing = Doing::Writing {
        deployment: "d0000001",
        role: None,
        lock_timeout: std::time::Duration::from_secs(5),
        attempts: 5,
    };
    let Some(inner) = super::super::db_error(&err) else {
        panic!("the commit's error is in the chain");
    };
    assert_eq!(
        sentence(&err, inner, &doing),
        "lost the connection to the database while committing the change to deployment \
         d0000001-0000-4000-8000-000000000001 (reset by peer): it may or may not have been \
         written. Next step: rerun the same command (same --reason, same --idempotency-key): if \
         the change was committed it reports it without writing again, otherwise it applies it \
         now. `pushleft-controller diagnose d0000001-0000-4000-8000-000000000001` shows the \
         current state"
    );
}

#[test]
fn a_lost_commit_is_explained_as_in_doubt_and_a_lost_read_is_not() {
    let id = Uuid::from_u128(0xd000_0001_0000_4000_8000_0000_0000_0001);
    let doing = Doing::Writing {
        deployment: "d0000001",
        role: None,
        lock_timeout: std::time::Duration::from_secs(5),
        attempts: 5,
    };
    let commit = anyhow::Error::new(CommitFailed {
        deployment: id,
        source: db(None),
    });
    let explained = super::super::explain(commit, &doing);
    assert!(crate::exit::is_in_doubt(&explained), "{explained:#}");
    assert_eq!(
        crate::exit::code_for(&explained),
        crate::exit::ExitCode::Unexpected
    );
    assert!(format!("{explained:#}").contains("may or may not have been written"));
    let before_commit = super::super::explain(anyhow::Error::new(db(None)), &doing);
    assert!(
        !crate::exit::is_in_doubt(&before_commit),
        "{before_commit:#}"
    );
}
