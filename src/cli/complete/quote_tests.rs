use super::*;

/// What POSIX sh reads back from `quoted` (the real shell, not a model
/// of it): the one argument it makes, or nothing when it is not one word.
fn sh_reads(quoted: &str) -> String {
    let out = std::process::Command::new("sh")
        .args(["-c", &format!("printf '%s' {quoted}")])
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

const HOSTILE: &[&str] = &[
    "x;touch /tmp/pwned",
    "$(touch /tmp/pwned)",
    "`touch /tmp/pwned`",
    "a && touch /tmp/pwned #",
    "*",
    "a b",
    "it's",
    "back\\slash",
    "~root",
    "#hash",
    "say \"hi\"",
];

#[test]
fn every_hostile_name_is_quoted_back_to_itself() {
    for name in HOSTILE {
        for open in [None, Some('\''), Some('"')] {
            let quoted = bash(name, open).unwrap();
            assert_eq!(sh_reads(&quoted), *name, "{quoted} (open {open:?})");
            assert_eq!(dequote(&quoted, Dialect::Posix).value, *name, "{quoted}");
        }
    }
}

#[test]
fn plain_names_stay_as_they_are_and_unsafe_ones_are_left_out() {
    assert_eq!(bash("edge-07", None).as_deref(), Some("edge-07"));
    assert_eq!(bash("edge-07", Some('\'')).as_deref(), Some("'edge-07'"));
    for name in ["a\nb", "a\tb", "\u{1b}[2J", "a\u{202e}b", "a\u{200b}b", ""] {
        assert_eq!(bash(name, None), None, "{name:?}");
        assert!(!offerable(name), "{name:?}");
    }
    // History expansion inside double quotes: left out there only.
    assert_eq!(bash("a!b", Some('"')), None);
    assert_eq!(bash("a!b", None).as_deref(), Some("'a!b'"));
    assert!(plain("edge-07.a:b/c@d+e,f=g_h"));
    for name in ["a b", "x;y", "*", "a'b", "$x", "é"] {
        assert!(!plain(name), "{name}");
    }
}

#[test]
fn a_partly_typed_word_is_dequoted_and_its_open_quote_kept() {
    let typed = dequote("'x;to", Dialect::Posix);
    assert_eq!(typed.value, "x;to");
    assert_eq!(typed.open, Some('\''));
    assert!(typed.open_at_start);
    assert_eq!(dequote(r"a\ b", Dialect::Posix).value, "a b");
    assert_eq!(dequote(r#""a\"b"#, Dialect::Posix).value, "a\"b");
    let mid = dequote("ab'c", Dialect::Posix);
    assert_eq!((mid.value.as_str(), mid.open_at_start), ("abc", false));
    assert_eq!(dequote(r"'it\'s", Dialect::Fish).value, "it's");
    assert_eq!(dequote(r"'it\'s", Dialect::Posix).value, "it\\s");
}

#[test]
fn descriptions_show_no_control_character() {
    let shown = help("pool\u{1b}]0;title\u{7}\nline");
    assert!(!shown.chars().any(is_unsafe), "{shown:?}");
    assert_eq!(zsh_describe(r"a:b\c"), r"a\:b\\c");
}
