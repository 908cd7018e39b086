use crate::db::connect::test_support::resolve;

#[test]
fn only_the_users_own_options_are_sent() {
    let s = resolve(Some("host=h options='-c search_path=cp'"), &[]).unwrap();
    assert_eq!(s.session_options(), "-c search_path=cp");
    let s = resolve(Some("host=h"), &[("PGOPTIONS", "-c work_mem=8MB")]).unwrap();
    assert_eq!(s.session_options(), "-c work_mem=8MB");
    let s = resolve(Some("host=h"), &[]).unwrap();
    assert_eq!(s.session_options(), "");
}
