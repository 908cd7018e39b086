use super::*;

#[test]
fn lengths_are_grouped_by_thousands() {
    assert_eq!(grouped(0), "0");
    assert_eq!(grouped(999), "999");
    assert_eq!(grouped(1000), "1,000");
    assert_eq!(grouped(52_428_800), "52,428,800");
    assert_eq!(grouped(-1_234_567), "-1,234,567");
}

#[test]
fn the_note_names_the_full_length_and_the_way_to_it() {
    assert_eq!(
        cut_note(Some(52_428_800)),
        "cut: 52,428,800 bytes in all; diagnose --full-text shows it"
    );
    assert!(cut_note(None).contains("diagnose --full-text"));
}
