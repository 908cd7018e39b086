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

#[test]
fn parses_compounds_from_the_largest_unit_down() {
    let s = Duration::from_secs;
    assert_eq!(parse_duration("1h30m"), Ok(s(5400)));
    assert_eq!(parse_duration("2h30m"), Ok(s(9000)));
    assert_eq!(parse_duration("29d8h"), Ok(s(29 * 86_400 + 8 * 3600)));
    assert_eq!(parse_duration("1d2h3m4s"), Ok(s(93_784)));
    assert_eq!(parse_duration("1s500ms"), Ok(Duration::from_millis(1500)));
    assert_eq!(parse_duration("1h 30m"), Ok(s(5400)));
    assert_eq!(parse_duration("90m"), Ok(s(5400)));
}

#[test]
fn a_bad_compound_names_its_bad_part_and_shows_an_example() {
    for (bad, says) in [
        (
            "2h30x",
            "`2h30x`: `30x` has an unknown unit `x`; use ms, s, m, h or d, as in 1h30m",
        ),
        ("2h30", "`2h30`: `30` has no unit; write e.g."),
        (
            "30m1h",
            "`30m1h`: `1h` comes after a unit as small or smaller",
        ),
        (
            "1h1h",
            "write the units from the largest down, each once, as in 1d2h3m4s",
        ),
        ("1h1.5m", "no fractions"),
        ("1hm", "`1hm` has an unknown unit `hm`"),
        ("5parsecs", "`5parsecs` has an unknown unit `parsecs`"),
        ("0h0m", "must be greater than zero"),
    ] {
        let err = parse_duration(bad).expect_err(bad);
        assert!(err.contains(says), "{bad}: {err}");
    }
}

/// Every whole number of seconds (and some milliseconds) from 1ms to 40
/// days, in steps that hit every unit.
fn durations() -> impl Iterator<Item = Duration> {
    let seconds = (1..=200_000u64)
        .step_by(37)
        .chain([
            59,
            60,
            61,
            3599,
            3600,
            3601,
            86_399,
            86_400,
            86_401,
            2_534_400 + 28_800,
        ])
        .chain((1..=40u64).map(|d| d * 86_400 + 7 * 3600 + 5 * 60 + 3))
        .map(Duration::from_secs);
    let millis = [1u64, 250, 999, 1001, 61_500].map(Duration::from_millis);
    seconds.chain(millis)
}

#[test]
fn what_is_printed_parses_back_to_the_same_value() {
    for d in durations() {
        assert_eq!(parse_duration(&exact(d)), Ok(d), "{}", exact(d));
        // An age is shown to its two largest units: what is shown reads
        // back as exactly what it says, and shows the same again.
        let secs = i64::try_from(d.as_secs()).expect("small");
        if secs == 0 {
            continue;
        }
        let shown = human(secs);
        let back = parse_duration(&shown).unwrap_or_else(|e| panic!("{shown}: {e}"));
        assert_eq!(exact(back), shown, "{secs}s");
        assert_eq!(human(i64::try_from(back.as_secs()).expect("small")), shown);
        assert!(back <= Duration::from_secs(d.as_secs()));
        // "3h15m ago" and "in 20m" carry the same duration.
        assert_eq!(ago(secs).strip_suffix(" ago"), Some(shown.as_str()));
    }
    for (printed, secs) in [("3h15m", 11_700), ("29d8h", 29 * 86_400 + 8 * 3600)] {
        assert_eq!(parse_duration(printed), Ok(Duration::from_secs(secs)));
        assert_eq!(human(i64::try_from(secs).expect("small")), printed);
    }
}

#[test]
fn exact_shows_every_unit_in_force() {
    assert_eq!(exact(Duration::from_secs(90)), "1m30s");
    assert_eq!(exact(Duration::from_secs(7200)), "2h");
    assert_eq!(exact(Duration::from_millis(1500)), "1s500ms");
    assert_eq!(exact(Duration::from_secs(93_784)), "1d2h3m4s");
    assert_eq!(exact(Duration::ZERO), "0s");
}
