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
mod schema;
pub mod trace;
pub use conn::{BoxRows, Conn, Wire};
pub use schema::Schema;

use postgres::fallible_iterator::{FallibleIterator, MapErr};

use crate::db_failure::DbError;

/// The rows of [`Statement::query_stream`], as they arrive.
pub type Rows<'c> = MapErr<BoxRows<'c>, fn(postgres::Error) -> DbError>;

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

/// Where a read cuts database text (pushleft-controller-diagnose(1), HUGE TEXT): `left(col,
/// :text_cut)`, rendered as [`crate::model::cut::TEXT_CUT_CHARS`], a
/// number of ours (psql: `-v text_cut=4096`).
pub const TEXT_CUT_PLACEHOLDER: &str = ":text_cut";

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
            .replace(
                TEXT_CUT_PLACEHOLDER,
                &crate::model::cut::TEXT_CUT_CHARS.to_string(),
            )
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
    ) -> Result<Vec<postgres::Row>, DbError> {
        self.query_text(client, &self.sql(schema), values)
    }

    /// [`Statement::query`] for a statement that names no table of the
    /// control plane (the catalogs, the session's settings).
    pub fn query_catalog(
        &self,
        client: &mut impl Conn,
        values: &[&(dyn postgres::types::ToSql + Sync)],
    ) -> Result<Vec<postgres::Row>, DbError> {
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
    ) -> Result<Rows<'c>, DbError> {
        let (text, typed) = (self.sql(schema), self.typed(values));
        trace::statement(self.path, &text, &typed);
        let rows = Wire::query_typed_raw(client.client(), &text, typed)?;
        Ok(rows.map_err(DbError::from as fn(postgres::Error) -> DbError))
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
    ) -> Result<Vec<postgres::Row>, DbError> {
        let typed = self.typed(values);
        trace::statement(self.path, text, &typed);
        Ok(Wire::query_typed(client.client(), text, &typed)?)
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
    /// A query of the tool's own `pushleft_approvals` schema (small
    /// tables, read and written by primary key), which a database without
    /// that schema never runs: not held to the EXPLAIN check.
    Approvals,
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

// The registry's modules, one file each, mirroring `sql/` (after the
// macro, which they use).
pub mod approvals;
pub mod complete;
pub mod connect;
pub mod diagnose;
pub mod doctor;
pub mod fail_safely;
pub mod fleet;
pub mod history;
pub mod replication;
pub mod sandbox;
pub mod schema_check;
pub mod scripts;
pub mod session;
pub mod stuck;

/// A deployment id or unique prefix, as a UUID range ($1 low, $2 high).
pub const RESOLVE_DEPLOYMENT: Statement = file!(Query "resolve_deployment.sql" [Uuid, Uuid]);

/// Every file of the registry.
pub const ALL: &[&Statement] = &[
    &scripts::SCHEMA,
    &scripts::CONTROL_PLANE,
    &scripts::BENCH_GENERATE,
    &RESOLVE_DEPLOYMENT,
    &session::BEGIN,
    &session::PROOF,
    &session::NOW,
    &session::IN_RECOVERY,
    &replication::AFTER_COMMIT,
    &session::PRIMARY_CONNINFO,
    &session::SET_LOCAL_ROLE,
    &session::TARGET,
    &session::READ_SETTINGS,
    &diagnose::SNAPSHOT,
    &diagnose::EVENTS,
    &diagnose::FULL_TEXT_JOBS,
    &diagnose::FULL_TEXT_RESULTS,
    &diagnose::FULL_TEXT_EVENTS,
    &fail_safely::GUARD_COUNTERS,
    &fail_safely::LOCK_KEY,
    &fail_safely::LOCK_TABLES,
    &fail_safely::WHO,
    &fail_safely::WRITE_SET,
    &fail_safely::LOCK,
    &fail_safely::LOCK_DEPLOYMENT,
    &fail_safely::LOCK_JOBS,
    &fail_safely::LOCK_INSTANCES,
    &fail_safely::MARK_FAILED,
    &fail_safely::REQUEST_TEARDOWN,
    &fail_safely::FIRE_DEFERRED,
    &fail_safely::GUARD_LOCKS,
    &fail_safely::REREAD,
    &fail_safely::LOCK_HOLDERS,
    &fleet::LIST,
    &fleet::ODD_ALLOCATIONS,
    &stuck::SCAN,
    &stuck::SCAN_WITHOUT_INDEXES,
    &history::OPERATOR_ACTIONS,
    &schema_check::CHECK,
    &connect::SESSION_ATTRS,
    &complete::CANDIDATES,
    &approvals::INSTALL,
    &approvals::SET_POLICY,
    &approvals::ENFORCE,
    &approvals::UNENFORCE,
    &approvals::STATE,
    &approvals::POLICY,
    &approvals::RECORD_PLAN,
    &approvals::READ_PLAN,
    &approvals::APPLY,
    &approvals::DEFER_ENFORCE,
    &doctor::FACTS,
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
        "runbook/capacity.sql",
        "slots in use per node as an operator types it into psql: the benchmark's simpler baseline for fleet list",
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
