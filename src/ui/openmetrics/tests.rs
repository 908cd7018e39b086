use super::*;

#[test]
fn a_failed_scan_keeps_the_last_success_and_ends_with_eof() {
    let at = DateTime::from_timestamp(1_790_000_000, 0).expect("a time");
    let earlier = DateTime::from_timestamp(1_789_999_000, 0).expect("a time");
    let text = render(&Scan::Failed, at, Some(earlier));
    assert!(text.contains("pushleft_scan_success 0\n"), "{text}");
    assert!(text.ends_with("# EOF\n"));
    assert_eq!(last_success_in(&text), Some(earlier));
    assert_eq!(label("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
}
