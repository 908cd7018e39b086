//! The SQL registry: every statement the tool runs is a file under `sql/`,
//! embedded here and nowhere else. The modules mirror the `sql/` tree, so
//! `sql::diagnose::JOBS` is `sql/diagnose/04_jobs.sql`. [`ALL`] lists every
//! one of them: the EXPLAIN check walks it, and a test fails when a file
//! under `sql/` is missing from it.

/// One file under `sql/`.
#[derive(Debug, Clone, Copy)]
pub struct Statement {
    /// The path under `sql/`, e.g. `diagnose/04_jobs.sql`.
    pub path: &'static str,
    pub text: &'static str,
    pub kind: Kind,
    /// The type of each parameter, `$1` first: what the EXPLAIN check binds.
    pub params: &'static [Param],
}

/// How a file is run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// One statement with parameters, run against the control plane's
    /// database: held to the EXPLAIN check.
    Query,
    /// DDL, session or transaction control, or several statements, run
    /// with `batch_execute`: nothing to EXPLAIN.
    Script,
    /// A query that only ever runs against the sandbox's own database (it
    /// reads the sandbox's scenario table or calls the reference control
    /// plane): not held to the EXPLAIN check of production databases.
    Sandbox,
}

/// The type of a parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Param {
    Uuid,
    UuidArray,
    Text,
    OptText,
    Bool,
    OptBool,
    Int4,
    Int8,
    OptInt8,
}

/// Declares one file of the registry: `file!(KIND "path" [params])`.
macro_rules! file {
    ($kind:ident $path:literal [$($param:ident),*]) => {
        Statement {
            path: $path,
            text: include_str!(concat!("../../sql/", $path)),
            kind: Kind::$kind,
            params: &[$(Param::$param),*],
        }
    };
}

/// The reference schema, the reference control plane and the benchmark's
/// data generator: whole scripts, loaded with `batch_execute`.
pub mod scripts {
    use super::*;
    /// The reference schema of the control plane's database.
    pub const SCHEMA: Statement = file!(Script "schema.sql" []);
    /// The reference control plane (scheduler, gateway, agents, teardown
    /// driver, reaper) as functions in schema `control_plane`: loaded by the
    /// sandbox and the tests, never part of the reference schema.
    pub const CONTROL_PLANE: Statement = file!(Script "control_plane.sql" []);
    /// The production-size data generator (`SELECT * FROM bench.generate(scale)`).
    pub const BENCH_GENERATE: Statement = file!(Script "bench/generate.sql" []);
}

/// A deployment id or unique prefix, as a UUID range ($1 low, $2 high).
pub const RESOLVE_DEPLOYMENT: Statement = file!(Query "resolve_deployment.sql" [Uuid, Uuid]);

/// Session-level reads and `SET LOCAL`s, with values as bound parameters.
pub mod session {
    use super::*;
    pub const NOW: Statement = file!(Query "session/now.sql" []);
    pub const IN_RECOVERY: Statement = file!(Query "session/in_recovery.sql" []);
    pub const PRIMARY_CONNINFO: Statement = file!(Query "session/primary_conninfo.sql" []);
    pub const SET_LOCAL_LOCK_TIMEOUT: Statement =
        file!(Query "session/set_local_lock_timeout.sql" [Text]);
    pub const SET_LOCAL_ROLE: Statement = file!(Query "session/set_local_role.sql" [Text]);
}

/// The runbook's Diagnosis, one file per section (all take the deployment id).
pub mod diagnose {
    use super::*;
    pub const SERVER: Statement = file!(Query "diagnose/00_server.sql" []);
    pub const DEPLOYMENT: Statement = file!(Query "diagnose/01_deployment.sql" [Uuid]);
    /// $2: keep only the last N events (NULL: all).
    pub const EVENTS: Statement = file!(Query "diagnose/02_events.sql" [Uuid, OptInt8]);
    pub const EVENTS_TOTAL: Statement = file!(Query "diagnose/03_events_total.sql" [Uuid]);
    pub const JOBS: Statement = file!(Query "diagnose/04_jobs.sql" [Uuid]);
    pub const RESULTS: Statement = file!(Query "diagnose/05_results.sql" [Uuid]);
    pub const SOURCE_SNAPSHOTS: Statement = file!(Query "diagnose/06_source_snapshots.sql" [Uuid]);
    pub const RELEASE_ARTIFACTS: Statement =
        file!(Query "diagnose/07_release_artifacts.sql" [Uuid]);
    pub const INSTANCES: Statement = file!(Query "diagnose/08_instances.sql" [Uuid]);
    pub const ALLOCATIONS: Statement = file!(Query "diagnose/09_allocations.sql" [Uuid]);
    pub const ROUTES: Statement = file!(Query "diagnose/10_routes.sql" [Uuid]);
    pub const NETWORK_ATTACHMENTS: Statement =
        file!(Query "diagnose/11_network_attachments.sql" [Uuid]);
    pub const NODES: Statement = file!(Query "diagnose/12_nodes.sql" [Uuid]);
}

/// The guarded transition of `fail-safely` (SPEC steps 1-6).
pub mod fail_safely {
    use super::*;
    pub const GUARD_COUNTERS: Statement = file!(Query "fail_safely/00_guard_counters.sql" []);
    pub const LOCK_DEPLOYMENT: Statement = file!(Query "fail_safely/01_lock_deployment.sql" [Uuid]);
    pub const LOCK_JOBS: Statement = file!(Query "fail_safely/02_lock_jobs.sql" [Uuid]);
    pub const LOCK_INSTANCES: Statement = file!(Query "fail_safely/03_lock_instances.sql" [Uuid]);
    pub const FIND_IDEMPOTENCY_KEY: Statement =
        file!(Query "fail_safely/04_find_idempotency_key.sql" [Text]);
    pub const MARK_FAILED: Statement = file!(Query "fail_safely/10_mark_failed.sql" [Uuid]);
    pub const REQUEST_TEARDOWN: Statement =
        file!(Query "fail_safely/11_request_teardown.sql" [Uuid]);
    /// $1 deployment, $2 kind, $3 reason, $4 operator flag, $5 key,
    /// $6 previous status, $7 OS user, $8 host, $9 tool.
    pub const APPEND_EVENT: Statement = file!(Query "fail_safely/20_append_event.sql"
        [Uuid, Text, Text, OptBool, Text, Text, Text, Text, Text]);
}

/// `fleet list`.
pub mod fleet {
    use super::*;
    /// $1 pool, $2 status (NULL: all), $3 only stale, $4 stale after (ms).
    pub const LIST: Statement = file!(Query "fleet/list.sql" [OptText, OptText, Bool, Int8]);
}

/// `stuck`: the two alerts.
pub mod stuck {
    use super::*;
    /// $1 no event for this long (ms).
    pub const DEPLOYMENTS: Statement = file!(Query "stuck/deployments.sql" [Int8]);
    /// $1 expired longer ago than this (ms).
    pub const LEASES: Statement = file!(Query "stuck/leases.sql" [Int8]);
}

/// The tables, columns, key and triggers the tool relies on (catalogs only).
pub mod schema_check {
    use super::*;
    pub const TABLE_OID: Statement = file!(Query "schema_check/table_oid.sql" [Text]);
    pub const COLUMNS: Statement = file!(Query "schema_check/columns.sql" [Int8]);
    pub const EVENTS_UNIQUE_KEY: Statement = file!(Query "schema_check/events_unique_key.sql" []);
    pub const BEFORE_TRIGGERS: Statement =
        file!(Query "schema_check/before_triggers.sql" [Text, Int4]);
}

/// Connecting: `target_session_attrs`.
pub mod connect {
    use super::*;
    pub const SESSION_ATTRS: Statement = file!(Query "connect/session_attrs.sql" []);
}

/// `doctor`'s checks (catalogs and settings only).
pub mod doctor {
    use super::*;
    pub const TLS: Statement = file!(Query "doctor/tls.sql" []);
    pub const SERVER_VERSION: Statement = file!(Query "doctor/server_version.sql" []);
    pub const RECOVERY: Statement = file!(Query "doctor/recovery.sql" []);
    pub const IDENTITY: Statement = file!(Query "doctor/identity.sql" []);
    pub const SAVEPOINT: Statement = file!(Script "doctor/savepoint.sql" []);
    pub const RELEASE_ROLE: Statement = file!(Script "doctor/release_role.sql" []);
    pub const ROLLBACK_ROLE: Statement = file!(Script "doctor/rollback_role.sql" []);
    pub const TABLE_READABLE: Statement = file!(Query "doctor/table_readable.sql" [Text]);
    pub const WRITE_PRIVILEGES: Statement = file!(Query "doctor/write_privileges.sql" [Text]);
    pub const SETTING: Statement = file!(Query "doctor/setting.sql" [Text]);
}

/// The sandbox: its database, scenarios and simulated control plane.
pub mod sandbox {
    use super::*;
    pub const CREATE_DATABASE: Statement = file!(Script "sandbox/create_database.sql" []);
    /// The incident scenarios (after the schema).
    pub const SCENARIOS: Statement = file!(Script "sandbox/scenarios.sql" []);
    pub const LIST_SCENARIOS: Statement = file!(Sandbox "sandbox/list_scenarios.sql" []);
    pub const SIMULATION_SESSION: Statement = file!(Script "sandbox/simulation_session.sql" []);
    pub const LIVE_NODES: Statement = file!(Sandbox "sandbox/live_nodes.sql" []);
    pub const HEARTBEAT: Statement = file!(Sandbox "sandbox/heartbeat.sql" [UuidArray]);
    pub const TICK: Statement = file!(Sandbox "sandbox/tick.sql" []);
}

/// Every file of the registry.
pub const ALL: &[&Statement] = &[
    &scripts::SCHEMA,
    &scripts::CONTROL_PLANE,
    &scripts::BENCH_GENERATE,
    &RESOLVE_DEPLOYMENT,
    &session::NOW,
    &session::IN_RECOVERY,
    &session::PRIMARY_CONNINFO,
    &session::SET_LOCAL_LOCK_TIMEOUT,
    &session::SET_LOCAL_ROLE,
    &diagnose::SERVER,
    &diagnose::DEPLOYMENT,
    &diagnose::EVENTS,
    &diagnose::EVENTS_TOTAL,
    &diagnose::JOBS,
    &diagnose::RESULTS,
    &diagnose::SOURCE_SNAPSHOTS,
    &diagnose::RELEASE_ARTIFACTS,
    &diagnose::INSTANCES,
    &diagnose::ALLOCATIONS,
    &diagnose::ROUTES,
    &diagnose::NETWORK_ATTACHMENTS,
    &diagnose::NODES,
    &fail_safely::GUARD_COUNTERS,
    &fail_safely::LOCK_DEPLOYMENT,
    &fail_safely::LOCK_JOBS,
    &fail_safely::LOCK_INSTANCES,
    &fail_safely::FIND_IDEMPOTENCY_KEY,
    &fail_safely::MARK_FAILED,
    &fail_safely::REQUEST_TEARDOWN,
    &fail_safely::APPEND_EVENT,
    &fleet::LIST,
    &stuck::DEPLOYMENTS,
    &stuck::LEASES,
    &schema_check::TABLE_OID,
    &schema_check::COLUMNS,
    &schema_check::EVENTS_UNIQUE_KEY,
    &schema_check::BEFORE_TRIGGERS,
    &connect::SESSION_ATTRS,
    &doctor::TLS,
    &doctor::SERVER_VERSION,
    &doctor::RECOVERY,
    &doctor::IDENTITY,
    &doctor::SAVEPOINT,
    &doctor::RELEASE_ROLE,
    &doctor::ROLLBACK_ROLE,
    &doctor::TABLE_READABLE,
    &doctor::WRITE_PRIVILEGES,
    &doctor::SETTING,
    &sandbox::CREATE_DATABASE,
    &sandbox::SCENARIOS,
    &sandbox::LIST_SCENARIOS,
    &sandbox::SIMULATION_SESSION,
    &sandbox::LIVE_NODES,
    &sandbox::HEARTBEAT,
    &sandbox::TICK,
];

/// Files under `sql/` that the tool itself never runs.
pub const NOT_RUN: &[(&str, &str)] = &[(
    "runbook/diagnose.sql",
    "the runbook's queries as an operator types them into psql: the benchmark's baseline",
)];

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::path::Path;

    use super::*;

    fn sql_files(dir: &Path, root: &Path, out: &mut BTreeSet<String>) {
        let entries = std::fs::read_dir(dir).expect("reading sql/");
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                sql_files(&path, root, out);
            } else if path.extension().is_some_and(|e| e == "sql") {
                let relative = path.strip_prefix(root).expect("under sql/");
                out.insert(relative.to_string_lossy().into_owned());
            }
        }
    }

    #[test]
    fn the_registry_is_exactly_the_sql_tree() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("sql");
        let mut on_disk = BTreeSet::new();
        sql_files(&root, &root, &mut on_disk);
        let mut registered: BTreeSet<String> = ALL.iter().map(|s| s.path.to_string()).collect();
        assert_eq!(registered.len(), ALL.len(), "a file is registered twice");
        registered.extend(NOT_RUN.iter().map(|(path, _)| path.to_string()));
        assert_eq!(on_disk, registered, "sql/ and db::sql::ALL disagree");
    }

    #[test]
    fn parameters_match_the_placeholders() {
        for statement in ALL {
            let highest = (1..=20)
                .rev()
                .find(|n| statement.text.contains(&format!("${n}")))
                .unwrap_or(0);
            let expected = if statement.kind == Kind::Script {
                0
            } else {
                highest
            };
            assert_eq!(
                statement.params.len(),
                expected,
                "{}: {} params declared, ${} used",
                statement.path,
                statement.params.len(),
                highest
            );
        }
    }
}
