use super::verdict;
use crate::model::doctor::{Check, Status};

fn check(status: Status) -> Check {
    Check {
        name: "schema",
        status,
        detail: String::new(),
    }
}

#[test]
fn warnings_are_set_aside_only_when_there_are_some() {
    assert_eq!(verdict(true, &[check(Status::Ok)]), "all checks passed");
    assert_eq!(
        verdict(true, &[check(Status::Ok), check(Status::Warn)]),
        "all checks passed (warnings aside)"
    );
    assert_eq!(verdict(false, &[check(Status::Fail)]), "some checks FAILED");
}
