//! The server all tests of this binary share: the throwaway cluster (or
//! `PUSHLEFT_TEST_DATABASE_URL`), stopped at exit, and its two template
//! databases.

use std::sync::{Mutex, OnceLock};

use postgres::{Client, NoTls};
use pushleft_controller::db::sql;
use pushleft_controller::sandbox::cluster::{Cluster, ClusterOptions};

/// The template with the reference schema only.
pub(super) const SCHEMA_TEMPLATE: &str = "pushleft_tmpl_schema";
/// The template with the schema and the sandbox scenarios.
pub(super) const SCENARIO_TEMPLATE: &str = "pushleft_tmpl_scenarios";

/// The server all tests of this binary share.
pub(super) struct Server {
    /// conninfo (key=value) for a database name.
    pub(super) base: String,
    pub(super) prefix: String,
    /// When the scenarios were loaded into their template: a copy is
    /// shifted by the time since, so it shows the scenarios as described
    /// however long the suite has run (a live node's heartbeat 9 s ago does
    /// not turn stale halfway through a test that started two minutes in).
    pub(super) scenarios_loaded: std::time::Instant,
}

/// Owned cluster, stopped by the atexit hook (statics are never dropped).
static CLUSTER: Mutex<Option<Cluster>> = Mutex::new(None);
static SERVER: OnceLock<Server> = OnceLock::new();

extern "C" fn stop_cluster_at_exit() {
    // The watchdog would clean up anyway once we are gone; stopping here
    // makes `cargo test` leave nothing behind by the time it returns.
    if let Ok(mut guard) = CLUSTER.lock()
        && let Some(cluster) = guard.take()
    {
        cluster.stop();
    }
}

pub(super) fn server() -> &'static Server {
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
pub(super) fn conninfo_for(server: &Server, dbname: &str) -> String {
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

pub(super) fn admin(server: &Server) -> Client {
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
