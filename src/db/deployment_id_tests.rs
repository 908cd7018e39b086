use super::*;

#[test]
fn full_ids_and_prefixes() {
    let full = "d0000001-0000-4000-8000-000000000001";
    assert_eq!(
        parse(full).unwrap(),
        IdQuery::Full(Uuid::parse_str(full).unwrap())
    );
    match parse("D000-0001").unwrap() {
        IdQuery::Prefix { prefix, low, high } => {
            assert_eq!(prefix, "d0000001");
            assert_eq!(low.to_string(), "d0000001-0000-0000-0000-000000000000");
            assert_eq!(high.to_string(), "d0000001-ffff-ffff-ffff-ffffffffffff");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn malformed_ids_are_usage_errors() {
    for bad in [
        "",
        "abc",
        "xyz1234",
        "d0000001'; drop table jobs; --",
        "0123456789abcdef0123456789abcdef0",
    ] {
        let err = parse(bad).unwrap_err();
        assert_eq!(exit::code_for(&err), exit::ExitCode::Usage, "{bad}");
    }
}
