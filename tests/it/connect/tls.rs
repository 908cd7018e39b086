//! The TLS modes against a real TLS-enabled server: what verify-full,
//! verify-ca, require, prefer and disable check, and a missing root
//! certificate named.

use super::*;

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
