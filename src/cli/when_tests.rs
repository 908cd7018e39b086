use super::*;

fn utc(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text)
        .expect("an RFC 3339 time")
        .with_timezone(&Utc)
}

#[test]
fn reads_back_every_form_the_tool_prints() {
    let at = WhenArg::At(utc("2026-12-01T20:05:00Z"));
    for printed in [
        "2026-12-01T20:05:00Z",
        "2026-12-01T20:05:00+00:00",
        "2026-12-01T22:05:00+02:00",
        "2026-12-01 20:05:00Z",
        "2026-12-01 20:05Z",
        "2026-12-01 20:05:00 UTC",
        "2026-12-01 20:05 UTC",
        "2026-12-01 22:05+02:00",
    ] {
        assert_eq!(parse_when(printed), Ok(at), "{printed}");
    }
    assert_eq!(
        parse_when("2026-12-01T20:05:00.250Z"),
        Ok(WhenArg::At(utc("2026-12-01T20:05:00.250Z")))
    );
    assert_eq!(
        parse_when("2026-11-29Z"),
        Ok(WhenArg::At(utc("2026-11-29T00:00:00Z")))
    );
}

#[test]
fn a_time_without_a_zone_is_local() {
    for (text, naive) in [
        ("2026-12-01 20:05", "2026-12-01 20:05:00"),
        ("2026-12-01T20:05", "2026-12-01 20:05:00"),
        ("2026-12-01 20:05:30", "2026-12-01 20:05:30"),
        ("2026-12-01", "2026-12-01 00:00:00"),
    ] {
        let naive = NaiveDateTime::parse_from_str(naive, "%Y-%m-%d %H:%M:%S").expect("naive");
        let want = Local
            .from_local_datetime(&naive)
            .single()
            .expect("no daylight saving change on 1 December")
            .with_timezone(&Utc);
        assert_eq!(parse_when(text), Ok(WhenArg::At(want)), "{text}");
    }
}

#[test]
fn how_long_ago_takes_every_duration_and_the_age_as_shown() {
    let ago = |s| Ok(WhenArg::Ago(Duration::from_secs(s)));
    assert_eq!(parse_when("12h"), ago(43_200));
    assert_eq!(parse_when("2h30m"), ago(9000));
    assert_eq!(parse_when("3h15m ago"), ago(11_700));
    assert_eq!(parse_when("29d8h"), ago(29 * 86_400 + 8 * 3600));
}

#[test]
fn a_local_time_the_clocks_skip_or_repeat_is_refused() {
    let zone = "the local time zone (TZ=Europe/Berlin)";
    let first =
        utc("2026-10-25T00:30:00Z").with_timezone(&FixedOffset::east_opt(7200).expect("+2"));
    let second =
        utc("2026-10-25T01:30:00Z").with_timezone(&FixedOffset::east_opt(3600).expect("+1"));
    let twice = in_zone(
        "2026-10-25 02:30",
        LocalResult::Ambiguous(first, second),
        zone,
    )
    .expect_err("ambiguous");
    assert!(
        twice.contains("happens twice in the local time zone (TZ=Europe/Berlin)"),
        "{twice}"
    );
    assert!(
        twice
            .contains("2026-10-25 00:30:00Z (the first time) or 2026-10-25 01:30:00Z (the second)"),
        "{twice}"
    );
    let never =
        in_zone::<FixedOffset>("2026-03-29 02:30", LocalResult::None, zone).expect_err("skipped");
    assert!(
        never.contains("does not exist in the local time zone"),
        "{never}"
    );
}

#[test]
fn what_is_no_time_says_what_would_be() {
    for bad in ["yesterday-ish", "2026-13-01", "2026-12-01 25:00", "12:30"] {
        let err = parse_when(bad).expect_err(bad);
        assert!(err.contains("expected a time"), "{bad}: {err}");
        assert!(err.contains("local time zone"), "{bad}: {err}");
    }
    let err = parse_when("2h30x").expect_err("a bad duration");
    assert!(err.contains("`30x` has an unknown unit `x`"), "{err}");
    assert!(err.contains("or a time"), "{err}");
}
