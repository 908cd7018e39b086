//! The TLS cases: every sslmode against each server, pg_hba's hostssl
//! and hostnossl entries, client certificates and root certificates; and
//! target_session_attrs against a hot standby.

use super::Case;
use super::cases::case;
use super::world::World;

/// Every sslmode against each server, without and with the right root.
pub fn tls_matrix(w: &World) -> Vec<Case> {
    let mut cases = Vec::new();
    let servers = [
        (&w.ca, "root.crt"),
        (&w.selfsigned, "self.crt"),
        (&w.plain, "root.crt"),
    ];
    for (server, root) in servers {
        for mode in [
            "disable",
            "allow",
            "prefer",
            "require",
            "verify-ca",
            "verify-full",
        ] {
            for with_root in [false, true] {
                let rootcert = if with_root {
                    format!(" sslrootcert={}", w.file(root))
                } else {
                    String::new()
                };
                cases.push(
                    case(format!(
                        "tls {} sslmode={mode}{}",
                        server.name,
                        if with_root { " with its root" } else { "" }
                    ))
                    .conn(format!(
                        "host=localhost hostaddr={} port={} user=postgres sslmode={mode}{rootcert}",
                        server.addr, server.port
                    )),
                );
            }
        }
    }
    cases
}

pub fn tls_special(w: &World) -> Vec<Case> {
    let pc = w.ca.port;
    let ps = w.selfsigned.port;
    let root = std::fs::read_to_string(w.file("root.crt")).unwrap();
    let cert = std::fs::read_to_string(w.file("client.crt")).unwrap();
    let key = std::fs::read_to_string(w.file("client.key")).unwrap();
    let ca = |user: &str, mode: &str| {
        format!("host=127.0.0.1 port={pc} user={user} dbname=postgres sslmode={mode}")
    };
    vec![
        case("hba nossl with prefer retries without TLS").conn(ca("nossl", "prefer")),
        case("hba nossl with require").conn(ca("nossl", "require")),
        case("hba nossl with allow").conn(ca("nossl", "allow")),
        case("hba sslonly with allow retries with TLS").conn(ca("sslonly", "allow")),
        case("hba sslonly with prefer").conn(ca("sslonly", "prefer")),
        case("hba sslonly with disable").conn(ca("sslonly", "disable")),
        case("client certificate by parameter").conn(format!(
            "{} sslcert={} sslkey={}",
            ca("certuser", "require"),
            w.file("client.crt"),
            w.file("client.key")
        )),
        case("client certificate missing").conn(ca("certuser", "require")),
        case("client certificate from ~/.postgresql")
            .conn(ca("certuser", "verify-ca"))
            .file(".postgresql/postgresql.crt", cert.clone(), 0o644)
            .file(".postgresql/postgresql.key", key.clone(), 0o600)
            .file(".postgresql/root.crt", root.clone(), 0o644),
        case("client certificate from PGSSLCERT and PGSSLKEY")
            .conn(ca("certuser", "require"))
            .env("PGSSLCERT", w.file("client.crt"))
            .env("PGSSLKEY", w.file("client.key")),
        case("client key readable by others")
            .conn(ca("certuser", "require"))
            .file(".postgresql/postgresql.crt", cert, 0o644)
            .file(".postgresql/postgresql.key", key, 0o644),
        case("home root.crt makes require verify the chain")
            .conn(ca("postgres", "require"))
            .file(".postgresql/root.crt", root.clone(), 0o644),
        case("home root.crt: require to the self-signed server fails")
            .conn(format!("host=127.0.0.2 port={ps} user=postgres sslmode=require"))
            .file(".postgresql/root.crt", root.clone(), 0o644),
        case("home root.crt: prefer to the self-signed server retries without TLS")
            .conn(format!("host=127.0.0.2 port={ps} user=postgres sslmode=prefer"))
            .file(".postgresql/root.crt", root.clone(), 0o644),
        case("home root.crt: verify-full by name")
            .conn(format!("host=localhost port={pc} user=postgres sslmode=verify-full"))
            .file(".postgresql/root.crt", root, 0o644),
        case("verify-full without any root certificate")
            .conn(format!("host=localhost port={pc} user=postgres sslmode=verify-full")),
        case("verify-ca with a missing root file").conn(format!(
            "host=localhost port={pc} user=postgres sslmode=verify-ca sslrootcert=/nonexistent/root.crt"
        )),
        case("require with a missing root file does not verify").conn(format!(
            "host=localhost port={pc} user=postgres sslmode=require sslrootcert=/nonexistent/root.crt"
        )),
        case("verify-full by IP address against a certificate naming localhost").conn(format!(
            "host=127.0.0.1 port={pc} user=postgres sslmode=verify-full sslrootcert={}",
            w.file("root.crt")
        )),
        case("the wrong root for the self-signed server").conn(format!(
            "host=localhost hostaddr=127.0.0.2 port={ps} user=postgres sslmode=verify-ca sslrootcert={}",
            w.file("root.crt")
        )),
        case("ssl_min_protocol_version=TLSv1.3")
            .conn(format!("{} ssl_min_protocol_version=TLSv1.3", ca("postgres", "require"))),
        case("sslsni=0").conn(format!("host=localhost port={pc} user=postgres sslmode=require sslsni=0")),
    ]
}

/// target_session_attrs with a real hot standby (of `plain`, on a socket).
pub fn standby(w: &World) -> Vec<Case> {
    let (sd, stp) = (w.standby.socket_dir(), w.standby.port);
    let (pd, pp) = (w.plain.socket_dir(), w.plain.port);
    vec![
        case("standby: primary skips it").conn(format!("host={sd},{pd} port={stp},{pp} user=postgres dbname=app target_session_attrs=primary")),
        case("standby: standby finds it").conn(format!("host={pd},{sd} port={pp},{stp} user=postgres dbname=app target_session_attrs=standby")),
        case("standby: prefer-standby finds it").conn(format!("host={pd},{sd} port={pp},{stp} user=postgres dbname=app target_session_attrs=prefer-standby")),
        case("standby: read-write skips it").conn(format!("host={sd},{pd} port={stp},{pp} user=postgres dbname=app target_session_attrs=read-write")),
        case("standby: read-only finds it").conn(format!("host={pd},{sd} port={pp},{stp} user=postgres dbname=app target_session_attrs=read-only")),
        case("standby: any takes the first").conn(format!("host={sd},{pd} port={stp},{pp} user=postgres dbname=app")),
        case("standby: PGTARGETSESSIONATTRS=standby")
            .env("PGHOST", format!("{pd},{sd}"))
            .env("PGPORT", format!("{pp},{stp}"))
            .env("PGUSER", "postgres")
            .env("PGTARGETSESSIONATTRS", "standby"),
    ]
}
