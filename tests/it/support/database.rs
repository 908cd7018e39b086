//! A database of one test's own, cloned from a template, and what a test
//! does with it: connect, run the binary on it, lock a row, dump it.

use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use postgres::{Client, NoTls};

use super::binary::{Run, bin};
use super::cluster::{SCENARIO_TEMPLATE, SCHEMA_TEMPLATE, admin, conninfo_for, server};

static COUNTER: AtomicUsize = AtomicUsize::new(0);

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
