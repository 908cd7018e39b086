use super::*;

#[test]
fn the_rules_name_each_kind_of_character() {
    assert!(is_control('\u{1b}') && is_control('\n') && is_control('\u{9b}'));
    assert!(is_bidi_override('\u{202e}') && is_bidi_override('\u{2066}'));
    assert!(!is_bidi_override('\u{200e}') && is_bidi_control('\u{200e}'));
    assert!(is_invisible('\u{200b}') && is_invisible('\u{feff}'));
    assert!(!is_unsafe('é') && !is_unsafe(' ') && !is_unsafe('·'));
    assert_eq!(code_point('\u{1b}'), "U+001B");
    assert_eq!(code_point('\u{202e}'), "U+202E");
}

#[test]
fn unsafe_characters_are_escaped_on_one_line() {
    assert_eq!(
        escaped("r\u{1b}[2J\nx\u{202e}y\u{200b}z\t"),
        "r\\u{1b}[2J\\nx\\u{202e}y\\u{200b}z\\t"
    );
    assert!(matches!(escaped("plain · text"), Cow::Borrowed(_)));
}
