//! The SQL registry: every statement the tool runs is a file under `sql/`,
//! embedded here and nowhere else. The modules mirror the `sql/` tree, so
//! `sql::diagnose::SNAPSHOT` is `sql/diagnose/snapshot.sql`. [`ALL`] lists every
//! one of them: the EXPLAIN check walks it, and a test fails when a file
//! under `sql/` is missing from it.
//!
//! # The schema
//!
//! Every session runs with `search_path = pg_catalog, pg_temp` (nothing a
//! database user created can shadow a function or an operator we call), so
//! every statement names the control plane's tables with their schema. The
//! schema is configurable (`--schema` / `PUSHLEFT_SCHEMA`, default
//! `public`), and an identifier cannot be a bound parameter, so the files
//! spell it as psql's quoted-identifier variable, `:"schema".deployments`,
//! and [`Statement::sql`] replaces that placeholder with the validated,
//! quoted name of a [`Schema`]: SQL stays in files, values stay bound
//! parameters, and the one identifier that is spliced in is quoted by the
//! one function that does it. A file run without rendering is a syntax
//! error at the server (`:` cannot start an identifier), never a statement
//! against whatever the search path finds. The whole-file scripts (the
//! reference schema, the scenarios, the benchmark's data) stay plain SQL
//! that `psql -f` loads into the schema its search path names.

mod conn;
pub use conn::Conn;

/// How a file names the schema of the control plane's tables: psql's
/// quoted-identifier variable, so `psql -v schema=public -f FILE` renders
/// it the same way.
pub const SCHEMA_PLACEHOLDER: &str = ":\"schema\"";

/// How a file names the schema as a value (a string literal): psql's
/// quoted-literal variable, rendered by [`Schema::literal`].
pub const SCHEMA_LITERAL_PLACEHOLDER: &str = ":'schema'";

/// Where a one-statement read includes [`session::READ_SETTINGS`] at the
/// head of its select list (`SELECT :read_settings, …`): psql's variable
/// syntax again, so `psql -v read_settings=…` renders it the same way.
pub const READ_SETTINGS_PLACEHOLDER: &str = ":read_settings";

/// The schema that holds the control plane's tables, validated: a name as
/// the catalog spells it (case matters, no quotes needed), 1 to 63 bytes
/// (a longer one would be silently truncated by the server and name
/// another schema), no control characters, not a system schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schema(String);

impl Schema {
    /// The default, as in the reference schema.
    pub const DEFAULT: &'static str = "public";

    /// Validates a schema name (for `--schema` / `PUSHLEFT_SCHEMA`).
    pub fn parse(name: &str) -> Result<Schema, String> {
        if name.is_empty() {
            return Err("the schema name is empty; the default is public".to_string());
        }
        if name.len() > 63 {
            return Err(format!(
                "the schema name is {} bytes long; PostgreSQL names are at most 63 bytes",
                name.len()
            ));
        }
        if name.chars().any(char::is_control) {
            return Err("the schema name contains a control character".to_string());
        }
        if name.starts_with("pg_") || name == "information_schema" {
            return Err(format!(
                "`{name}` is a system schema; name the schema that holds the control plane's tables"
            ));
        }
        Ok(Schema(name.to_string()))
    }

    /// `public`.
    pub fn public() -> Schema {
        Schema(Schema::DEFAULT.to_string())
    }

    /// The name as the catalog spells it (for bound parameters such as
    /// `pg_namespace.nspname = $1`).
    pub fn name(&self) -> &str {
        &self.0
    }

    /// The name as an SQL string literal: single-quoted, quotes doubled
    /// (every transaction pins standard_conforming_strings, so a backslash
    /// is only a backslash).
    pub fn literal(&self) -> String {
        format!("'{}'", self.0.replace('\'', "''"))
    }

    /// The name as an SQL identifier: always double-quoted, quotes doubled.
    pub fn quoted(&self) -> String {
        format!("\"{}\"", self.0.replace('"', "\"\""))
    }
}

impl Default for Schema {
    fn default() -> Schema {
        Schema::public()
    }
}

impl std::fmt::Display for Schema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// One file under `sql/`.
#[derive(Debug, Clone, Copy)]
pub struct Statement {
    /// The path under `sql/`, e.g. `diagnose/snapshot.sql`.
    pub path: &'static str,
    /// The file as written. Statements that name tables hold
    /// [`SCHEMA_PLACEHOLDER`]: run [`Statement::sql`], never this.
    pub text: &'static str,
    pub kind: Kind,
    /// The type of each parameter, `$1` first: what the EXPLAIN check binds.
    pub params: &'static [Param],
}

impl Statement {
    /// The statement to run against the control plane's tables in
    /// `schema`: the placeholder replaced by the quoted schema name.
    pub fn sql(&self, schema: &Schema) -> String {
        let text = if self.text.contains(READ_SETTINGS_PLACEHOLDER) {
            self.text
                .replace(READ_SETTINGS_PLACEHOLDER, &session::READ_SETTINGS.code())
        } else {
            self.text.to_string()
        };
        text.replace(SCHEMA_PLACEHOLDER, &schema.quoted())
            .replace(SCHEMA_LITERAL_PLACEHOLDER, &schema.literal())
    }

    /// The file without its comment lines (a fragment is spliced into the
    /// middle of a line, where a comment would swallow the rest).
    fn code(&self) -> String {
        self.text
            .lines()
            .filter(|line| !line.trim_start().starts_with("--"))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Runs the statement in ONE round trip: parse, bind and execute go
    /// out together with the declared parameter types, where a prepared
    /// query would first ask the server for them. (Every round trip is a
    /// network latency an operator on a far bastion host waits for.)
    pub fn query(
        &self,
        client: &mut impl Conn,
        schema: &Schema,
        values: &[&(dyn postgres::types::ToSql + Sync)],
    ) -> Result<Vec<postgres::Row>, postgres::Error> {
        self.query_text(client, &self.sql(schema), values)
    }

    /// [`Statement::query`] for a statement that names no table of the
    /// control plane (the catalogs, the session's settings).
    pub fn query_catalog(
        &self,
        client: &mut impl Conn,
        values: &[&(dyn postgres::types::ToSql + Sync)],
    ) -> Result<Vec<postgres::Row>, postgres::Error> {
        debug_assert!(
            !self.text.contains(SCHEMA_PLACEHOLDER),
            "sql/{} names tables: use query",
            self.path
        );
        self.query_text(client, self.text, values)
    }

    /// The first row of [`Statement::query`]; none is an error.
    pub fn query_one(
        &self,
        client: &mut impl Conn,
        schema: &Schema,
        values: &[&(dyn postgres::types::ToSql + Sync)],
    ) -> anyhow::Result<postgres::Row> {
        self.first_row(self.query(client, schema, values)?)
    }

    /// The first row of [`Statement::query_catalog`]; none is an error.
    pub fn query_catalog_one(
        &self,
        client: &mut impl Conn,
        values: &[&(dyn postgres::types::ToSql + Sync)],
    ) -> anyhow::Result<postgres::Row> {
        self.first_row(self.query_catalog(client, values)?)
    }

    fn first_row(&self, rows: Vec<postgres::Row>) -> anyhow::Result<postgres::Row> {
        rows.into_iter()
            .next()
            .ok_or_else(|| anyhow::anyhow!("sql/{} returned no row", self.path))
    }

    /// Streams the rows of [`Statement::query`] as they arrive (one round
    /// trip too): for results too large to hold twice.
    pub fn query_stream<'c>(
        &self,
        client: &'c mut impl Conn,
        schema: &Schema,
        values: &[&(dyn postgres::types::ToSql + Sync)],
    ) -> Result<postgres::RowIter<'c>, postgres::Error> {
        client
            .client()
            .query_typed_raw(&self.sql(schema), self.typed(values))
    }

    /// Each value with its declared type, as the statement is sent.
    pub fn typed<'v>(
        &self,
        values: &[&'v (dyn postgres::types::ToSql + Sync)],
    ) -> Vec<(
        &'v (dyn postgres::types::ToSql + Sync),
        postgres::types::Type,
    )> {
        assert_eq!(
            values.len(),
            self.params.len(),
            "sql/{} takes {} parameters",
            self.path,
            self.params.len()
        );
        values
            .iter()
            .zip(self.params)
            .map(|(value, param)| (*value, param.pg_type()))
            .collect()
    }

    fn query_text(
        &self,
        client: &mut impl Conn,
        text: &str,
        values: &[&(dyn postgres::types::ToSql + Sync)],
    ) -> Result<Vec<postgres::Row>, postgres::Error> {
        client.client().query_typed(text, &self.typed(values))
    }
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
    /// A piece of a statement that others include through a placeholder
    /// (rendered by [`Statement::sql`]): never run alone.
    Fragment,
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
    TextArray,
    Int8Array,
    OptText,
    Bool,
    OptBool,
    Int4,
    Int8,
    OptInt8,
    OptUuid,
    Timestamptz,
    OptTimestamptz,
    /// A `jsonb` value.
    Json,
}

impl Param {
    /// The parameter's type as the server knows it: sent with the statement
    /// ([`Statement::query`]), so the server needs no round trip to tell us.
    pub fn pg_type(self) -> postgres::types::Type {
        use postgres::types::Type;
        match self {
            Param::Uuid | Param::OptUuid => Type::UUID,
            Param::UuidArray => Type::UUID_ARRAY,
            Param::Text | Param::OptText => Type::TEXT,
            Param::TextArray => Type::TEXT_ARRAY,
            Param::Int8Array => Type::INT8_ARRAY,
            Param::Bool | Param::OptBool => Type::BOOL,
            Param::Int4 => Type::INT4,
            Param::Int8 | Param::OptInt8 => Type::INT8,
            Param::Timestamptz | Param::OptTimestamptz => Type::TIMESTAMPTZ,
            Param::Json => Type::JSONB,
        }
    }
}

/// Declares one file of the registry: `file!(KIND "path" [params])`.
macro_rules! file {
    ($kind:ident $path:literal [$($param:ident),*]) => {
        Statement {
            path: $path,
            text: include_str!(concat!("../../../sql/", $path)),
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
    /// The settings and server columns every one-statement read starts
    /// with (`:read_settings`).
    pub const READ_SETTINGS: Statement = file!(Fragment "session/read_settings.sql" []);
    /// The first message of every transaction: its terms and every
    /// setting pinned, then what is in force (see the file; rendered by
    /// `db::session`).
    pub const BEGIN: Statement = file!(Script "session/begin.sql" []);
    pub const NOW: Statement = file!(Query "session/now.sql" []);
    pub const IN_RECOVERY: Statement = file!(Query "session/in_recovery.sql" []);
    pub const PRIMARY_CONNINFO: Statement = file!(Query "session/primary_conninfo.sql" []);
    pub const SET_LOCAL_ROLE: Statement = file!(Query "session/set_local_role.sql" [Text]);
}

/// The runbook's Diagnosis: all eleven queries as one statement (one round
/// trip, one snapshot).
pub mod diagnose {
    use super::*;
    /// $1, $2: the id range of the id or prefix; $3: the last N events
    /// (NULL: all).
    pub const SNAPSHOT: Statement = file!(Query "diagnose/snapshot.sql" [Uuid, Uuid, OptInt8]);
    /// $1 the deployment: its whole trail, oldest first, streamed.
    pub const EVENTS: Statement = file!(Query "diagnose/events.sql" [Uuid]);
}

/// The guarded transition of `fail-safely` (README, "fail-safely, step by
/// step"). The files are numbered in the order the transaction runs them;
/// each constant names the step that runs it.
pub mod fail_safely {
    use super::*;
    /// Step 3, and again in step 11: the guard's tuple counters.
    pub const GUARD_COUNTERS: Statement = file!(Query "fail_safely/01_guard_counters.sql" []);
    /// Step 7: the deployment, then its jobs, then its instances.
    pub const LOCK_DEPLOYMENT: Statement = file!(Query "fail_safely/05_lock_deployment.sql" [Uuid]);
    pub const LOCK_JOBS: Statement = file!(Query "fail_safely/06_lock_jobs.sql" [Uuid]);
    pub const LOCK_INSTANCES: Statement = file!(Query "fail_safely/07_lock_instances.sql" [Uuid]);
    /// Step 8.
    pub const FIND_IDEMPOTENCY_KEY: Statement =
        file!(Query "fail_safely/08_find_idempotency_key.sql" [Text]);
    /// Step 5. $1 the tool's lock class, $2 the key's hash.
    pub const LOCK_KEY: Statement = file!(Query "fail_safely/02_lock_key.sql" [Int4, Int4]);
    /// Step 6.
    pub const LOCK_TABLES: Statement = file!(Script "fail_safely/03_lock_tables.sql" []);
    /// Step 6. $1 the oid of deployments, $2 of deployment_events.
    pub const WRITE_SET: Statement = file!(Query "fail_safely/04_write_set.sql" [Int8, Int8]);
    /// Step 10: one of the two UPDATEs, then who writes, then the event.
    pub const MARK_FAILED: Statement = file!(Query "fail_safely/09_mark_failed.sql" [Uuid]);
    pub const REQUEST_TEARDOWN: Statement =
        file!(Query "fail_safely/10_request_teardown.sql" [Uuid]);
    pub const WHO: Statement = file!(Query "fail_safely/11_who.sql" []);
    /// $1 deployment id, $2 kind, $3 payload.
    pub const APPEND_EVENT: Statement =
        file!(Query "fail_safely/12_append_event.sql" [Uuid, Text, Json]);
    /// Step 11: the guard.
    pub const FIRE_DEFERRED: Statement = file!(Script "fail_safely/13_fire_deferred.sql" []);
    pub const GUARD_LOCKS: Statement = file!(Query "fail_safely/14_guard_locks.sql" []);
    /// Step 12. $1 deployment id, $2 event id.
    pub const REREAD: Statement = file!(Query "fail_safely/15_reread.sql" [Uuid, Uuid]);
    /// Last, and only after a lock timeout, in a read-only transaction of
    /// its own: the sessions holding row locks on the tables fail-safely
    /// locks.
    pub const LOCK_HOLDERS: Statement = file!(Query "fail_safely/16_lock_holders.sql" [Text]);
}

/// `fleet list`.
pub mod fleet {
    use super::*;
    /// $1 pool, $2 status (NULL: all), $3 only stale, $4 stale after (ms), $5 schema.
    pub const LIST: Statement = file!(Query "fleet/list.sql" [OptText, OptText, Bool, Int8, Text]);
    pub const ODD_ALLOCATIONS: Statement = file!(Query "fleet/odd_allocations.sql" []);
}

/// `stuck`: the two alerts.
pub mod stuck {
    use super::*;
    /// Both alerts in one statement: $1 no event for this long (ms), $2
    /// lease expired longer ago than this (ms), $3 the schema's name. Reads
    /// nothing (`indexed = false`) on a schema without the indexes it
    /// probes.
    pub const SCAN: Statement = file!(Query "stuck/scan.sql" [Int8, Int8, Text, Int8]);
    /// [`SCAN`] for a schema without those indexes: every table read once.
    pub const SCAN_WITHOUT_INDEXES: Statement =
        file!(Query "stuck/scan_without_indexes.sql" [Int8, Int8, Text, Int8]);
}

/// `history`: the operators' actions.
pub mod history {
    use super::*;
    /// $1/$2 since (at / ms ago), $3/$4 until (at / ms ago), $5 operator,
    /// $6 reason contains, $7 deployment, $8 limit.
    pub const OPERATOR_ACTIONS: Statement = file!(Query "history/operator_actions.sql"
        [OptTimestamptz, OptInt8, OptTimestamptz, OptInt8, OptText, OptText, OptUuid, Int8]);
}

/// The tables, columns, key and triggers the tool relies on (catalogs only).
/// The tables, columns, keys, triggers and rules the tool relies on
/// (catalogs only; tables by schema and name, or by oid).
pub mod schema_check {
    use super::*;
    /// $1 schema, $2 table.
    pub const TABLE_OID: Statement = file!(Query "schema_check/table_oid.sql" [Text, Text]);
    pub const COLUMNS: Statement = file!(Query "schema_check/columns.sql" [Int8]);
    pub const EVENTS_UNIQUE_KEY: Statement =
        file!(Query "schema_check/events_unique_key.sql" [Int8]);
    /// $1 table, $2 its column, $3 the referenced table.
    pub const FOREIGN_KEY: Statement =
        file!(Query "schema_check/foreign_key.sql" [Int8, Text, Int8]);
    pub const TREE: Statement = file!(Query "schema_check/tree.sql" [Int8]);
    pub const TRIGGERS: Statement = file!(Query "schema_check/triggers.sql" [Int8]);
    pub const RULES: Statement = file!(Query "schema_check/rules.sql" [Int8]);
    /// The closed world: $1/$2 the tables' names and oids, $3 the written
    /// tables, $4/$5 the columns read (table, column).
    pub const INVENTORY: Statement = file!(Query "schema_check/inventory.sql"
        [TextArray, Int8Array, TextArray, TextArray, TextArray]);
}

/// Connecting: `target_session_attrs`.
pub mod connect {
    use super::*;
    /// In a transaction of its own (see the file; rendered by
    /// `db::session::session_attrs`).
    pub const SESSION_ATTRS: Statement = file!(Script "connect/session_attrs.sql" []);
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
    /// $1 schema, $2 table.
    pub const TABLE_READABLE: Statement = file!(Query "doctor/table_readable.sql" [Text, Text]);
    /// $1 role, $2 schema.
    pub const WRITE_PRIVILEGES: Statement = file!(Query "doctor/write_privileges.sql" [Text, Text]);
    pub const SETTING: Statement = file!(Query "doctor/setting.sql" [Text]);
    /// $1 schema, $2 index.
    pub const INDEX_PRESENT: Statement = file!(Query "doctor/index_present.sql" [Text, Text]);
}

/// The sandbox: its database, scenarios and simulated control plane.
pub mod sandbox {
    use super::*;
    pub const CREATE_DATABASE: Statement = file!(Script "sandbox/create_database.sql" []);
    /// The incident scenarios (after the schema).
    pub const SCENARIOS: Statement = file!(Script "sandbox/scenarios.sql" []);
    /// `sandbox --big-incident` (after the scenarios).
    pub const BIG_INCIDENT: Statement = file!(Script "sandbox/big_incident.sql" []);
    pub const LIST_SCENARIOS: Statement = file!(Sandbox "sandbox/list_scenarios.sql" []);
    pub const SIMULATION_SESSION: Statement = file!(Script "sandbox/simulation_session.sql" []);
    pub const LIVE_NODES: Statement = file!(Sandbox "sandbox/live_nodes.sql" []);
    pub const HEARTBEAT: Statement = file!(Sandbox "sandbox/heartbeat.sql" [UuidArray]);
    /// $1 the simulation's start.
    pub const TICK: Statement = file!(Sandbox "sandbox/tick.sql" [Timestamptz]);
}

/// Every file of the registry.
pub const ALL: &[&Statement] = &[
    &scripts::SCHEMA,
    &scripts::CONTROL_PLANE,
    &scripts::BENCH_GENERATE,
    &RESOLVE_DEPLOYMENT,
    &session::BEGIN,
    &session::NOW,
    &session::IN_RECOVERY,
    &session::PRIMARY_CONNINFO,
    &session::SET_LOCAL_ROLE,
    &session::READ_SETTINGS,
    &diagnose::SNAPSHOT,
    &diagnose::EVENTS,
    &fail_safely::GUARD_COUNTERS,
    &fail_safely::LOCK_DEPLOYMENT,
    &fail_safely::LOCK_JOBS,
    &fail_safely::LOCK_INSTANCES,
    &fail_safely::FIND_IDEMPOTENCY_KEY,
    &fail_safely::LOCK_KEY,
    &fail_safely::LOCK_TABLES,
    &fail_safely::WRITE_SET,
    &fail_safely::MARK_FAILED,
    &fail_safely::REQUEST_TEARDOWN,
    &fail_safely::WHO,
    &fail_safely::APPEND_EVENT,
    &fail_safely::LOCK_HOLDERS,
    &fail_safely::FIRE_DEFERRED,
    &fail_safely::GUARD_LOCKS,
    &fail_safely::REREAD,
    &fleet::LIST,
    &fleet::ODD_ALLOCATIONS,
    &stuck::SCAN,
    &stuck::SCAN_WITHOUT_INDEXES,
    &history::OPERATOR_ACTIONS,
    &schema_check::TABLE_OID,
    &schema_check::COLUMNS,
    &schema_check::EVENTS_UNIQUE_KEY,
    &schema_check::FOREIGN_KEY,
    &schema_check::TREE,
    &schema_check::TRIGGERS,
    &schema_check::RULES,
    &schema_check::INVENTORY,
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
    &doctor::INDEX_PRESENT,
    &sandbox::CREATE_DATABASE,
    &sandbox::SCENARIOS,
    &sandbox::BIG_INCIDENT,
    &sandbox::LIST_SCENARIOS,
    &sandbox::SIMULATION_SESSION,
    &sandbox::LIVE_NODES,
    &sandbox::HEARTBEAT,
    &sandbox::TICK,
];

/// Files under `sql/` that the tool itself never runs.
pub const NOT_RUN: &[(&str, &str)] = &[
    (
        "runbook/diagnose.sql",
        "the runbook's queries as an operator types them into psql: the benchmark's baseline",
    ),
    (
        "runbook/alerts.sql",
        "the two alerts as an operator types them into psql: the benchmark's baseline for stuck",
    ),
    (
        "runbook/fleet.sql",
        "capacity per node as an operator types it into psql: the benchmark's baseline for fleet list",
    ),
    (
        "bench/autovacuum_off.sql",
        "the benchmark's fresh state (include_str! in tests/bench/production/server.rs and tests/it/explain.rs)",
    ),
    (
        "bench/autovacuum_reset.sql",
        "the benchmark's vacuumed state (include_str! in tests/bench/production/server.rs)",
    ),
    (
        "bench/examples.sql",
        "the deployments the benchmark diagnoses (include_str! in tests/bench/production/server.rs)",
    ),
    (
        "bench/sizes.sql",
        "what a benchmark data set holds (include_str! in tests/bench/production/server.rs)",
    ),
    (
        "bench/plain_indexes.sql",
        "the indexes the benchmark's no-index schema drops (include_str! in tests/bench/production/server.rs)",
    ),
];

#[cfg(test)]
mod tests;
