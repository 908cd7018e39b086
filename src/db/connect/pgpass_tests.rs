use super::*;

fn pgpass(content: &str, mode: u32) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pgpass");
    fs::write(&path, content).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(mode)).unwrap();
    dir
}

#[test]
fn pgpass_matches_like_libpq() {
    let dir = pgpass(
        "# comment\n\
         db1:5432:control:alice:first\n\
         db1:*:*:alice:second\n\
         we\\:ird:5432:*:*:pass\\:with\\\\colon:and more\n\
         localhost:*:*:sock:via-default-dir\n\
         /tmp:*:*:sock:via-tmp\n\
         *:*:*:*:fallback\n",
        0o600,
    );
    let path = dir.path().join("pgpass");
    let get = |h: &str, p: &str, d: &str, u: &str| password_from_file(&path, h, p, d, u);
    assert_eq!(get("db1", "", "control", "alice"), Ok(Some("first".into())));
    assert_eq!(
        get("db1", "6432", "control", "alice"),
        Ok(Some("second".into()))
    );
    // The password ends at the first unescaped colon.
    assert_eq!(
        get("we:ird", "5432", "x", "y"),
        Ok(Some("pass:with\\colon".into()))
    );
    assert_eq!(
        get("db2", "5432", "control", "bob"),
        Ok(Some("fallback".into()))
    );
    // Only the compiled-in socket directory is `localhost`.
    assert_eq!(
        get("/var/run/postgresql", "5432", "d", "sock"),
        Ok(Some("via-default-dir".into()))
    );
    assert_eq!(
        get("/run/postgresql", "5432", "d", "sock"),
        Ok(Some("fallback".into()))
    );
    assert_eq!(get("/tmp", "5432", "d", "sock"), Ok(Some("via-tmp".into())));
    let missing = dir.path().join("nope");
    assert_eq!(password_from_file(&missing, "h", "1", "d", "u"), Ok(None));
}

#[test]
fn pgpass_is_ignored_when_others_can_read_it() {
    for mode in [0o640, 0o604, 0o660] {
        let dir = pgpass("*:*:*:*:secret\n", mode);
        let warning =
            password_from_file(&dir.path().join("pgpass"), "h", "5432", "d", "u").unwrap_err();
        assert!(warning.contains("group or world access"), "{warning}");
    }
}
