use super::*;
use crate::exit::ExitCode;

#[test]
fn reasons_are_trimmed_and_bounded() {
    assert_eq!(
        validate_reason("  INC-1 stuck \n", None).unwrap(),
        "INC-1 stuck"
    );
    for bad in ["", "   \t\n", "a\0b"] {
        let err = validate_reason(bad, None).unwrap_err();
        assert_eq!(exit::code_for(&err), ExitCode::Usage, "{bad:?}");
    }
    assert!(validate_reason(&"x".repeat(MAX_REASON), None).is_ok());
    assert!(validate_reason(&"x".repeat(MAX_REASON + 1), None).is_err());
    // Quotes and SQL are just text.
    assert_eq!(
        validate_reason("'; DROP TABLE jobs; --", None).unwrap(),
        "'; DROP TABLE jobs; --"
    );
}

fn broken_rule(reason: &str, pattern: Option<&regex::Regex>) -> String {
    let err = validate_reason(reason, pattern).unwrap_err();
    assert_eq!(exit::code_for(&err), ExitCode::Usage, "{reason:?}");
    err.to_string()
}

#[test]
fn each_reason_rule_names_itself() {
    assert!(broken_rule("x", None).contains("is 1 character long; give at least 4"));
    assert!(broken_rule("abc", None).contains("3 characters"));
    assert!(validate_reason("INC1", None).is_ok());
    for (reason, says) in [
        ("INC-1 \u{1b}[2J cleared", "U+001B at character 7"),
        ("INC-1 ring\u{7}", "U+0007"),
        ("INC-1 a\rb", "U+000D"),
        ("INC-1 a\tb", "U+0009"),
        ("INC-1 \u{202E}evil", "U+202E"),
        ("INC-1 \u{2067}x\u{2069}", "U+2067"),
    ] {
        let message = broken_rule(reason, None);
        assert!(message.contains(says), "{reason:?}: {message}");
        assert!(!message.contains(reason), "never echoed raw: {message}");
    }
    assert!(validate_reason("INC-1 first line\nsecond line", None).is_ok());
    for placeholder in [
        "<ticket and reason>",
        "<INC-123>",
        "INC-1 <reason>",
        "$TICKET: $WHY",
        "${TICKET} - ${WHY}",
    ] {
        assert!(
            broken_rule(placeholder, None).contains("is a placeholder"),
            "{placeholder}"
        );
    }
    assert!(validate_reason("INC-1 costs $5 per hour", None).is_ok());
    let pattern = reason_pattern("^[A-Z]+-[0-9]+ ").unwrap();
    assert!(validate_reason("INC-12 stuck", Some(&pattern)).is_ok());
    assert!(broken_rule("stuck since 02:10", Some(&pattern)).contains("PUSHLEFT_REASON_PATTERN"));
    assert!(
        reason_pattern("(")
            .unwrap_err()
            .contains("not a valid regular expression")
    );
}

#[test]
fn one_key_one_lock() {
    assert_eq!(key_lock("k1"), key_lock("k1"));
    assert_ne!(key_lock("k1").1, key_lock("k2").1);
    assert_eq!(key_lock("k1").0, KEY_LOCK_CLASS);
}

#[test]
fn the_default_key_depends_on_deployment_and_reason() {
    let a = Uuid::from_u128(1);
    let b = Uuid::from_u128(2);
    assert_eq!(default_key(a, "r"), default_key(a, "r"));
    assert_ne!(default_key(a, "r"), default_key(b, "r"));
    assert_ne!(default_key(a, "r"), default_key(a, "r2"));
}

#[test]
fn reasons_and_keys_refuse_invisible_and_bidi_characters() {
    for c in [
        '\u{200e}',
        '\u{061c}',
        '\u{00ad}',
        '\u{2060}',
        '\u{fe0f}',
        '\u{e0041}',
        '\u{3164}',
    ] {
        let reason = format!("INC-1 a{c}b");
        let message = broken_rule(&reason, None);
        assert!(message.contains(&code_point(c)), "{message}");
        assert!(!message.contains(&reason), "never echoed raw: {message}");
        let err = validate_key(&format!("key-{c}")).unwrap_err();
        assert_eq!(exit::code_for(&err), ExitCode::Usage);
        assert!(
            err.to_string().contains("--idempotency-key contains"),
            "{err}"
        );
    }
    for key in ["k\u{1b}[2J", "k\nx", "k\rx", "k\u{9b}x", "k\u{202e}x"] {
        let err = validate_key(key).unwrap_err();
        assert_eq!(exit::code_for(&err), ExitCode::Usage, "{key:?}");
    }
    assert_eq!(validate_key(" INC-1/retry é ").unwrap(), "INC-1/retry é");
}
