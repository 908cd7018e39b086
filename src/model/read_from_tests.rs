use super::ReadFrom;

fn standby(lag_seconds: Option<i64>, paused: bool) -> ReadFrom {
    ReadFrom {
        server: "standby",
        lag_seconds,
        paused,
    }
}

#[test]
fn a_caught_up_standby_has_no_stale_line_and_says_no_lag() {
    let caught_up = standby(Some(0), false);
    assert_eq!(caught_up.stale_line(), None);
    assert!(caught_up.lag_words().contains("replay lag none"));
}

#[test]
fn a_standby_behind_says_by_how_much_first() {
    let line = standby(Some(45), false).stale_line().unwrap_or_default();
    assert!(
        line.starts_with("read from a standby 45s behind;"),
        "{line}"
    );
    assert!(
        line.contains("the primary may already have moved on"),
        "{line}"
    );
}

#[test]
fn paused_replay_counts_even_when_caught_up() {
    let line = standby(Some(0), true).stale_line().unwrap_or_default();
    assert!(line.contains("replay is paused"), "{line}");
    let line = standby(Some(45), true).stale_line().unwrap_or_default();
    assert!(line.contains("45s behind, its replay paused"), "{line}");
    assert!(
        standby(Some(3), true)
            .lag_words()
            .ends_with("replay paused")
    );
}

#[test]
fn an_unknown_lag_is_said_not_guessed() {
    let line = standby(None, false).stale_line().unwrap_or_default();
    assert!(line.contains("lag is unknown"), "{line}");
}

#[test]
fn a_primary_has_no_stale_line() {
    let primary = ReadFrom {
        server: "primary",
        lag_seconds: None,
        paused: false,
    };
    assert_eq!(primary.stale_line(), None);
}
