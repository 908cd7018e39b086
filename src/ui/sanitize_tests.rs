use super::*;

#[test]
fn control_and_bidi_characters_become_visible() {
    let planted = "a\u{1b}[2J\u{1b}]0;pwned\u{7}b\r\nc\u{202e}d\u{0}e\u{9b}f";
    let shown = visible(planted);
    assert!(!shown.chars().any(is_unsafe), "{shown}");
    assert_eq!(
        shown,
        "a\\u{1b}[2J\\u{1b}]0;pwned\\u{7}b\\r\\nc\\u{202e}d\\u{0}e\\u{9b}f"
    );
    assert!(matches!(visible("plain · text"), Cow::Borrowed(_)));
}

#[test]
fn long_database_text_is_cut_with_a_note() {
    let huge = "é".repeat(SCREEN_TEXT_CHARS + 500);
    let shown = visible(&huge);
    assert!(shown.starts_with(&"é".repeat(SCREEN_TEXT_CHARS)), "{shown}");
    assert!(shown.ends_with("… (+500 characters; --output json has it whole)"));
    let exactly = "x".repeat(SCREEN_TEXT_CHARS);
    assert!(matches!(visible(&exactly), Cow::Borrowed(_)));
}

#[test]
fn the_net_keeps_our_colours_and_lines_only() {
    let ours = "\u{1b}[31mred\u{1b}[0m\nnext";
    assert_eq!(terminal_safe(ours, true), ours);
    assert_eq!(terminal_safe(ours, false), "\\u{1b}[31mred\\u{1b}[0m\nnext");
    assert_eq!(
        terminal_safe("x\u{1b}[2Jy\u{1b}]0;t\u{7}", true),
        "x\\u{1b}[2Jy\\u{1b}]0;t\\u{7}"
    );
}
