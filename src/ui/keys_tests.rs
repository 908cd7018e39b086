use super::quits;

#[test]
fn q_and_capital_q_leave_other_keys_do_not() {
    assert!(quits(b"q"));
    assert!(quits(b"Q"));
    assert!(quits(b"  q"));
    assert!(!quits(b""));
    assert!(!quits(b"x\n"));
    // An arrow key's sequence holds no q.
    assert!(!quits(b"\x1b[A"));
}
