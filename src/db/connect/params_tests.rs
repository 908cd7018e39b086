//! Unit tests of [`Settings::resolve`](super::Settings::resolve): the
//! libpq rules parameter by parameter, without a server.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::time::Duration;

use super::super::hosts::Kind;
use super::super::test_support::resolve;
use super::super::{APPLICATION_NAME, PasswordSource, RootCerts, SessionAttrs, SslMode};
use crate::exit;

fn password(s: &super::Settings, host: usize) -> Option<String> {
    s.hosts[host].password.as_ref().map(|(p, _)| p.clone())
}

#[test]
fn the_url_wins_over_the_environment_parameter_by_parameter() {
    let s = resolve(
        Some("postgresql://alice@db1:6432/control"),
        &[
            ("PGHOST", "db2"),
            ("PGPORT", "7000"),
            ("PGUSER", "bob"),
            ("PGDATABASE", "other"),
        ],
    )
    .unwrap();
    assert_eq!(s.describe(), "db1:6432/control as alice");
    let s = resolve(
        Some("dbname=control sslmode=verify-full"),
        &[
            ("PGHOST", "db2"),
            ("PGUSER", "bob"),
            ("PGSSLMODE", "disable"),
        ],
    )
    .unwrap();
    assert_eq!(s.describe(), "db2:5432/control as bob");
    assert_eq!(s.ssl_mode(), SslMode::VerifyFull);
}

#[test]
fn the_libpq_environment_alone() {
    let s = resolve(
        None,
        &[
            ("PGHOST", "/var/run/pg"),
            ("PGPORT", "5433"),
            ("PGUSER", "ops"),
            ("PGSSLMODE", "require"),
            ("PGAPPNAME", "psql"),
            ("PGCONNECT_TIMEOUT", "1"),
        ],
    )
    .unwrap();
    assert_eq!(s.describe(), "/var/run/pg:5433/ops as ops");
    assert!(s.is_unix_socket());
    assert_eq!(s.ssl_mode(), SslMode::Require);
    let config = s.base_config(&s.hosts[0], "");
    assert_eq!(config.get_application_name(), Some(APPLICATION_NAME));
    assert_eq!(s.connect_timeout(), Duration::from_secs(2));
}

#[test]
fn sslmode_and_sslrootcert_are_ours_in_both_forms() {
    let s = resolve(
        Some(
            "postgresql://u:p%40ss@h/d?sslmode=verify-ca&sslrootcert=%2Fetc%2Fca.pem&application_name=x&target_session_attrs=read-write",
        ),
        &[],
    )
    .unwrap();
    assert_eq!(s.ssl_mode(), SslMode::VerifyCa);
    assert_eq!(s.root_certs(), &RootCerts::File("/etc/ca.pem".into()));
    assert_eq!(password(&s, 0).as_deref(), Some("p@ss"));
    assert_eq!(s.session_attrs(), SessionAttrs::ReadWrite);
    let config = s.base_config(&s.hosts[0], "");
    assert_eq!(config.get_application_name(), Some(APPLICATION_NAME));
    let s = resolve(
        Some("host=h dbname = 'my db' password='it''s' sslrootcert=system sslmode=allow"),
        &[],
    );
    // libpq escapes quotes with a backslash, not by doubling.
    assert!(s.is_err());
    let s = resolve(
        Some(r"host=h dbname = 'my db' password='it\'s' sslrootcert=system"),
        &[],
    )
    .unwrap();
    assert_eq!(s.target().database, "my db");
    assert_eq!(password(&s, 0).as_deref(), Some("it's"));
    assert_eq!(s.root_certs(), &RootCerts::System);
    assert_eq!(s.ssl_mode(), SslMode::Prefer);
}

#[test]
fn bad_input_is_a_usage_error_that_never_echoes_it() {
    for url in [
        "postgresql://u:hunter2@h/d?sslmode=verify-fll",
        "host=h password=hunter2 bogus",
        "host=h password=hunter2 hunter3=x",
        "postgresql://u:hunter2@h:notaport/d",
        "host=h password='hunter2",
        "postgresql://u:hunter2@hunter4@h/d",
    ] {
        let err = resolve(Some(url), &[]).unwrap_err();
        assert_eq!(exit::code_for(&err), exit::ExitCode::Usage, "{url}");
        let text = format!("{err:#}");
        assert!(!text.contains("hunter"), "{url}: {text}");
    }
    // sslcert is supported now; a revocation list is not (named).
    let err = resolve(Some("host=h sslcrl=/x"), &[]).unwrap_err();
    assert!(err.to_string().contains("`sslcrl`"), "{err}");
}

#[test]
fn deliberately_unsupported_parameters_are_refused_by_name() {
    for (url, vars, name) in [
        ("gssencmode=require", vec![], "gssencmode"),
        ("host=h", vec![("PGGSSENCMODE", "require")], "gssencmode"),
        ("client_encoding=LATIN1", vec![], "client_encoding"),
        ("host=h", vec![("PGREQUIREPEER", "postgres")], "requirepeer"),
        ("sslpassword=x", vec![], "sslpassword"),
        ("replication=database", vec![], "replication"),
        (
            "ssl_min_protocol_version=TLSv1 ssl_max_protocol_version=TLSv1.1",
            vec![],
            "ssl_max_protocol_version",
        ),
    ] {
        let err = resolve(Some(url), &vars).unwrap_err();
        assert_eq!(exit::code_for(&err), exit::ExitCode::Usage, "{url}");
        assert!(err.to_string().contains(&format!("`{name}`")), "{err}");
    }
    for ok in [
        "gssencmode=disable",
        "client_encoding=UTF8",
        "sslcompression=0",
    ] {
        resolve(Some(ok), &[]).unwrap();
    }
}

#[test]
fn empty_variables_are_values_as_in_libpq() {
    // PGHOST= is the default socket directory, PGSSLMODE= is invalid.
    let s = resolve(None, &[("PGHOST", ""), ("PGUSER", "u")]).unwrap();
    assert_eq!(s.describe(), "/var/run/postgresql:5432/u as u");
    assert!(resolve(None, &[("PGSSLMODE", "")]).is_err());
    assert!(resolve(None, &[("PGTARGETSESSIONATTRS", "")]).is_err());
    let s = resolve(None, &[("PGCONNECT_TIMEOUT", "-1")]).unwrap();
    assert_eq!(s.connect_timeout(), Duration::ZERO);
    let s = resolve(None, &[("PGREQUIRESSL", "1")]).unwrap();
    assert_eq!(s.ssl_mode(), SslMode::Require);
}

#[test]
fn hosts_ports_and_hostaddrs_pair_up_like_libpq() {
    let s = resolve(Some("host=a,b,/sock port=1"), &[("PGUSER", "u")]).unwrap();
    assert_eq!(s.describe(), "a:1,b:1,/sock:1/u as u");
    assert_eq!(s.hosts[2].kind, Kind::Socket);
    let s = resolve(
        Some("postgresql://a,b:2/d"),
        &[("PGPORT", "9"), ("PGUSER", "u")],
    )
    .unwrap();
    // The URL's port list (",2") is complete: the first is empty, 5432.
    assert_eq!(s.describe(), "a:5432,b:2/d as u");
    let s = resolve(
        Some("postgresql://a/d"),
        &[("PGPORT", "9"), ("PGUSER", "u")],
    )
    .unwrap();
    assert_eq!(s.describe(), "a:9/d as u");
    let s = resolve(Some("hostaddr=127.0.0.1"), &[("PGUSER", "u")]).unwrap();
    assert_eq!(s.hosts[0].kind, Kind::Address);
    assert!(!s.is_unix_socket());
    assert!(resolve(Some("host=a,b hostaddr=127.0.0.1"), &[]).is_err());
    assert!(resolve(Some("host=a,b,c port=1,2"), &[]).is_err());
}

#[test]
fn each_host_gets_its_own_pgpass_line_and_an_empty_password_falls_back() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pgpass");
    fs::write(&file, "a:5432:d:u:for-a\nb:5432:d:u:for-b\n").unwrap();
    fs::set_permissions(&file, fs::Permissions::from_mode(0o600)).unwrap();
    let file = file.to_str().unwrap();
    let s = resolve(Some("postgresql://u:@a,b/d"), &[("PGPASSFILE", file)]).unwrap();
    assert_eq!(password(&s, 0).as_deref(), Some("for-a"));
    assert_eq!(password(&s, 1).as_deref(), Some("for-b"));
    assert!(matches!(
        s.password_source(),
        PasswordSource::PasswordFile(_)
    ));
    let s = resolve(
        Some("host=a dbname=d user=u"),
        &[("PGPASSFILE", file), ("PGPASSWORD", "from-env")],
    )
    .unwrap();
    assert_eq!(password(&s, 0).as_deref(), Some("from-env"));
}

#[test]
fn the_service_flag_names_a_section_and_refuses_a_url_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("services");
    fs::write(&file, "[eu-west]\nhost=db-eu\nport=6432\ndbname=control\n").unwrap();
    let map: std::collections::HashMap<&str, String> = [
        ("PGSERVICEFILE", file.display().to_string()),
        ("PGUSER", "ops".to_string()),
        ("PGHOST", "elsewhere".to_string()),
    ]
    .into_iter()
    .collect();
    let env = move |k: &str| map.get(k).cloned();
    let timeouts = super::super::test_support::timeouts();
    let s = super::Settings::resolve_with_service(None, Some("eu-west"), &env, timeouts).unwrap();
    assert_eq!(s.describe(), "db-eu:6432/control as ops");
    let err =
        super::Settings::resolve_with_service(Some("host=x"), Some("eu-west"), &env, timeouts)
            .unwrap_err();
    assert_eq!(exit::code_for(&err), exit::ExitCode::Usage);
    assert!(err.to_string().contains("--service"), "{err}");
}

/// libpq 15 (`connectOptions2`): the password file is searched for `host`
/// when it is not empty, else for `hostaddr`; `passwordFromFile` turns an
/// empty host and the compiled-in socket directory into `localhost`. So a
/// lone `hostaddr` finds its own address's line, not `localhost`'s.
#[test]
fn the_pgpass_host_of_a_lone_hostaddr_is_the_address() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pgpass");
    fs::write(
        &file,
        "localhost:5432:d:u:for-localhost\n127.0.0.1:5432:d:u:for-address\n\
         /tmp/s:5432:d:u:for-socket-dir\n",
    )
    .unwrap();
    fs::set_permissions(&file, fs::Permissions::from_mode(0o600)).unwrap();
    let file = file.to_str().unwrap();
    let with = |url: &str, vars: &[(&str, &str)]| {
        let mut all = vec![("PGPASSFILE", file)];
        all.extend_from_slice(vars);
        password(&resolve(Some(url), &all).unwrap(), 0)
    };
    let found = |s: &str| Some(s.to_string());
    assert_eq!(
        with("hostaddr=127.0.0.1 dbname=d user=u", &[]),
        found("for-address")
    );
    assert_eq!(
        with("host='' hostaddr=127.0.0.1 dbname=d user=u", &[]),
        found("for-address")
    );
    assert_eq!(
        with("postgresql://u@/d?hostaddr=127.0.0.1", &[]),
        found("for-address")
    );
    assert_eq!(
        with("dbname=d user=u", &[("PGHOSTADDR", "127.0.0.1")]),
        found("for-address")
    );
    // A host, whatever it is, is the key: the default socket directory is
    // `localhost` (what Debian's psql wrapper makes of it), another is itself.
    let default_dir = [("PGHOST", super::super::env::DEFAULT_SOCKET_DIR)];
    assert_eq!(
        with("hostaddr=127.0.0.1 dbname=d user=u", &default_dir),
        found("for-localhost")
    );
    assert_eq!(
        with("host=/tmp/s hostaddr=127.0.0.1 dbname=d user=u", &[]),
        found("for-socket-dir")
    );
    assert_eq!(
        with("host=db9 hostaddr=127.0.0.1 dbname=d user=u", &[]),
        None
    );
    // Neither: the default socket directory, so `localhost`.
    assert_eq!(with("dbname=d user=u", &[]), found("for-localhost"));
}
