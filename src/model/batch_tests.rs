use super::*;

#[test]
fn rates_parse_per_second_or_per_minute() {
    assert_eq!(Rate::parse("4/s"), Ok(Rate { per_second: 4.0 }));
    assert_eq!(Rate::parse("120/m"), Ok(Rate { per_second: 2.0 }));
    assert_eq!(Rate::parse("2"), Ok(Rate { per_second: 2.0 }));
    assert_eq!(
        Rate::parse("4/s").map(Rate::interval),
        Ok(std::time::Duration::from_millis(250))
    );
    for bad in ["0/s", "-1/s", "x/s", "4/h", "5000/s", "NaN"] {
        assert!(Rate::parse(bad).is_err(), "{bad}");
    }
}
