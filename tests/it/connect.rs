//! Connecting like libpq: precedence, unix sockets, ~/.pgpass, TLS modes
//! against a real TLS-enabled server, and no password in any output.

use std::fs;
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use postgres::{Client, NoTls};
use pushleft_controller::db::sql;
use pushleft_controller::sandbox::cluster::{Cluster, ClusterOptions};
use pushleft_controller::testing;
use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair, KeyUsagePurpose,
};

use crate::support::{Run, TestDb};

const PASSWORD: &str = "Sup3r-S3cret-pw";
const WRONG_PASSWORD: &str = "Wr0ng-S3cret-pw";
const PASSWORD_USER: &str = "secret_user";

/// A second throwaway server: TCP on 127.0.0.1 with TLS on and required
/// (`hostnossl ... reject`), trust for `postgres`, scram-sha-256 for
/// `secret_user`; the reference schema loaded into `postgres`.
struct TlsServer {
    _cluster: Cluster,
    port: u16,
    /// root.crt (signed the server's certificate), other-ca.crt (did not).
    certs: tempfile::TempDir,
}

impl TlsServer {
    fn root(&self) -> PathBuf {
        self.certs.path().join("root.crt")
    }

    fn other_ca(&self) -> PathBuf {
        self.certs.path().join("other-ca.crt")
    }

    /// key=value conninfo to the `postgres` database over TCP.
    fn conninfo(&self, host: &str, user: &str, extra: &str) -> String {
        format!(
            "host={host} hostaddr=127.0.0.1 port={} user={user} dbname=postgres {extra}",
            self.port
        )
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("binding a free port")
        .port()
}

fn ca(name: &str) -> CertifiedIssuer<'static, KeyPair> {
    let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.distinguished_name.push(DnType::CommonName, name);
    params.key_usages = vec![
        KeyUsagePurpose::KeyCertSign,
        KeyUsagePurpose::CrlSign,
        KeyUsagePurpose::DigitalSignature,
    ];
    CertifiedIssuer::self_signed(params, KeyPair::generate().unwrap()).unwrap()
}

fn tls_server() -> &'static TlsServer {
    static SERVER: OnceLock<TlsServer> = OnceLock::new();
    SERVER.get_or_init(|| {
        let port = free_port();
        let cluster = Cluster::start(&ClusterOptions {
            tcp_port: Some(port),
            extra_conf: vec![],
            extra_hba: vec![
                "hostnossl all all 127.0.0.1/32 reject".to_string(),
                format!("hostssl all {PASSWORD_USER} 127.0.0.1/32 scram-sha-256"),
                "hostssl all all 127.0.0.1/32 trust".to_string(),
            ],
        })
        .expect("starting the TLS test server");

        // The server's certificate names `localhost` only.
        let root = ca("pushleft test root");
        let other = ca("some other root");
        let server_key = KeyPair::generate().unwrap();
        let mut params = CertificateParams::new(vec!["localhost".to_string()]).unwrap();
        params
            .distinguished_name
            .push(DnType::CommonName, "localhost");
        let server_cert = params.signed_by(&server_key, &root).unwrap();

        let cert_path = cluster.base_dir().join("server.crt");
        let key_path = cluster.base_dir().join("server.key");
        fs::write(&cert_path, server_cert.pem()).unwrap();
        fs::write(&key_path, server_key.serialize_pem()).unwrap();
        testing::hand_to_server(&cluster, &cert_path, 0o600).unwrap();
        testing::hand_to_server(&cluster, &key_path, 0o600).unwrap();
        let certs = tempfile::tempdir().unwrap();
        fs::write(certs.path().join("root.crt"), root.pem()).unwrap();
        fs::write(certs.path().join("other-ca.crt"), other.pem()).unwrap();

        let mut admin = Client::connect(&cluster.conninfo("postgres"), NoTls).unwrap();
        // One statement at a time: ALTER SYSTEM refuses a transaction block.
        for statement in [
            format!("ALTER SYSTEM SET ssl_cert_file = '{}'", cert_path.display()),
            format!("ALTER SYSTEM SET ssl_key_file = '{}'", key_path.display()),
            "ALTER SYSTEM SET ssl = on".to_string(),
            "SELECT pg_reload_conf()".to_string(),
            format!("CREATE ROLE {PASSWORD_USER} LOGIN SUPERUSER PASSWORD '{PASSWORD}'"),
        ] {
            admin.batch_execute(&statement).unwrap();
        }
        admin.batch_execute(sql::scripts::SCHEMA.text).unwrap();
        // The reload is asynchronous: wait until new sessions see ssl = on.
        let mut on = false;
        for _ in 0..100 {
            let mut client = Client::connect(&cluster.conninfo("postgres"), NoTls).unwrap();
            let ssl: String = client.query_one("SHOW ssl", &[]).unwrap().get(0);
            if ssl == "on" {
                on = true;
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        assert!(on, "the test server did not turn ssl on");
        TlsServer {
            _cluster: cluster,
            port,
            certs,
        }
    })
}

/// The binary with no connection settings inherited, and a HOME of its
/// own (no stray ~/.pgpass or ~/.postgresql/root.crt).
fn bin(home: &Path) -> Command {
    let mut cmd = crate::support::bin();
    for var in [
        "PGSSLROOTCERT",
        "PGPASSFILE",
        "PGCONNECT_TIMEOUT",
        "PGAPPNAME",
        "PUSHLEFT_CONNECT_TIMEOUT",
        "PUSHLEFT_STATEMENT_TIMEOUT",
        "PUSHLEFT_IDLE_IN_TRANSACTION_TIMEOUT",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("HOME", home);
    cmd
}

fn doctor(cmd: &mut Command) -> Run {
    Run::from(
        cmd.args(["doctor", "--output", "json"])
            .output()
            .expect("running pushleft-controller doctor"),
    )
}

#[track_caller]
fn assert_connected(run: &Run) {
    run.assert_code(0);
    assert_eq!(run.doctor_check("connection").0, "ok", "{}", run.stdout);
}

#[track_caller]
fn assert_not_connected(run: &Run, says: &str) -> String {
    run.assert_code(4);
    let (status, detail) = run.doctor_check("connection");
    assert_eq!(status, "fail", "{}", run.stdout);
    assert!(detail.contains(says), "expected {says:?} in: {detail}");
    assert!(detail.contains("Next step"), "no next step in: {detail}");
    detail
}

// ---- TLS ----------------------------------------------------------------

#[test]
fn verify_full_connects_with_the_right_root_and_host_name() {
    let server = tls_server();
    let home = tempfile::tempdir().unwrap();
    let url = server.conninfo(
        "localhost",
        "postgres",
        &format!(
            "sslmode=verify-full sslrootcert={}",
            server.root().display()
        ),
    );
    let run = doctor(bin(home.path()).env("DATABASE_URL", url));
    assert_connected(&run);
    let (status, detail) = run.doctor_check("tls");
    assert_eq!(status, "ok", "{detail}");
    assert!(detail.contains("host name verified"), "{detail}");
}

#[test]
fn verify_full_refuses_a_wrong_host_name_and_verify_ca_does_not_check_it() {
    let server = tls_server();
    let home = tempfile::tempdir().unwrap();
    // The certificate names localhost, not 127.0.0.1.
    let url = server.conninfo(
        "127.0.0.1",
        "postgres",
        &format!(
            "sslmode=verify-full sslrootcert={}",
            server.root().display()
        ),
    );
    let run = doctor(bin(home.path()).env("DATABASE_URL", url));
    let detail = assert_not_connected(&run, "not valid for the host name \"127.0.0.1\"");
    assert!(detail.contains("sslmode=verify-full"), "{detail}");

    let url = server.conninfo(
        "127.0.0.1",
        "postgres",
        &format!("sslmode=verify-ca sslrootcert={}", server.root().display()),
    );
    assert_connected(&doctor(bin(home.path()).env("DATABASE_URL", url)));
}

#[test]
fn verify_full_and_verify_ca_refuse_an_unknown_ca() {
    let server = tls_server();
    let home = tempfile::tempdir().unwrap();
    for mode in ["verify-full", "verify-ca"] {
        // As environment variables this time.
        let run = doctor(
            bin(home.path())
                .env("PGHOST", "localhost")
                .env("PGPORT", server.port.to_string())
                .env("PGUSER", "postgres")
                .env("PGDATABASE", "postgres")
                .env("PGSSLMODE", mode)
                .env("PGSSLROOTCERT", server.other_ca()),
        );
        let detail = assert_not_connected(&run, "not signed by a trusted root");
        assert!(detail.contains("other-ca.crt"), "{detail}");
    }
}

#[test]
fn require_and_prefer_encrypt_without_verifying() {
    let server = tls_server();
    let home = tempfile::tempdir().unwrap();
    for mode in ["require", "prefer"] {
        // No root certificate anywhere, and a name the certificate lacks.
        let url = format!(
            "postgresql://postgres@127.0.0.1:{}/postgres?sslmode={mode}",
            server.port
        );
        let run = doctor(bin(home.path()).env("DATABASE_URL", url));
        assert_connected(&run);
        let (status, detail) = run.doctor_check("tls");
        assert_eq!(status, "warn", "{detail}");
        assert!(detail.contains("encrypted (TLSv1."), "{detail}");
    }
}

#[test]
fn disable_against_a_server_that_demands_tls_fails_clearly() {
    let server = tls_server();
    let home = tempfile::tempdir().unwrap();
    let url = server.conninfo("127.0.0.1", "postgres", "sslmode=disable");
    let run = doctor(bin(home.path()).env("DATABASE_URL", url));
    let detail = assert_not_connected(&run, "only accepts TLS");
    assert!(detail.contains("no encryption"), "{detail}");
}

#[test]
fn a_missing_root_certificate_file_is_named() {
    let server = tls_server();
    let home = tempfile::tempdir().unwrap();
    let url = server.conninfo(
        "localhost",
        "postgres",
        "sslmode=verify-full sslrootcert=/nonexistent/root.crt",
    );
    let run = doctor(bin(home.path()).env("DATABASE_URL", url));
    run.assert_code(4);
    let (_, detail) = run.doctor_check("connection");
    assert!(detail.contains("/nonexistent/root.crt"), "{detail}");
}

// ---- precedence and unix sockets -----------------------------------------

/// The shared test server's socket settings, from its key=value conninfo.
fn socket_params(db: &TestDb) -> Option<Vec<(String, String)>> {
    if db.conninfo.contains("://") {
        eprintln!("skipped: PUSHLEFT_TEST_DATABASE_URL is a URL");
        return None;
    }
    Some(
        db.conninfo
            .split_whitespace()
            .filter_map(|kv| kv.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    )
}

fn param<'a>(params: &'a [(String, String)], key: &str) -> &'a str {
    &params.iter().find(|(k, _)| k == key).unwrap().1
}

#[test]
fn the_flag_wins_over_database_url_which_wins_over_pg_variables() {
    let db = TestDb::scenarios();
    let home = tempfile::tempdir().unwrap();
    // The flag over a DATABASE_URL that points nowhere.
    let run = doctor(
        bin(home.path())
            .env("DATABASE_URL", "host=/nonexistent dbname=nowhere")
            .args(["--database-url", &db.conninfo]),
    );
    assert_connected(&run);
    assert_eq!(run.json()["target"]["database"], db.name.as_str());

    // DATABASE_URL over PG* variables that point nowhere.
    let run = doctor(
        bin(home.path())
            .env("DATABASE_URL", &db.conninfo)
            .env("PGHOST", "/nonexistent")
            .env("PGDATABASE", "nowhere")
            .env("PGUSER", "nobody"),
    );
    assert_connected(&run);
    assert_eq!(run.json()["target"]["database"], db.name.as_str());
    assert_eq!(run.json()["target"]["user"], "postgres");
}

#[test]
fn pg_variables_fill_in_what_the_url_leaves_out_and_a_socket_pghost_works() {
    let db = TestDb::scenarios();
    let Some(params) = socket_params(&db) else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let socket_dir = param(&params, "host");
    assert!(socket_dir.starts_with('/'), "{socket_dir}");
    // Only the libpq variables, PGHOST a socket directory.
    let run = doctor(
        bin(home.path())
            .env("PGHOST", socket_dir)
            .env("PGPORT", param(&params, "port"))
            .env("PGUSER", param(&params, "user"))
            .env("PGDATABASE", &db.name)
            // Ignored over a unix socket, as libpq does.
            .env("PGSSLMODE", "verify-full"),
    );
    assert_connected(&run);
    assert_eq!(run.json()["target"]["host"], socket_dir);
    let (_, detail) = run.doctor_check("tls");
    assert!(detail.contains("unix socket"), "{detail}");
    // PGAPPNAME is ignored in favour of ours.
    let run = doctor(
        bin(home.path())
            .env("DATABASE_URL", format!("dbname={}", db.name))
            .env("PGHOST", socket_dir)
            .env("PGPORT", param(&params, "port"))
            .env("PGUSER", param(&params, "user"))
            .env("PGAPPNAME", "psql"),
    );
    assert_connected(&run);
    let (status, detail) = run.doctor_check("session");
    assert_eq!(status, "ok", "{detail}");
    assert!(
        detail.contains(&format!(
            "application_name=pushleft-controller/{}",
            env!("CARGO_PKG_VERSION")
        )),
        "{detail}"
    );
}

#[test]
fn session_timeouts_follow_the_flags() {
    let db = TestDb::scenarios();
    let home = tempfile::tempdir().unwrap();
    let run = doctor(
        bin(home.path())
            .env("DATABASE_URL", &db.conninfo)
            .env("PUSHLEFT_IDLE_IN_TRANSACTION_TIMEOUT", "2m")
            .args(["--statement-timeout", "7s"]),
    );
    assert_connected(&run);
    let (status, detail) = run.doctor_check("session");
    assert_eq!(status, "ok", "{detail}");
    assert!(detail.contains("statement_timeout=7s"), "{detail}");
    assert!(detail.contains("lock_timeout=5s"), "{detail}");
    assert!(
        detail.contains("idle_in_transaction_session_timeout=2min"),
        "{detail}"
    );
}

// ---- the password file -------------------------------------------------

fn write_pgpass(path: &Path, content: &str, mode: u32) {
    fs::write(path, content).unwrap();
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

fn password_env(cmd: &mut Command, server: &TlsServer) {
    cmd.env("PGHOST", "127.0.0.1")
        .env("PGPORT", server.port.to_string())
        .env("PGUSER", PASSWORD_USER)
        .env("PGDATABASE", "postgres")
        .env("PGSSLMODE", "require");
}

#[test]
fn pgpass_first_matching_line_gives_the_password() {
    let server = tls_server();
    let home = tempfile::tempdir().unwrap();
    let port = server.port;
    // Lines that do not match come first; the first match wins.
    write_pgpass(
        &home.path().join(".pgpass"),
        &format!(
            "# host:port:database:user:password\n\
             127.0.0.1:{other}:postgres:{PASSWORD_USER}:{WRONG_PASSWORD}\n\
             127.0.0.1:{port}:control:{PASSWORD_USER}:{WRONG_PASSWORD}\n\
             127.0.0.1:{port}:*:someone_else:{WRONG_PASSWORD}\n\
             127.0.0.1:*:postgres:{PASSWORD_USER}:{PASSWORD}\n\
             *:*:*:*:{WRONG_PASSWORD}\n",
            other = port.wrapping_add(1)
        ),
        0o600,
    );
    let mut cmd = bin(home.path());
    password_env(&mut cmd, server);
    let run = doctor(&mut cmd);
    assert_connected(&run);
    let (_, detail) = run.doctor_check("settings");
    assert!(detail.contains(".pgpass"), "{detail}");
    assert!(!run.stdout.contains(PASSWORD) && !run.stderr.contains(PASSWORD));

    // PGPASSFILE points elsewhere; ~/.pgpass is then not read.
    let other = tempfile::tempdir().unwrap();
    let file = other.path().join("passwords");
    write_pgpass(&file, &format!("*:*:*:{PASSWORD_USER}:{PASSWORD}\n"), 0o400);
    write_pgpass(
        &home.path().join(".pgpass"),
        &format!("*:*:*:*:{WRONG_PASSWORD}\n"),
        0o600,
    );
    let mut cmd = bin(home.path());
    password_env(&mut cmd, server);
    assert_connected(&doctor(cmd.env("PGPASSFILE", &file)));
}

#[test]
fn pgpass_readable_by_others_is_ignored_with_a_warning() {
    let server = tls_server();
    let home = tempfile::tempdir().unwrap();
    let path = home.path().join(".pgpass");
    write_pgpass(&path, &format!("*:*:*:*:{PASSWORD}\n"), 0o644);
    let mut cmd = bin(home.path());
    password_env(&mut cmd, server);
    let run = doctor(&mut cmd);
    assert!(
        run.stderr.contains("warning: password file")
            && run.stderr.contains("group or world access"),
        "stderr: {}",
        run.stderr
    );
    assert_not_connected(&run, "password");
    assert!(!run.stdout.contains(PASSWORD) && !run.stderr.contains(PASSWORD));
    let (status, _) = run.doctor_check("password file");
    assert_eq!(status, "warn");
}

// ---- no password in any output -----------------------------------------

/// Runs doctor in both output formats and checks that no secret appears.
fn assert_secret_free(label: &str, setup: &dyn Fn(&mut Command)) -> Run {
    let home = tempfile::tempdir().unwrap();
    let mut last = None;
    for format in ["json", "table"] {
        let mut cmd = bin(home.path());
        setup(&mut cmd);
        let run = Run::from(
            cmd.args(["doctor", "--output", format])
                .output()
                .expect("running doctor"),
        );
        for secret in [PASSWORD, WRONG_PASSWORD, "S3cret"] {
            assert!(
                !run.stdout.contains(secret) && !run.stderr.contains(secret),
                "{label} ({format}) printed a password:\nstdout:\n{}\nstderr:\n{}",
                run.stdout,
                run.stderr
            );
        }
        assert_ne!(run.code, 0, "{label} ({format}) should fail");
        if format == "json" {
            last = Some(run);
        }
    }
    last.unwrap()
}

#[test]
fn no_connection_failure_prints_the_password() {
    let server = tls_server();
    let port = server.port;
    let url = |password: &str, rest: &str| {
        format!("postgresql://{PASSWORD_USER}:{password}@127.0.0.1:{port}/postgres{rest}")
    };

    // Authentication failure, the wrong password in a URL.
    let run = assert_secret_free("auth failure (URL)", &|cmd| {
        cmd.env("DATABASE_URL", url(WRONG_PASSWORD, "?sslmode=require"));
    });
    assert_not_connected(&run, "password authentication failed");

    // ... in key=value form, and in PGPASSWORD.
    assert_secret_free("auth failure (key=value)", &|cmd| {
        cmd.env(
            "DATABASE_URL",
            format!(
                "host=127.0.0.1 port={port} user={PASSWORD_USER} password='{WRONG_PASSWORD}' \
                 dbname=postgres sslmode=require"
            ),
        );
    });
    let run = assert_secret_free("auth failure (PGPASSWORD)", &|cmd| {
        password_env(cmd, server);
        cmd.env("PGPASSWORD", WRONG_PASSWORD);
    });
    assert_not_connected(&run, "PGPASSWORD");

    // Connection refused.
    let closed = free_port();
    let run = assert_secret_free("connection refused", &|cmd| {
        cmd.env(
            "DATABASE_URL",
            format!("postgresql://{PASSWORD_USER}:{PASSWORD}@127.0.0.1:{closed}/postgres"),
        );
    });
    assert_not_connected(&run, "connection refused");

    // TLS failure: an unknown CA, and a wrong host name.
    let other = server.other_ca();
    let run = assert_secret_free("unknown CA", &|cmd| {
        cmd.env(
            "DATABASE_URL",
            url(
                PASSWORD,
                &format!(
                    "?sslmode=verify-full&sslrootcert={}",
                    other.to_str().unwrap()
                ),
            ),
        );
    });
    assert_not_connected(&run, "not signed by a trusted root");
    let root = server.root();
    let run = assert_secret_free("wrong host name", &|cmd| {
        cmd.env(
            "DATABASE_URL",
            url(
                PASSWORD,
                &format!(
                    "?sslmode=verify-full&sslrootcert={}",
                    root.to_str().unwrap()
                ),
            ),
        );
    });
    assert_not_connected(&run, "not valid for the host name");

    // The server refuses without TLS (pg_hba).
    let run = assert_secret_free("no TLS", &|cmd| {
        cmd.env("DATABASE_URL", url(PASSWORD, "?sslmode=disable"));
    });
    assert_not_connected(&run, "only accepts TLS");

    // A database that does not exist.
    let run = assert_secret_free("unknown database", &|cmd| {
        cmd.env(
            "DATABASE_URL",
            format!(
                "postgresql://{PASSWORD_USER}:{PASSWORD}@127.0.0.1:{port}/nowhere?sslmode=require"
            ),
        );
    });
    assert_not_connected(&run, "does not exist");

    // A server that accepts TCP and never answers: the connect timeout.
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let silent_port = silent.local_addr().unwrap().port();
    let run = assert_secret_free("timeout", &|cmd| {
        cmd.env(
            "DATABASE_URL",
            format!(
                "postgresql://{PASSWORD_USER}:{PASSWORD}@127.0.0.1:{silent_port}/postgres?sslmode=disable"
            ),
        )
        .args(["--connect-timeout", "1s"]);
    });
    assert_not_connected(&run, "connect timeout");
    drop(silent);

    // Malformed URLs: a usage error (2) that does not echo them.
    for bad in [
        format!("postgresql://{PASSWORD_USER}:{PASSWORD}@127.0.0.1:notaport/postgres"),
        format!("postgresql://{PASSWORD_USER}:{PASSWORD}@127.0.0.1/postgres?sslmode=verify-fll"),
        format!("host=127.0.0.1 password={PASSWORD} {PASSWORD}"),
        format!("host=127.0.0.1 password='{PASSWORD}"),
        format!("host=127.0.0.1 {PASSWORD}=x"),
    ] {
        let run = assert_secret_free("malformed URL", &|cmd| {
            cmd.env("DATABASE_URL", &bad);
        });
        run.assert_code(2);
        assert!(
            run.stderr.contains("malformed") || run.stderr.contains("sslmode"),
            "{}",
            run.stderr
        );
    }

    // And when it works, the password is not shown either.
    let home = tempfile::tempdir().unwrap();
    let run = doctor(bin(home.path()).env("DATABASE_URL", url(PASSWORD, "?sslmode=require")));
    assert_connected(&run);
    assert!(!run.stdout.contains(PASSWORD) && !run.stderr.contains(PASSWORD));
}
