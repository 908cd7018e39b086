//! Test support: one throwaway PostgreSQL per test binary (the same
//! `cluster` module the sandbox uses), a schema-loaded template, and a fresh
//! database per test cloned from it, so tests run in parallel and never
//! share state. `PUSHLEFT_TEST_DATABASE_URL` points all of it at an existing
//! server instead.

#![allow(dead_code)]

use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use postgres::{Client, NoTls};
use pushleft_controller::db::sql;
use pushleft_controller::sandbox::cluster::{Cluster, ClusterOptions};

/// The template with the reference schema only.
const SCHEMA_TEMPLATE: &str = "pushleft_tmpl_schema";
/// The template with the schema and the sandbox scenarios.
const SCENARIO_TEMPLATE: &str = "pushleft_tmpl_scenarios";

/// The server all tests of this binary share.
struct Server {
    /// conninfo (key=value) for a database name.
    base: String,
    prefix: String,
    /// When the scenarios were loaded into their template: a copy is
    /// shifted by the time since, so it shows the scenarios as described
    /// however long the suite has run (a live node's heartbeat 9 s ago does
    /// not turn stale halfway through a test that started two minutes in).
    scenarios_loaded: std::time::Instant,
}

/// Owned cluster, stopped by the atexit hook (statics are never dropped).
static CLUSTER: Mutex<Option<Cluster>> = Mutex::new(None);
static SERVER: OnceLock<Server> = OnceLock::new();
static COUNTER: AtomicUsize = AtomicUsize::new(0);

extern "C" fn stop_cluster_at_exit() {
    // The watchdog would clean up anyway once we are gone; stopping here
    // makes `cargo test` leave nothing behind by the time it returns.
    if let Ok(mut guard) = CLUSTER.lock()
        && let Some(cluster) = guard.take()
    {
        cluster.stop();
    }
}

fn server() -> &'static Server {
    SERVER.get_or_init(|| {
        let server = match std::env::var("PUSHLEFT_TEST_DATABASE_URL") {
            Ok(url) if !url.is_empty() => Server {
                base: url,
                prefix: format!("pushleft_t{}_", std::process::id()),
                scenarios_loaded: std::time::Instant::now(),
            },
            _ => {
                let cluster = Cluster::start(&ClusterOptions::default())
                    .expect("starting the throwaway PostgreSQL for the tests");
                let base = cluster.conninfo("postgres");
                *CLUSTER.lock().expect("cluster lock") = Some(cluster);
                // SAFETY: registering a plain extern "C" fn with atexit.
                unsafe {
                    libc::atexit(stop_cluster_at_exit);
                }
                Server {
                    base,
                    prefix: "t_".to_string(),
                    scenarios_loaded: std::time::Instant::now(),
                }
            }
        };
        create_templates(&server);
        Server {
            scenarios_loaded: std::time::Instant::now(),
            ..server
        }
    })
}

/// The shared throwaway cluster's socket directory and port, for a pooler
/// in front of it; None with `PUSHLEFT_TEST_DATABASE_URL`.
pub fn cluster_socket() -> Option<(std::path::PathBuf, u16)> {
    server();
    let guard = CLUSTER.lock().ok()?;
    let cluster = guard.as_ref()?;
    Some((cluster.socket_dir().to_path_buf(), cluster.port()))
}

/// conninfo for `dbname` on the shared server.
fn conninfo_for(server: &Server, dbname: &str) -> String {
    if server.base.starts_with("postgres://") || server.base.starts_with("postgresql://") {
        let (head, query) = match server.base.split_once('?') {
            Some((h, q)) => (h.to_string(), format!("?{q}")),
            None => (server.base.clone(), String::new()),
        };
        let scheme_end = head.find("://").map(|i| i + 3).unwrap_or(0);
        let authority_end = head[scheme_end..]
            .find('/')
            .map(|i| i + scheme_end)
            .unwrap_or(head.len());
        format!("{}/{dbname}{query}", &head[..authority_end])
    } else {
        format!("{} dbname={dbname}", server.base)
    }
}

fn admin(server: &Server) -> Client {
    Client::connect(&server.base, NoTls).expect("connecting to the test server")
}

fn create_templates(server: &Server) {
    let mut admin = admin(server);
    for (template, with_scenarios) in [(SCHEMA_TEMPLATE, false), (SCENARIO_TEMPLATE, true)] {
        let name = format!("{}{template}", server.prefix);
        admin
            .batch_execute(&format!("DROP DATABASE IF EXISTS {name}"))
            .expect("dropping an old template database");
        admin
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .expect("creating a template database");
        let mut client =
            Client::connect(&conninfo_for(server, &name), NoTls).expect("connecting to a template");
        client
            .batch_execute(sql::scripts::SCHEMA.text)
            .expect("loading sql/schema.sql");
        if with_scenarios {
            client
                .batch_execute(sql::sandbox::SCENARIOS.text)
                .expect("loading sql/sandbox/scenarios.sql");
        }
    }
}

/// A database of one test's own; dropped with the value.
pub struct TestDb {
    pub name: String,
    pub conninfo: String,
}

impl TestDb {
    /// A fresh database with the reference schema and no rows.
    pub fn empty() -> TestDb {
        TestDb::from_template(SCHEMA_TEMPLATE)
    }

    /// A fresh database with the schema and the sandbox scenarios.
    pub fn scenarios() -> TestDb {
        TestDb::from_template(SCENARIO_TEMPLATE)
    }

    fn from_template(template: &str) -> TestDb {
        let server = server();
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let name = format!("{}db{n}", server.prefix);
        admin(server)
            .batch_execute(&format!(
                "CREATE DATABASE {name} TEMPLATE {}{template}",
                server.prefix
            ))
            .expect("cloning the template database");
        let db = TestDb {
            conninfo: conninfo_for(server, &name),
            name,
        };
        if template == SCENARIO_TEMPLATE {
            db.shift_times(server.scenarios_loaded.elapsed());
        }
        db
    }

    /// Moves every timestamp of the copy `by` later (the protecting
    /// triggers silenced for it: this is the test's set-up, as the
    /// superuser), so its times relative to `now()` are the scenarios'.
    fn shift_times(&self, by: std::time::Duration) {
        let ms = by.as_millis();
        self.client()
            .batch_execute(&format!(
                "SET session_replication_role = replica;
                 DO $$
                 DECLARE c record;
                 BEGIN
                   FOR c IN SELECT table_name, column_name FROM information_schema.columns
                            WHERE table_schema = 'public'
                              AND data_type = 'timestamp with time zone'
                   LOOP
                     EXECUTE format('UPDATE public.%I SET %I = %I + interval ''{ms} milliseconds''',
                                    c.table_name, c.column_name, c.column_name);
                   END LOOP;
                 END $$;"
            ))
            .expect("shifting the scenarios' times to now");
    }

    pub fn client(&self) -> Client {
        Client::connect(&self.conninfo, NoTls).expect("connecting to the test database")
    }

    /// The real binary, pointed at this database, without a terminal.
    pub fn cmd(&self) -> Command {
        let mut cmd = bin();
        cmd.env("DATABASE_URL", &self.conninfo);
        cmd
    }

    /// Runs the binary with `args` and collects everything.
    pub fn run(&self, args: &[&str]) -> Run {
        Run::from(
            self.cmd()
                .args(args)
                .output()
                .expect("running pushleft-controller"),
        )
    }

    /// Another session holding deployment `id`'s row lock (`FOR UPDATE`)
    /// until the returned value is dropped or released.
    pub fn lock_deployment(&self, id: &str) -> RowLock {
        let mut client = self.client();
        client.batch_execute("BEGIN").expect("BEGIN");
        client
            .execute(
                "SELECT 1 FROM deployments WHERE id = $1::text::uuid FOR UPDATE",
                &[&id],
            )
            .expect("locking the deployment row");
        RowLock { client }
    }

    /// The rows of every table, as JSON text, to compare states before and
    /// after; read with the search path pinned, so that what an attacker
    /// planted in `public` does not run in the test's own reads either.
    pub fn dump(&self) -> String {
        let mut client = self.client();
        client
            .batch_execute("SET search_path = pg_catalog, pg_temp")
            .expect("pinning the dump's search path");
        let mut out = String::new();
        for table in [
            "deployments",
            "deployment_events",
            "jobs",
            "agent_job_results",
            "application_instances",
            "fleet_allocations",
            "ingress_analytics_routes",
            "fleet_nodes",
            "network_attachments",
            "source_snapshots",
            "release_artifacts",
        ] {
            let row = client
                .query_one(
                    &format!(
                        "SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(t) ORDER BY t::pg_catalog.text), '[]')::pg_catalog.text FROM public.{table} t"
                    ),
                    &[],
                )
                .expect("dumping a table");
            out.push_str(table);
            out.push_str(": ");
            out.push_str(&row.get::<_, String>(0));
            out.push('\n');
        }
        out
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let server = server();
        if let Ok(mut admin) = Client::connect(&server.base, NoTls) {
            let _ = admin.batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ));
        }
    }
}

/// A row lock held by another session (see [`TestDb::lock_deployment`]).
pub struct RowLock {
    client: Client,
}

impl RowLock {
    pub fn release(mut self) {
        self.client.batch_execute("ROLLBACK").expect("ROLLBACK");
    }
}

/// The binary under test, with a clean environment for connecting.
pub fn bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pushleft-controller"));
    for var in [
        "DATABASE_URL",
        "PGHOST",
        "PGPORT",
        "PGUSER",
        "PGDATABASE",
        "PGPASSWORD",
        "PGSSLMODE",
        "PGSERVICE",
        "NO_COLOR",
    ] {
        cmd.env_remove(var);
    }
    cmd.stdin(std::process::Stdio::null());
    cmd
}

/// What a run of the binary did.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl From<Output> for Run {
    fn from(output: Output) -> Run {
        Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }
}

impl Run {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|err| {
            panic!(
                "stdout is not JSON ({err}):\n{}\nstderr:\n{}",
                self.stdout, self.stderr
            )
        })
    }

    /// `doctor --output json`: the (status, detail) of the check `name`.
    pub fn doctor_check(&self, name: &str) -> (String, String) {
        let json = self.json();
        let check = json["checks"]
            .as_array()
            .expect("doctor's checks")
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("no check {name}: {}", self.stdout))
            .clone();
        (
            check["status"].as_str().expect("a status").to_string(),
            check["detail"].as_str().expect("a detail").to_string(),
        )
    }

    #[track_caller]
    pub fn assert_code(&self, code: i32) -> &Run {
        assert_eq!(
            self.code, code,
            "exit code\nstdout:\n{}\nstderr:\n{}",
            self.stdout, self.stderr
        );
        self
    }
}

/// The full id of a sandbox scenario deployment, by number (1..=9).
pub fn scenario(n: u8) -> String {
    format!("d000000{n}-0000-4000-8000-00000000000{n}")
}

/// A dead node stranding `n` deployments: each deploying for 2 hours with
/// no event, its instance active on edge-07 (offline for 3 hours).
pub fn strand_on_edge_07(db: &TestDb, n: u32) {
    db.client()
        .batch_execute(&format!(
            "INSERT INTO deployments (id, org_id, status, created_at, updated_at)
             SELECT ('e' || lpad(to_hex(g), 7, '0') || '-0000-4000-8000-000000000000')::uuid,
                    'c0000009-0000-4000-8000-000000000009', 'deploying',
                    now() - interval '2 hours', now() - interval '2 hours'
             FROM generate_series(1, {n}) g;
             INSERT INTO application_instances (id, deployment_id, role_name, status,
                                                active_node_id, generation)
             SELECT ('f' || lpad(to_hex(g), 7, '0') || '-0000-4000-8000-000000000000')::uuid,
                    ('e' || lpad(to_hex(g), 7, '0') || '-0000-4000-8000-000000000000')::uuid,
                    'web', 'running', 'a0000012-0000-4000-8000-000000000012', 1
             FROM generate_series(1, {n}) g;"
        ))
        .expect("stranding deployments on edge-07");
}

/// What a script run inside a sandbox wrote: the directory it got as `$1`.
pub struct SandboxScript {
    dir: tempfile::TempDir,
}

impl SandboxScript {
    /// The JSON document the script wrote to `name` in its directory.
    pub fn json(&self, name: &str) -> serde_json::Value {
        let path = self.dir.path().join(name);
        let bytes = std::fs::read(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
        serde_json::from_slice(&bytes).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
    }
}

/// Runs `script` (sh; `$1` is a fresh directory for what it writes) as
/// `sandbox FLAGS -- sh -c SCRIPT`, and asserts that it exited 0.
pub fn in_sandbox(flags: &[&str], script: &str) -> SandboxScript {
    let dir = tempfile::tempdir().expect("a directory for the script");
    let run = bin()
        .arg("sandbox")
        .args(flags)
        .args(["--", "sh", "-c", script, "sh"])
        .arg(dir.path())
        .output()
        .expect("running the sandbox");
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    SandboxScript { dir }
}

/// The scenarios with one NULL where the reference schema says NOT NULL
/// (`row` a condition), so that the `warnings` list has an element.
pub fn with_null(table: &str, column: &str, row: &str) -> TestDb {
    let (db, t) = (TestDb::scenarios(), table);
    let sql = format!(
        "ALTER TABLE {t} ALTER {column} DROP NOT NULL; ALTER TABLE {t} DISABLE TRIGGER USER;
         UPDATE {t} SET {column} = NULL WHERE {row}; ALTER TABLE {t} ENABLE TRIGGER USER"
    );
    db.client().batch_execute(&sql).unwrap();
    db
}
