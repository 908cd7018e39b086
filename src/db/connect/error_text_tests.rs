use super::replace_whole;
use crate::db::connect::PasswordSource;
use crate::db::connect::test_support::resolve;

#[test]
fn secrets_are_redacted_from_descriptions() {
    let s = resolve(Some("host=s3cr3tpw dbname=d password=s3cr3tpw"), &[]).unwrap();
    assert!(!s.describe().contains("s3cr3tpw"), "{}", s.describe());
    assert!(!format!("{s:?}").contains("s3cr3tpw"));
    assert_eq!(s.password_source(), PasswordSource::Url);
}

#[test]
fn redaction_never_mangles_text_that_merely_contains_the_password() {
    let s = resolve(Some("host=h user=anna dbname=na password=na"), &[]).unwrap();
    assert_eq!(s.describe(), "h:5432/******** as anna");
    assert_eq!(
        s.redact("user anna: na, (na)"),
        "user anna: ********, (********)"
    );
    assert_eq!(replace_whole("xpwx pw", "pw"), "xpwx ********");
}
