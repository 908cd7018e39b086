//! The throwaway servers the differential test runs against, each on a
//! loopback address of its own: `ca` (TLS, a certificate signed by a test
//! CA naming `localhost`; client certificates accepted), `self` (TLS, the
//! self-signed certificate of the PostgreSQL documentation, made with
//! `openssl req -x509`; every session read-only by default), `plain` (no
//! TLS); plus a listener that accepts and never answers, a port where
//! nothing listens and a socket directory where nothing listens.

use std::fs;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use postgres::{Client, NoTls};
use pushleft_controller::sandbox::cluster::{Cluster, ClusterOptions};
use pushleft_controller::testing;
use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair, KeyUsagePurpose,
};

/// The passwords of `pwuser` on each server, and of `colon`.
pub const PW_CA: &str = "Pw-Ca-7f3kQz";
pub const PW_SELF: &str = "Pw-Self-9q2mVw";
pub const PW_PLAIN: &str = "Pw-Plain-4x8zRt";
pub const PW_COLON: &str = "Pw:Colon-77Hx";
pub const PASSWORDS: [&str; 4] = [PW_CA, PW_SELF, PW_PLAIN, PW_COLON];

pub struct Server {
    pub name: &'static str,
    pub addr: &'static str,
    pub port: u16,
    pub cluster: Cluster,
}

impl Server {
    pub fn socket_dir(&self) -> String {
        self.cluster.socket_dir().display().to_string()
    }
}

pub struct World {
    pub ca: Server,
    pub selfsigned: Server,
    pub plain: Server,
    /// A hot standby of `plain`, on a socket only.
    pub standby: Server,
    /// Accepts and never answers.
    pub silent: (&'static str, u16),
    /// Nothing listens.
    pub refused: (&'static str, u16),
    /// A socket directory where nothing listens.
    pub empty_dir: tempfile::TempDir,
    /// root.crt (the CA), self.crt (the self-signed server certificate),
    /// client.crt / client.key (`certuser`, signed by the CA).
    pub files: tempfile::TempDir,
    _held: &'static Mutex<Vec<TcpStream>>,
}

impl World {
    pub fn file(&self, name: &str) -> String {
        self.files.path().join(name).display().to_string()
    }

    /// Which server a TCP address and port, or a socket file, belong to.
    pub fn server_at(&self, address: Option<&str>, port: u16, socket: Option<&str>) -> String {
        for s in [&self.ca, &self.selfsigned, &self.plain, &self.standby] {
            let by_socket =
                socket.is_some_and(|f| Path::new(f).parent() == Some(Path::new(&s.socket_dir())));
            if by_socket || (address == Some(s.addr) && port == s.port) {
                return s.name.to_string();
            }
        }
        format!("unknown {address:?}:{port} {socket:?}")
    }
}

fn free_port(addr: &str) -> u16 {
    TcpListener::bind((addr, 0))
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

fn ca() -> CertifiedIssuer<'static, KeyPair> {
    let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params
        .distinguished_name
        .push(DnType::CommonName, "libpq diff root");
    params.key_usages = vec![
        KeyUsagePurpose::KeyCertSign,
        KeyUsagePurpose::CrlSign,
        KeyUsagePurpose::DigitalSignature,
    ];
    CertifiedIssuer::self_signed(params, KeyPair::generate().unwrap()).unwrap()
}

/// A leaf certificate signed by `root`: (certificate PEM, key PEM).
fn leaf(root: &CertifiedIssuer<'static, KeyPair>, names: &[&str], cn: &str) -> (String, String) {
    let key = KeyPair::generate().unwrap();
    let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let mut params = CertificateParams::new(names).unwrap();
    params.distinguished_name.push(DnType::CommonName, cn);
    let cert = params.signed_by(&key, root).unwrap();
    (cert.pem(), key.serialize_pem())
}

fn write(dir: &Path, name: &str, text: &str, mode: u32) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    fs::write(&path, text).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(mode)).unwrap();
    path
}

fn start(name: &'static str, addr: &'static str, hba: &[&str], conf: &[&str]) -> Server {
    let port = free_port(addr);
    let mut extra_conf = vec![
        format!("listen_addresses = '{addr}'"),
        format!("cluster_name = '{name}'"),
    ];
    extra_conf.extend(conf.iter().map(|c| c.to_string()));
    let cluster = Cluster::start(&ClusterOptions {
        tcp_port: Some(port),
        extra_conf,
        // Clients on loopback come from 127.0.0.1, whatever address they dial.
        extra_hba: hba.iter().map(|l| l.replace("ADDR", "127.0.0.1")).collect(),
    })
    .unwrap_or_else(|err| panic!("starting the {name} server: {err:#}"));
    Server {
        name,
        addr,
        port,
        cluster,
    }
}

/// Installs a certificate and key on `server`, turns TLS on and creates
/// the test roles; SQL through the server's own socket.
fn set_up(server: &Server, tls: Option<(&str, &str, Option<&str>)>, password: &str) {
    let base = server.cluster.base_dir();
    // `self` makes every session read-only by default; not this one.
    let mut statements = vec!["SET default_transaction_read_only = off".to_string()];
    if let Some((cert, key, client_ca)) = tls {
        for (name, text, setting) in [
            ("server.crt", cert, "ssl_cert_file"),
            ("server.key", key, "ssl_key_file"),
        ]
        .into_iter()
        .chain(client_ca.map(|ca| ("client-ca.crt", ca, "ssl_ca_file")))
        {
            let path = write(base, name, text, 0o600);
            testing::hand_to_server(&server.cluster, &path, 0o600).unwrap();
            statements.push(format!("ALTER SYSTEM SET {setting} = '{}'", path.display()));
        }
        statements.push("ALTER SYSTEM SET ssl = on".into());
    }
    statements.push("SELECT pg_reload_conf()".into());
    for role in ["pwuser", "nossl", "sslonly", "certuser", "colon"] {
        let pw = match role {
            "pwuser" => password,
            "colon" => PW_COLON,
            _ => "unused-Aa1",
        };
        statements.push(format!("CREATE ROLE {role} LOGIN PASSWORD '{pw}'"));
    }
    // `app`, and the databases named like the password users (libpq's
    // default database is the user's name).
    for db in ["app", "pwuser", "colon"] {
        statements.push(format!("CREATE DATABASE {db}"));
    }
    if server.name == "self" {
        statements.push("CREATE DATABASE only_self".into());
    }
    let mut admin = Client::connect(&server.cluster.conninfo("postgres"), NoTls).unwrap();
    for statement in &statements {
        admin.batch_execute(statement).unwrap();
    }
    let want = if tls.is_some() { "on" } else { "off" };
    for _ in 0..100 {
        let mut client = Client::connect(&server.cluster.conninfo("postgres"), NoTls).unwrap();
        let ssl: String = client.query_one("SHOW ssl", &[]).unwrap().get(0);
        if ssl == want {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    panic!("the {} server did not turn ssl {want}", server.name);
}

/// The self-signed certificate as the PostgreSQL documentation makes it.
fn openssl_self_signed(dir: &Path) -> (String, String) {
    let status = Command::new("openssl")
        .args(["req", "-new", "-x509", "-days", "365", "-nodes", "-text"])
        .args([
            "-out",
            "self.crt",
            "-keyout",
            "self.key",
            "-subj",
            "/CN=localhost",
        ])
        .current_dir(dir)
        .output()
        .expect("running openssl");
    assert!(
        status.status.success(),
        "openssl: {}",
        String::from_utf8_lossy(&status.stderr)
    );
    (
        fs::read_to_string(dir.join("self.crt")).unwrap(),
        fs::read_to_string(dir.join("self.key")).unwrap(),
    )
}

pub fn start_world() -> World {
    let files = tempfile::tempdir().unwrap();
    let root = ca();
    write(files.path(), "root.crt", &root.pem(), 0o644);
    let (client_cert, client_key) = leaf(&root, &[], "certuser");
    write(files.path(), "client.crt", &client_cert, 0o644);
    write(files.path(), "client.key", &client_key, 0o600);
    let (ca_cert, ca_key) = leaf(&root, &["localhost"], "localhost");
    let (self_cert, self_key) = openssl_self_signed(files.path());

    let ca_server = start(
        "ca",
        "127.0.0.1",
        &[
            "local all pwuser scram-sha-256",
            "hostssl all pwuser ADDR/32 scram-sha-256",
            "hostnossl all pwuser ADDR/32 reject",
            "hostssl all certuser ADDR/32 cert",
            "hostnossl all nossl ADDR/32 trust",
            "hostssl all nossl ADDR/32 reject",
            "hostssl all sslonly ADDR/32 trust",
            "hostnossl all sslonly ADDR/32 reject",
        ],
        &[],
    );
    let self_server = start(
        "self",
        "127.0.0.2",
        &[
            "host all pwuser ADDR/32 scram-sha-256",
            "host all all ADDR/32 trust",
        ],
        &["default_transaction_read_only = on"],
    );
    let plain = start(
        "plain",
        "127.0.0.3",
        &[
            "local all pwuser scram-sha-256",
            "local all colon scram-sha-256",
            "host all pwuser ADDR/32 scram-sha-256",
            "host all colon ADDR/32 scram-sha-256",
            "host all all ADDR/32 trust",
        ],
        &[],
    );
    set_up(
        &ca_server,
        Some((&ca_cert, &ca_key, Some(&root.pem()))),
        PW_CA,
    );
    set_up(&self_server, Some((&self_cert, &self_key, None)), PW_SELF);
    set_up(&plain, None, PW_PLAIN);

    let standby = start_standby(&plain);

    let silent = TcpListener::bind(("127.0.0.4", 0)).unwrap();
    let silent_port = silent.local_addr().unwrap().port();
    let held: &'static Mutex<Vec<TcpStream>> = Box::leak(Box::new(Mutex::new(Vec::new())));
    std::thread::spawn(move || {
        for stream in silent.incoming().flatten() {
            held.lock().unwrap().push(stream);
        }
    });
    World {
        ca: ca_server,
        selfsigned: self_server,
        plain,
        standby,
        silent: ("127.0.0.4", silent_port),
        refused: ("127.0.0.5", free_port("127.0.0.5")),
        empty_dir: tempfile::tempdir().unwrap(),
        files,
        _held: held,
    }
}

/// A hot standby of `primary` (socket only), named `standby`: the name
/// is appended to the copied postgresql.conf, which needs a restart.
fn start_standby(primary: &Server) -> Server {
    let cluster = Cluster::start_standby_of(&primary.cluster).expect("starting the standby");
    let conf = cluster.data_dir().join("postgresql.conf");
    let mut text = fs::read_to_string(&conf).unwrap();
    text.push_str("\ncluster_name = 'standby'\n");
    fs::write(&conf, text).unwrap();
    cluster.stop_server().expect("stopping the standby");
    cluster.start_server().expect("restarting the standby");
    Server {
        name: "standby",
        addr: "none",
        port: cluster.port(),
        cluster,
    }
}
