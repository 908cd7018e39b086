use super::*;

#[test]
fn starts_are_an_interval_apart() {
    let mut pace = Pace::at(Rate { per_second: 20.0 });
    let start = Instant::now();
    for _ in 0..4 {
        assert!(pace.wait());
    }
    assert!(start.elapsed() >= Duration::from_millis(150));
    let kept = pace.kept().unwrap();
    assert_eq!(kept.runs, 4);
    assert!(kept.kept_per_second.unwrap() <= 20.0);
    assert!(Pace::none().kept().is_none());
}
