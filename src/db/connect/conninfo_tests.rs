//! Unit tests of connection-string parsing.

use super::*;

fn get(pairs: &Pairs, key: &str) -> Option<String> {
    pairs
        .iter()
        .rev()
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v.clone())
}

#[test]
fn a_standby_names_its_primary_without_the_password() {
    let conninfo =
        "user=replicator password='s3cr3t pw' host=db-primary.internal port=5433 sslmode=require";
    assert_eq!(
        primary_from_conninfo(conninfo).as_deref(),
        Some("db-primary.internal:5433")
    );
    assert_eq!(primary_from_conninfo("user=x").as_deref(), None);
    assert_eq!(
        primary_from_conninfo("host=/var/run/postgresql").as_deref(),
        Some("/var/run/postgresql:5432")
    );
}

#[test]
fn urls_split_as_libpq_splits_them() {
    let p = parse_connection_string("postgresql://a:b%40c@h1,h2:6000/d%20b?host=x&port=1").unwrap();
    assert_eq!(get(&p, "user").as_deref(), Some("a"));
    assert_eq!(get(&p, "password").as_deref(), Some("b@c"));
    // The query's host replaces the netloc's.
    assert_eq!(get(&p, "host").as_deref(), Some("x"));
    assert_eq!(get(&p, "port").as_deref(), Some("1"));
    assert_eq!(get(&p, "dbname").as_deref(), Some("d b"));
    let p = parse_connection_string("postgres://[::1]:5,h2/").unwrap();
    assert_eq!(get(&p, "host").as_deref(), Some("::1,h2"));
    assert_eq!(get(&p, "port").as_deref(), Some("5,"));
    assert_eq!(get(&p, "dbname"), None);
    // An empty user or password is not set (the environment fills in).
    let p = parse_connection_string("postgresql://:@h?ssl=true&requiressl=0").unwrap();
    assert_eq!(get(&p, "user"), None);
    assert_eq!(get(&p, "password"), None);
    assert_eq!(get(&p, "sslmode").as_deref(), Some("prefer"));
    let p = parse_connection_string("postgresql://").unwrap();
    assert!(p.is_empty());
    let p = parse_connection_string("control").unwrap();
    assert_eq!(get(&p, "dbname").as_deref(), Some("control"));
}

#[test]
fn an_unencoded_at_sign_is_refused_without_quoting() {
    for url in [
        "postgresql://u:p@ss@h/db",
        "postgresql://u:12/ss@h/db",
        "postgresql://h?user=a@b",
        "postgresql://h/db?x&=",
        "postgresql://h/db?sslmode",
        "postgresql://h/db?bogus=1",
        "postgresql://h/%zz",
        "postgresql://[::1/db",
    ] {
        let err = parse_connection_string(url).unwrap_err();
        assert_eq!(exit::code_for(&err), exit::ExitCode::Usage, "{url}");
        let text = format!("{err:#}");
        assert!(!text.contains("ss@") && !text.contains("bogus"), "{text}");
    }
}

#[test]
fn key_values_follow_libpq() {
    let p = parse_connection_string(r"host = 'a b' port=1 port=2 password=x\ y dbname='it\'s'")
        .unwrap();
    assert_eq!(get(&p, "host").as_deref(), Some("a b"));
    assert_eq!(get(&p, "port").as_deref(), Some("2"));
    assert_eq!(get(&p, "password").as_deref(), Some("x y"));
    assert_eq!(get(&p, "dbname").as_deref(), Some("it's"));
    assert!(parse_connection_string("host=h bogus").is_err());
    assert!(parse_connection_string("host='h").is_err());
    assert!(parse_connection_string("=x").is_err());
}
