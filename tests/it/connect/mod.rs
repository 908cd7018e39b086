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

mod not_postgres;
mod passwords;
mod pgpass;
mod precedence;
mod tls;

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

fn password_env(cmd: &mut Command, server: &TlsServer) {
    cmd.env("PGHOST", "127.0.0.1")
        .env("PGPORT", server.port.to_string())
        .env("PGUSER", PASSWORD_USER)
        .env("PGDATABASE", "postgres")
        .env("PGSSLMODE", "require");
}
