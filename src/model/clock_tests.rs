use super::*;

#[test]
fn ages_are_never_negative_and_skew_starts_past_the_tolerance() {
    let now = DateTime::parse_from_rfc3339("2026-11-29T03:00:00Z")
        .unwrap()
        .with_timezone(&Utc);
    let at = |secs: i64| now + chrono::Duration::seconds(secs);
    assert_eq!(age_seconds(now, at(-90)), 90);
    assert_eq!(age_seconds(now, at(7199)), 0);
    assert_eq!(ahead_seconds(now, at(60)), None);
    assert_eq!(ahead_seconds(now, at(61)), Some(61));
    assert_eq!(ahead_seconds(now, at(-5)), None);
    let skew = ClockSkew::heartbeat("edge-01", at(7200), 7200);
    assert!(
        skew.message
            .starts_with("clock skew: node edge-01's heartbeat is 2h in the future"),
        "{}",
        skew.message
    );
}
