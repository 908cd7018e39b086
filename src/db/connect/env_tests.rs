use super::*;

#[test]
fn integers_and_timeouts_as_libpq_reads_them() {
    assert_eq!(parse_int(" 7 "), Some(7));
    assert_eq!(parse_int("+7"), Some(7));
    assert_eq!(parse_int("-1"), Some(-1));
    for bad in ["", "7s", "1.5", "- 1", "99999999999"] {
        assert_eq!(parse_int(bad), None, "{bad}");
    }
    let t = |s| libpq_connect_timeout(s, "test").unwrap();
    assert_eq!(t("-1"), Duration::ZERO);
    assert_eq!(t("0"), Duration::ZERO);
    assert_eq!(t("1"), Duration::from_secs(2));
    assert_eq!(t("5"), Duration::from_secs(5));
    assert!(libpq_connect_timeout("", "test").is_err());
}
