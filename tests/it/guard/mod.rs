//! The guard (pushleft-controller-fail-safely(1), WHAT FAIL-SAFELY CHECKS BEFORE IT WRITES) holds against everything the database can do
//! behind its back. Each numbered case of the issue plants its hostile
//! object (through a separate, less-privileged role where that is the
//! realistic attacker) and checks the exit code, that every row of every
//! table — and the roles, triggers, sequences and tables themselves — is
//! unchanged, that nothing the attacker's code would create exists, and
//! that the message names the cause.

mod hostile;
mod property;
mod runs;
pub mod shape;

use crate::support::{Run, TestDb};

/// A role less privileged than the tool's own: it may create objects in
/// `public` (the default before PostgreSQL 15, and in every upgraded
/// database) and create triggers on the two tables fail-safely writes
/// (`GRANT TRIGGER`), nothing else. Its trigger functions run as whoever
/// fires them: the tool's user.
pub struct Attacker {
    pub name: String,
    conninfo: String,
}

impl Attacker {
    pub fn new(db: &TestDb) -> Attacker {
        let name = format!("mallory_{}", db.name);
        db.client()
            .batch_execute(&format!(
                "DROP ROLE IF EXISTS {name};
                 CREATE ROLE {name} NOLOGIN;
                 GRANT USAGE, CREATE ON SCHEMA public TO {name};
                 GRANT TRIGGER ON deployments, deployment_events TO {name};
                 GRANT SELECT ON ALL TABLES IN SCHEMA public TO {name};"
            ))
            .expect("creating the attacker's role");
        Attacker {
            name,
            conninfo: db.conninfo.clone(),
        }
    }

    /// Runs `sql` as the attacker (SET ROLE), e.g. to plant a trigger.
    pub fn plant(&self, sql: &str) {
        let mut client =
            postgres::Client::connect(&self.conninfo, postgres::NoTls).expect("connecting");
        client
            .batch_execute(&format!("SET ROLE {}; {sql}; RESET ROLE;", self.name))
            .unwrap_or_else(|e| panic!("the attacker plants {sql}: {e:?}"));
    }

    /// A table of the attacker's that anyone may write: where its code
    /// leaves a trace when it runs.
    pub fn with_trace_table(self) -> Attacker {
        self.plant(
            "CREATE TABLE public.pwned (note text); GRANT INSERT, SELECT ON public.pwned TO PUBLIC",
        );
        self
    }
}

impl Drop for Attacker {
    fn drop(&mut self) {
        if let Ok(mut client) = postgres::Client::connect(&self.conninfo, postgres::NoTls) {
            let _ = client.batch_execute(&format!(
                "DROP OWNED BY {name} CASCADE; DROP ROLE IF EXISTS {name};",
                name = self.name
            ));
        }
    }
}

/// What the database holds: every row of every table in every schema (in
/// a stable order), every sequence's position, and the objects an attacker
/// would create or change: roles, tables, triggers with their enabled
/// state. Rows of one deployment and of one event can be left out (the
/// expected change of a successful run).
pub fn full_dump(db: &TestDb, except: Option<(&str, &str)>) -> String {
    let mut client = db.client();
    // The dump must not run what an attacker planted in public either.
    client
        .batch_execute("SET search_path = pg_catalog, pg_temp")
        .unwrap();
    let mut out = String::new();
    let tables = client
        .query(
            "SELECT n.nspname::text, c.relname::text, c.relkind::text
             FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE c.relkind IN ('r', 'S')
               AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
             ORDER BY 1, 2",
            &[],
        )
        .expect("listing the tables");
    for row in tables {
        let (schema, name, kind): (String, String, String) = (row.get(0), row.get(1), row.get(2));
        let filter = match (name.as_str(), except) {
            (_, Some(_)) if kind == "S" => String::new(),
            ("deployments", Some((deployment, _))) => {
                format!(" WHERE t.id <> '{deployment}'::uuid")
            }
            (n, Some((_, event))) if n.starts_with("deployment_events") => {
                format!(" WHERE t.id <> '{event}'::uuid")
            }
            _ => String::new(),
        };
        let query = if kind == "S" {
            format!("SELECT format('%s %s', last_value, is_called) FROM \"{schema}\".\"{name}\"")
        } else {
            format!(
                "SELECT coalesce(jsonb_agg(to_jsonb(t) ORDER BY t::text), '[]')::text
                 FROM \"{schema}\".\"{name}\" t{filter}"
            )
        };
        let value: String = client
            .query_one(&query, &[])
            .unwrap_or_else(|e| panic!("dumping {schema}.{name}: {e:?}"))
            .get(0);
        out.push_str(&format!("{schema}.{name}: {value}\n"));
    }
    for (what, query) in [
        // Roles are the cluster's, and other tests create and drop their
        // own concurrently: the superusers are what an attacker wants.
        (
            "superusers",
            "SELECT string_agg(rolname, ',' ORDER BY rolname) FROM pg_roles WHERE rolsuper",
        ),
        (
            "triggers",
            "SELECT string_agg(tgrelid::regclass::text || '.' || tgname || ':' || tgenabled::text, ','
                               ORDER BY tgrelid::regclass::text, tgname)
             FROM pg_trigger WHERE NOT tgisinternal",
        ),
        (
            "relations",
            "SELECT string_agg(n.nspname || '.' || c.relname, ',' ORDER BY n.nspname, c.relname)
             FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')",
        ),
    ] {
        let value: Option<String> = client
            .query_one(query, &[])
            .unwrap_or_else(|e| panic!("dumping {what}: {e:?}"))
            .get(0);
        out.push_str(&format!("{what}: {}\n", value.unwrap_or_default()));
    }
    out
}

/// Runs the binary against `db` with extra environment variables.
pub fn run_with(db: &TestDb, env: &[(&str, &str)], args: &[&str]) -> Run {
    let mut cmd = db.cmd();
    for (name, value) in env {
        cmd.env(name, value);
    }
    Run::from(
        cmd.args(args)
            .output()
            .expect("running pushleft-controller"),
    )
}

/// Asserts a refusal that wrote nothing: the exit code, every word of
/// `says` in the message, and the database exactly as `before`.
#[track_caller]
pub fn assert_refused(db: &TestDb, run: &Run, code: i32, says: &[&str], before: &str) {
    run.assert_code(code);
    for words in says {
        assert!(
            run.stderr.contains(words),
            "the message names {words:?}:\n{}",
            run.stderr
        );
    }
    let after = full_dump(db, None);
    assert!(
        after == before,
        "the database changed:\n{}",
        dump_diff(before, &after)
    );
}

/// The lines of two dumps that differ, for a readable failure.
pub fn dump_diff(before: &str, after: &str) -> String {
    let old: Vec<&str> = before.lines().collect();
    let new: Vec<&str> = after.lines().collect();
    let mut out = String::new();
    for line in &old {
        if !new.contains(line) {
            out.push_str(&format!("- {}\n", truncate(line)));
        }
    }
    for line in &new {
        if !old.contains(line) {
            out.push_str(&format!("+ {}\n", truncate(line)));
        }
    }
    out
}

fn truncate(line: &str) -> String {
    if line.chars().count() > 600 {
        format!("{}…", line.chars().take(600).collect::<String>())
    } else {
        line.to_string()
    }
}

/// The id of the event written last for a deployment.
pub fn last_event(db: &TestDb, deployment: &str) -> (String, String, serde_json::Value) {
    let row = db
        .client()
        .query_one(
            "SELECT id::text, kind, payload FROM public.deployment_events
             WHERE deployment_id = $1::text::uuid ORDER BY sequence DESC LIMIT 1",
            &[&deployment],
        )
        .expect("the last event");
    (row.get(0), row.get(1), row.get(2))
}
