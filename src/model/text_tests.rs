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

#[test]
fn default_ignorable_and_format_characters_are_invisible() {
    let listed = [
        0x00ad, 0x034f, 0x061c, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x180b, 0x180e, 0x180f, 0x200b,
        0x200d, 0x200f, 0x202a, 0x202e, 0x2060, 0x2064, 0x206f, 0x3164, 0xfe00, 0xfe0f, 0xfeff,
        0xffa0, 0xfff0, 0xfffb, 0x1bca0, 0x1bca3, 0x1d173, 0x1d17a, 0xe0000, 0xe0041, 0xe0fff,
        0x0600, 0x06dd, 0x110bd, 0x13430, 0x2028, 0x2029,
    ];
    for cp in listed {
        let c = char::from_u32(cp).unwrap();
        assert!(is_invisible(c) && is_unsafe(c), "U+{cp:04X}");
    }
    // Their neighbours are ordinary letters, marks and symbols.
    for c in [
        '\u{00ac}', '\u{034e}', '\u{1161}', '\u{2070}', '\u{fe10}', '\u{fffc}', 'é', '·',
    ] {
        assert!(!is_invisible(c), "{}", code_point(c));
    }
    assert_eq!(
        escaped("a\u{2060}b\u{fe0f}\u{e0041}"),
        "a\\u{2060}b\\u{fe0f}\\u{e0041}"
    );
}
