//! Through a real PgBouncer (Debian's default configuration, only what a
//! test instance must change: see `testing::pgbouncer`), in session and
//! transaction pooling, driving the real binary: every command gives what
//! it gives directly; the guard, replays and concurrent replays hold; code
//! planted behind the operator's `search_path` never runs; session state
//! another client of the pool left on a server connection changes nothing;
//! statement pooling is refused (exit 4) before anything is written.
//!
//! Each test starts its own PgBouncer in front of the shared cluster (a
//! fraction of a second), so pool settings such as `default_pool_size = 1`
//! are the test's own. With `PUSHLEFT_TEST_DATABASE_URL` there is no
//! cluster of ours to put it in front of: the tests say SKIPPED.

mod commands;
mod leftover;
mod planted;
mod replays;
mod setup;
mod shadowing;
mod statement;
mod timeouts;
mod triggers;

use std::collections::BTreeMap;
use std::sync::OnceLock;

use pushleft_controller::testing::pgbouncer::{Pgbouncer, PgbouncerOptions, PoolMode};
use regex::Regex;
use serde_json::Value;

use crate::support::{self, Run, TestDb};

/// The two modes every command must work in.
pub const MODES: [PoolMode; 2] = [PoolMode::Session, PoolMode::Transaction];

/// A PgBouncer of this test's own in front of the shared cluster, letting
/// in `postgres` and `users`; None (and SKIPPED on stderr) when the tests
/// run against `PUSHLEFT_TEST_DATABASE_URL`.
pub fn pooler(mode: PoolMode, settings: &[(&str, &str)], users: &[&str]) -> Option<Pgbouncer> {
    let Some((socket, port)) = support::cluster_socket() else {
        eprintln!(
            "SKIPPED: PUSHLEFT_TEST_DATABASE_URL is set; the pooler tests put PgBouncer in \
             front of the tests' own throwaway cluster"
        );
        return None;
    };
    let mut options = PgbouncerOptions::new(socket.display().to_string(), port, mode);
    for (key, value) in settings {
        options = options.set(key, value);
    }
    for user in users {
        options = options.user(user);
    }
    Some(Pgbouncer::start_with(&options).expect("starting PgBouncer"))
}

/// The binary with DATABASE_URL pointing at `db` through `pooler` as `user`.
pub fn run_via(
    pooler: &Pgbouncer,
    db: &TestDb,
    user: &str,
    env: &[(&str, &str)],
    args: &[&str],
) -> Run {
    let mut cmd = support::bin();
    cmd.env("DATABASE_URL", pooler.conninfo(&db.name, user));
    for (name, value) in env {
        cmd.env(name, value);
    }
    let run = Run::from(
        cmd.args(args)
            .output()
            .expect("running pushleft-controller"),
    );
    if run.code != 0 && std::env::var_os("PUSHLEFT_POOLER_LOG").is_some() {
        eprintln!("pgbouncer log:\n{}", pooler.log());
    }
    run
}

/// The binary against `db` directly, as `user`, with extra environment.
pub fn run_direct(db: &TestDb, user: &str, env: &[(&str, &str)], args: &[&str]) -> Run {
    let mut cmd = db.cmd();
    if user != "postgres" {
        cmd.env("DATABASE_URL", format!("{} user={user}", db.conninfo));
    }
    for (name, value) in env {
        cmd.env(name, value);
    }
    Run::from(
        cmd.args(args)
            .output()
            .expect("running pushleft-controller"),
    )
}

/// Where a run goes: directly, or through a PgBouncer.
#[derive(Clone, Copy)]
pub enum Via<'a> {
    Direct,
    Pooler(&'a Pgbouncer),
}

impl Via<'_> {
    pub fn run(&self, db: &TestDb, user: &str, env: &[(&str, &str)], args: &[&str]) -> Run {
        match self {
            Via::Direct => run_direct(db, user, env, args),
            Via::Pooler(p) => run_via(p, db, user, env, args),
        }
    }

    pub fn name(&self) -> String {
        match self {
            Via::Direct => "directly".to_string(),
            Via::Pooler(p) => format!("through PgBouncer ({} pooling)", p.pool_mode().as_str()),
        }
    }
}

/// A JSON document without what depends on the moment it was made: the
/// snapshot's time, ages and elapsed times, the times of events written
/// now, and durations or times inside messages.
pub fn normalized(value: &Value) -> Value {
    static TIMES: OnceLock<Regex> = OnceLock::new();
    let times = TIMES.get_or_init(|| {
        Regex::new(
            r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d(\.\d+)?)?Z?|\b\d+(ms|[smhd])(\d+(ms|[smhd]))*\b",
        )
        .unwrap()
    });
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| {
                    !(k.as_str() == "at"
                        || k.ends_with("_seconds")
                        || k.as_str() == "occurred_at"
                        || k.as_str() == "last_seen_at")
                })
                .map(|(k, v)| (k.clone(), normalized(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(normalized).collect()),
        Value::String(s) => Value::String(times.replace_all(s, "<t>").into_owned()),
        other => other.clone(),
    }
}

/// A table's text without times and ages (see [`normalized`]).
pub fn normalized_text(text: &str) -> String {
    normalized(&Value::String(text.to_string()))
        .as_str()
        .unwrap()
        .to_string()
}

/// `doctor -o json`: each check's status, by name.
pub fn doctor_statuses(run: &Run) -> BTreeMap<String, String> {
    run.json()["checks"]
        .as_array()
        .unwrap_or_else(|| panic!("doctor's checks: {}", run.stdout))
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_string(),
                c["status"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Every row of the tables `support`'s dump lists, read with the search
/// path pinned (`TestDb::dump` does): an attacker's functions in `public`
/// must not run in our own reads either.
pub fn pinned_dump(db: &TestDb) -> String {
    db.dump()
}

/// The dump without the rows of `deployments` and `deployment_events`.
pub fn without_written_tables(dump: &str) -> String {
    dump.lines()
        .filter(|l| !l.starts_with("deployments:") && !l.starts_with("deployment_events:"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The break-glass events of a deployment: (kind, reason, idempotency key).
pub fn operator_events(db: &TestDb, id: &str) -> Vec<(String, String, String)> {
    let mut client = db.client();
    client
        .batch_execute("SET search_path = pg_catalog, pg_temp")
        .unwrap();
    client
        .query(
            "SELECT kind, payload OPERATOR(pg_catalog.->>) 'reason',
                    payload OPERATOR(pg_catalog.->>) 'idempotency_key'
             FROM public.deployment_events
             WHERE deployment_id OPERATOR(pg_catalog.=) $1::pg_catalog.text::pg_catalog.uuid
               AND kind OPERATOR(pg_catalog.=) ANY (ARRAY['operator_failed', 'teardown_requested'])
             ORDER BY sequence",
            &[&id],
        )
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect()
}

/// The status of a deployment, read with the search path pinned.
pub fn status_of(db: &TestDb, id: &str) -> String {
    let mut client = db.client();
    client
        .batch_execute("SET search_path = pg_catalog, pg_temp")
        .unwrap();
    client
        .query_one(
            "SELECT status::pg_catalog.text FROM public.deployments
             WHERE id OPERATOR(pg_catalog.=) $1::pg_catalog.text::pg_catalog.uuid",
            &[&id],
        )
        .unwrap()
        .get(0)
}

/// `--reason` of the pooler tests.
pub const REASON: &str = "INC-42 pooler test";
