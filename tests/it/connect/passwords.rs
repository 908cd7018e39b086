//! No password in any output: every way a connection can fail, with the
//! password in the URL, the environment or the password file.

use super::*;

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
