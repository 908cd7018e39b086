//! A wrong password fails clearly, and no password is ever printed.

use super::*;

/// A server of our own that asks for a password (scram) on its socket.
#[test]
fn a_wrong_password_fails_clearly_and_is_never_printed() {
    let user = "pw_operator";
    let right = "right-Horse-battery-7";
    let cluster = Cluster::start(&ClusterOptions {
        extra_hba: vec![format!("local all {user} scram-sha-256")],
        ..ClusterOptions::default()
    })
    .expect("starting a PostgreSQL that asks for passwords");
    let mut admin =
        postgres::Client::connect(&cluster.conninfo("postgres"), postgres::NoTls).unwrap();
    admin
        .batch_execute(&format!(
            "CREATE ROLE {user} LOGIN SUPERUSER PASSWORD '{right}'"
        ))
        .unwrap();
    admin
        .batch_execute(&format!("CREATE DATABASE control OWNER {user}"))
        .unwrap();
    let mut control =
        postgres::Client::connect(&cluster.conninfo("control"), postgres::NoTls).unwrap();
    control.batch_execute(sql::scripts::SCHEMA.text).unwrap();
    control.batch_execute(sql::sandbox::SCENARIOS.text).unwrap();
    let url = |password: &str| {
        format!(
            "postgresql://{user}:{password}@/control?host={}&port={}",
            cluster.socket_dir().display(),
            cluster.port()
        )
    };

    // The right password works, so the failures below are about the password.
    let ok = Run::from(
        bin()
            .env("DATABASE_URL", url(right))
            .args(["diagnose", "d0000001", "-o", "json"])
            .output()
            .unwrap(),
    );
    ok.assert_code(0);
    assert_clean("right password", &ok, &[right]);

    let before: String = control
        .query_one(
            "SELECT jsonb_agg(d ORDER BY id)::text FROM deployments d",
            &[],
        )
        .unwrap()
        .get(0);
    for (command, args) in every_command() {
        for (how, in_url) in [("in the URL", true), ("in PGPASSWORD", false)] {
            let mut cmd = bin();
            cmd.args(&args).env("RUST_BACKTRACE", "1");
            if in_url {
                cmd.env("DATABASE_URL", url(SECRET));
            } else {
                cmd.env(
                    "DATABASE_URL",
                    format!(
                        "postgresql://{user}@/control?host={}&port={}",
                        cluster.socket_dir().display(),
                        cluster.port()
                    ),
                )
                .env("PGPASSWORD", SECRET);
            }
            let run = Run::from(cmd.output().unwrap());
            let label = format!("{command}, wrong password {how}");
            assert_clean(&label, &run, &[SECRET, right]);
            let expected = if command == "doctor" { 4 } else { 1 };
            assert_eq!(run.code, expected, "{label}: {}", run.stderr);
            // doctor reports its checks on stdout.
            let text = format!("{}{}", run.stdout, run.stderr);
            assert!(
                text.contains("password authentication failed")
                    && text.contains("check the password"),
                "{label}: {text}"
            );
            if !in_url {
                assert!(
                    text.contains("PGPASSWORD"),
                    "{label}: names the source: {text}"
                );
            }
        }
    }
    let after: String = control
        .query_one(
            "SELECT jsonb_agg(d ORDER BY id)::text FROM deployments d",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(after, before);
    drop(control);
    drop(admin);
    cluster.stop();
}
