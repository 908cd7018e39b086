//! Where each parameter comes from: the flag over DATABASE_URL over the
//! PG* variables, which fill in what the URL leaves out (a socket PGHOST
//! too), and the session's timeouts from the flags.

use super::*;

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
