use super::*;

#[test]
fn each_stopping_signal_has_its_code() {
    assert_eq!(for_signal(nix::libc::SIGINT).as_i32(), 130);
    assert_eq!(for_signal(nix::libc::SIGTERM).as_i32(), 143);
    assert_eq!(for_signal(nix::libc::SIGHUP).as_i32(), 129);
    assert_eq!(for_signal(0), ExitCode::Interrupted);
    for code in [ExitCode::Terminated, ExitCode::HungUp] {
        assert_eq!(code.kind(), ErrorKind::Interrupted);
    }
}

#[test]
fn the_most_serious_code_wins() {
    use ExitCode::*;
    assert_eq!(merge([Done, Done]), Done);
    assert_eq!(merge([Done, NotFound, Conflict]), Conflict);
    assert_eq!(merge([Conflict, Refused, Done]), Refused);
    assert_eq!(merge([Refused, Unexpected]), Unexpected);
    assert_eq!(merge([Unexpected, Interrupted]), Interrupted);
    // SIGTERM and SIGHUP stop a batch as Ctrl-C does.
    assert_eq!(merge([Unexpected, Terminated]), Terminated);
    assert_eq!(merge([Refused, HungUp, Done]), HungUp);
    assert_eq!(merge([]), Done);
}

#[test]
fn json_has_the_number_the_process_exits_with() {
    let codes = serde_json::to_string(&[ExitCode::Conflict, ExitCode::Done]).ok();
    assert_eq!(codes.as_deref(), Some("[5,0]"));
}
