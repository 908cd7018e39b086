use super::*;

#[test]
fn parses_the_documented_forms() {
    assert_eq!(parse_duration("90s"), Ok(Duration::from_secs(90)));
    assert_eq!(parse_duration("30m"), Ok(Duration::from_secs(1800)));
    assert_eq!(parse_duration("2h"), Ok(Duration::from_secs(7200)));
    assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
    assert_eq!(parse_duration("1d"), Ok(Duration::from_secs(86_400)));
}

#[test]
fn rejects_what_is_not_a_positive_duration() {
    for bad in [
        "",
        "30",
        "-5s",
        "0s",
        "5 minutes",
        "1.5h",
        "0,5s",
        "m",
        "99999999999999999999d",
    ] {
        assert!(parse_duration(bad).is_err(), "{bad:?} must be refused");
    }
}

#[test]
fn renders_relative_ages() {
    assert_eq!(ago(12), "12s ago");
    assert_eq!(ago(41 * 60 + 5), "41m ago");
    assert_eq!(ago(3 * 3600 + 12 * 60), "3h12m ago");
    assert_eq!(ago(2 * 86_400), "2d ago");
    assert_eq!(ago(-20 * 60), "in 20m");
}
