//! The PgBouncer of these tests is Debian's default configuration with
//! only the test instance's own lines changed, refuses the `options`
//! startup parameter as that default does, and leaves nothing behind.

use pushleft_controller::testing::pgbouncer::{DEBIAN_DEFAULT_INI, PoolMode, configure};

use super::pooler;

#[test]
fn configure_comments_out_only_what_it_sets() {
    let default = "[databases]\n;foodb = host=x\n\n[users]\n\n[pgbouncer]\n\
                   logfile = /var/log/x.log\nlisten_port = 6432\n;pool_mode = session\n\
                   auth_type = md5\n";
    let ours = vec![
        ("listen_port".to_string(), "7000".to_string()),
        ("pool_mode".to_string(), "transaction".to_string()),
    ];
    let ini = configure(default, &ours, "* = host=/tmp/s port=5432");
    assert!(ini.contains("[databases]\n; pushleft-controller test instance:\n* = host=/tmp/s"));
    assert!(ini.contains("; overridden for the test: listen_port = 6432\n"));
    assert!(ini.contains("\nlisten_port = 7000\n"));
    assert!(ini.contains("\npool_mode = transaction\n"));
    assert!(ini.contains("\nlogfile = /var/log/x.log\n"), "{ini}");
    assert!(ini.contains("\nauth_type = md5\n"), "{ini}");
    assert!(ini.contains("\n;pool_mode = session\n"), "{ini}");
}

/// Debian's file line by line, less the lines the instance must change;
/// `ignore_startup_parameters` stays unset.
#[test]
fn the_instance_runs_debians_default_configuration() {
    let Some(pooler) = pooler(PoolMode::Transaction, &[], &[]) else {
        return;
    };
    let config = pooler.config();
    let debian = std::fs::read_to_string(DEBIAN_DEFAULT_INI).expect("Debian's pgbouncer.ini");
    for line in debian.lines() {
        assert!(
            config
                .lines()
                .any(|l| l == line || l.ends_with(&format!("for the test: {line}"))),
            "Debian's line {line:?} is missing"
        );
    }
    let active: Vec<&str> = config
        .lines()
        .filter(|l| !l.trim_start().starts_with(';') && l.contains('='))
        .collect();
    assert!(
        !active
            .iter()
            .any(|l| l.contains("ignore_startup_parameters")),
        "{active:#?}"
    );
    for key in [
        "listen_addr",
        "listen_port",
        "pool_mode",
        "auth_type",
        "auth_file",
    ] {
        let count = active.iter().filter(|l| l.starts_with(key)).count();
        assert_eq!(count, 1, "{key} set once: {active:#?}");
    }
}

/// As Debian's default does: a client sending `options` is refused; one
/// that does not gets in. Stopped, nothing of it remains.
#[test]
fn the_default_refuses_the_options_startup_parameter_and_cleans_up() {
    let Some(pooler) = pooler(PoolMode::Session, &[], &[]) else {
        return;
    };
    let conninfo = pooler.conninfo("postgres", "postgres");
    let mut client = postgres::Client::connect(&conninfo, postgres::NoTls).expect("plain client");
    client.simple_query("SELECT 1").expect("a query");
    let refused =
        postgres::Client::connect(&format!("{conninfo} options='-c jit=off'"), postgres::NoTls)
            .err()
            .expect("options refused");
    assert!(
        format!("{refused:?}").contains("unsupported startup parameter: options"),
        "{refused:?}"
    );
    drop(client);
    let (dir, port) = (pooler.socket_dir().to_path_buf(), pooler.port());
    drop(pooler);
    assert!(!dir.exists(), "{} is left behind", dir.display());
    assert!(
        std::net::TcpStream::connect(("127.0.0.1", port)).is_err(),
        "PgBouncer still listens on {port}"
    );
}
