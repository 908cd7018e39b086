use super::*;
use crate::exit::{ExitCode, code_for};

fn person(os: &str, db: &str) -> Person {
    Person {
        os_user: os.into(),
        session_user: db.into(),
        host: "h".into(),
        tool: "t".into(),
    }
}

#[test]
fn someone_else_is_another_os_user_or_another_session_user() {
    let alice = person("alice", "ops");
    for other in [person("bob", "ops"), person("alice", "bob_db")] {
        let a = approve(None, &alice, &other, true, false).unwrap();
        assert!(!a.self_approved);
    }
    let err = approve(None, &alice, &alice.clone(), true, false).unwrap_err();
    assert_eq!(code_for(&err), ExitCode::Refused);
    let alone = approve(Some("p".into()), &alice, &alice.clone(), true, true).unwrap();
    assert!(alone.self_approved && alone.break_glass_alone);
    // Without the rule, self-approval is allowed and recorded.
    assert!(
        approve(None, &alice, &alice.clone(), false, false)
            .unwrap()
            .self_approved
    );
}

#[test]
fn direct_writes_need_a_plan_under_the_rule() {
    assert!(check_direct_write(true, true, false).is_err());
    assert!(check_direct_write(true, false, false).is_ok());
    assert!(check_direct_write(true, true, true).is_ok());
    assert!(check_direct_write(false, true, false).is_ok());
}
