use super::*;

#[test]
fn starts_are_an_interval_apart() {
    let mut pace = Pace::at(Rate { per_second: 20.0 });
    let start = Instant::now();
    for _ in 0..4 {
        assert!(pace.wait(false));
        pace.ran(true);
    }
    assert!(start.elapsed() >= Duration::from_millis(150));
    let kept = pace.kept().unwrap();
    assert_eq!(kept.runs, 4);
    assert!(kept.kept_per_second.unwrap() <= 20.0);
    assert!(Pace::none().kept().is_none());
}

#[test]
fn replays_are_not_paced_and_do_not_count() {
    let mut pace = Pace::at(Rate { per_second: 2.0 });
    let start = Instant::now();
    // Known replays, and replays found only in their transaction.
    for expected in [true, false, true, false, true, false] {
        assert!(pace.wait(expected));
        pace.ran(false);
    }
    assert!(
        start.elapsed() < Duration::from_millis(250),
        "{:?}",
        start.elapsed()
    );
    assert!(pace.kept().is_none(), "no write, no pace kept");
    // A write, then a known replay (no wait), then a write: paced from
    // the first write, not from the replay.
    assert!(pace.wait(false));
    pace.ran(true);
    let wrote = Instant::now();
    assert!(pace.wait(true));
    pace.ran(false);
    assert!(wrote.elapsed() < Duration::from_millis(250));
    assert!(pace.wait(false));
    pace.ran(true);
    assert!(wrote.elapsed() >= Duration::from_millis(450));
    assert_eq!(pace.kept().map(|k| k.runs), Some(2));
}
