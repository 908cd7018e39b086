use super::*;

#[test]
fn pager_is_less_unless_pager_says_otherwise() {
    assert_eq!(command_for(None).as_deref(), Some("less -FRX"));
    assert_eq!(command_for(Some("more")).as_deref(), Some("more"));
    assert_eq!(command_for(Some(" less -S ")).as_deref(), Some("less -S"));
    assert_eq!(command_for(Some("")), None);
    assert_eq!(command_for(Some("cat")), None);
}

#[test]
fn a_wide_line_takes_several_screen_lines() {
    assert_eq!(screen_lines("a\nb", 80), 2);
    assert_eq!(screen_lines(&"x".repeat(81), 80), 2);
    assert_eq!(screen_lines("", 80), 1);
    // With the prompt below, 24 lines push the first off a 24-line screen.
    assert!(!too_tall(23, 24));
    assert!(too_tall(24, 24));
}

#[test]
fn nothing_is_paged_off_a_terminal() {
    // Output::plain() is not interactive: a pipe, a file, a test.
    let out = Output::plain();
    assert!(!scrolls_away(&out, 10_000));
    assert!(start(&out, 10_000).is_none());
}
