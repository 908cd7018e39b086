use super::*;

fn cut(what: &str, length: i64) -> Cut {
    Cut {
        what: what.to_string(),
        length: Some(length),
    }
}

#[test]
fn one_cut_value_is_named_with_its_length_within_80_columns() {
    assert_eq!(line(&[]), None);
    let one = line(&[cut("job b0000002", 52_428_800)]).unwrap();
    assert_eq!(
        one,
        "(job b0000002 cut: 52,428,800 bytes in all; diagnose --full-text shows it)"
    );
    assert!(one.chars().count() <= 80, "{one}");
}

#[test]
fn many_cut_values_take_one_line() {
    let cuts: Vec<Cut> = (0..10_000).map(|n| cut("job x", 5_000 + n)).collect();
    let many = line(&cuts).unwrap();
    assert_eq!(
        many,
        "(10,000 values cut, the longest 14,999 bytes in all; diagnose --full-text shows them)"
    );
}
