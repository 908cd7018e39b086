//! Code a less privileged role plants to run in the operator's place: for
//! every built-in function, aggregate, operator, relation and type name a
//! query might use unqualified, a look-alike of the same name that records
//! that it ran (in `evil.ran`, readable and writable by everyone; in a
//! read-only transaction it cannot write, so it raises an error naming
//! itself instead) and otherwise does what the built-in does.
//!
//! `Plant::EvilFirst`: the look-alikes live in schema `evil`, owned by
//! role `mallory_<db>` (NOLOGIN), and the operator role the binary connects
//! as gets `ALTER ROLE … IN DATABASE … SET search_path = evil, public,
//! pg_catalog`: pg_catalog explicitly after evil, so even exact copies of
//! built-ins win. `Plant::Public`: the look-alikes live in `public` and
//! nobody's search path is changed; pg_catalog is implicitly first, so what
//! wins is an exact-typed overload of a polymorphic built-in
//! (`public.array_agg(text)` over `pg_catalog.array_agg(anynonarray)`).

use crate::support::TestDb;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plant {
    EvilFirst,
    Public,
}

/// Built-in functions copied with their exact signatures (each overload
/// with plain argument and result types).
#[rustfmt::skip]
const FUNCTIONS: &[&str] = &[
    "now", "clock_timestamp", "statement_timestamp", "transaction_timestamp", "timeofday",
    "lower", "upper", "initcap", "length", "char_length", "octet_length", "strpos", "substr",
    "substring", "left", "right", "lpad", "rpad", "btrim", "ltrim", "rtrim", "replace",
    "split_part", "repeat", "reverse", "md5", "sha256", "sha512", "encode", "decode",
    "convert_to", "convert_from", "to_hex", "hashtext", "hashtextextended", "to_char",
    "to_timestamp", "to_date", "to_number", "date_trunc", "date_part", "extract", "age",
    "justify_interval", "make_interval", "floor", "ceil", "ceiling", "round", "trunc", "abs",
    "mod", "div", "power", "sqrt", "random", "gen_random_uuid", "current_setting",
    "set_config", "current_schema", "current_schemas", "current_database", "version",
    "pg_backend_pid", "pg_is_in_recovery", "pg_last_xact_replay_timestamp",
    "pg_last_wal_replay_lsn", "pg_last_wal_receive_lsn", "pg_current_wal_lsn",
    "pg_wal_lsn_diff", "pg_postmaster_start_time", "pg_conf_load_time", "inet_server_addr",
    "inet_server_port", "inet_client_addr", "inet_client_port", "has_table_privilege",
    "has_schema_privilege", "has_function_privilege", "has_database_privilege",
    "has_column_privilege", "has_sequence_privilege", "pg_has_role", "pg_get_userbyid",
    "pg_get_triggerdef", "pg_get_functiondef", "pg_get_function_arguments",
    "pg_get_function_identity_arguments", "pg_get_constraintdef", "pg_get_indexdef",
    "pg_get_expr", "pg_get_ruledef", "pg_get_viewdef", "pg_get_serial_sequence",
    "pg_table_is_visible", "pg_function_is_visible", "pg_type_is_visible", "format_type",
    "obj_description", "col_description", "to_regclass", "to_regproc", "to_regprocedure",
    "to_regrole", "to_regnamespace", "to_regtype", "pg_relation_size",
    "pg_total_relation_size", "pg_table_size", "pg_indexes_size", "pg_advisory_xact_lock",
    "pg_try_advisory_xact_lock", "pg_advisory_lock", "pg_advisory_unlock",
    "pg_try_advisory_lock", "pg_advisory_xact_lock_shared", "txid_current",
    "txid_current_if_assigned", "pg_current_xact_id", "pg_current_xact_id_if_assigned",
    "pg_stat_get_xact_tuples_inserted", "pg_stat_get_xact_tuples_updated",
    "pg_stat_get_xact_tuples_deleted", "pg_stat_get_xact_tuples_hot_updated",
    "pg_stat_get_xact_numscans", "pg_stat_get_xact_tuples_returned",
    "pg_stat_get_xact_tuples_fetched", "pg_stat_get_live_tuples", "pg_sleep", "pg_notify",
    "pg_cancel_backend", "pg_terminate_backend", "pg_blocking_pids", "pg_trigger_depth",
    "jsonb_typeof", "jsonb_array_length", "jsonb_exists", "jsonb_strip_nulls",
    "jsonb_pretty", "jsonb_set", "jsonb_insert", "jsonb_object_field",
    "jsonb_object_field_text", "jsonb_array_element", "jsonb_array_element_text",
    "json_typeof", "quote_ident", "quote_literal", "quote_nullable", "regexp_replace",
    "regexp_match", "string_to_array", "bool", "int8", "int4", "int2", "text", "name",
    "numeric", "date", "timestamptz", "isfinite", "pg_client_encoding",
    "getdatabaseencoding", "pg_encoding_to_char", "row_security_active", "xpath",
    "query_to_xml", "pg_xact_commit_timestamp", "pg_snapshot_xmin", "pg_current_snapshot",
    "pg_get_partkeydef", "pg_partition_root", "pg_relation_filenode",
];

/// Aggregates: exact copies, and typed overloads of the polymorphic ones.
#[rustfmt::skip]
const AGGREGATES: &[&str] = &[
    "count", "max", "min", "sum", "avg", "bool_and", "bool_or", "every", "array_agg",
    "jsonb_agg", "json_agg",
];

/// Typed overloads of polymorphic functions: name, arguments, result (`_T_`
/// stands for each of [`TYPES`]).
const POLYMORPHIC: &[(&str, &str, &str)] = &[
    ("to_jsonb", "_T_", "jsonb"),
    ("to_json", "_T_", "json"),
    ("array_length", "_T_[], integer", "integer"),
    ("array_upper", "_T_[], integer", "integer"),
    ("array_lower", "_T_[], integer", "integer"),
    ("cardinality", "_T_[]", "integer"),
    ("array_to_string", "_T_[], text", "text"),
    ("array_position", "_T_[], _T_", "integer"),
    ("array_append", "_T_[], _T_", "_T_[]"),
    ("array_remove", "_T_[], _T_", "_T_[]"),
    ("array_cat", "_T_[], _T_[]", "_T_[]"),
    ("unnest", "_T_[]", "SETOF _T_"),
];

#[rustfmt::skip]
const TYPES: &[&str] = &[
    "text", "uuid", "bigint", "integer", "smallint", "boolean", "timestamptz", "timestamp",
    "date", "interval", "jsonb", "json", "numeric", "double precision", "name", "oid",
    "\"char\"", "regclass", "pg_lsn", "xid",
];

/// Binary operators copied for every pair of [`TYPES`] pg_catalog has.
#[rustfmt::skip]
const OPERATORS: &[&str] = &[
    "=", "<>", "<", ">", "<=", ">=", "+", "-", "*", "/", "%", "||", "->", "->>", "#>", "#>>",
    "?", "?|", "?&", "@>", "<@", "~~", "~~*", "!~~", "!~~*", "~", "~*", "!~", "!~*", "&&",
];

/// Relations shadowed in `evil` (a view that records each row read).
#[rustfmt::skip]
const RELATIONS: &[&str] = &[
    "pg_class", "pg_namespace", "pg_trigger", "pg_proc", "pg_roles", "pg_settings",
    "pg_stat_activity", "pg_locks", "pg_constraint", "pg_attribute", "pg_index",
    "pg_inherits", "pg_rewrite", "pg_type", "pg_database", "pg_stat_replication",
    "pg_stat_xact_user_tables", "pg_stat_xact_all_tables", "pg_stat_user_tables",
    "pg_stat_all_tables", "pg_policy", "pg_depend", "pg_extension", "pg_tables",
    "pg_indexes", "pg_views", "pg_sequences", "pg_operator", "pg_language", "pg_user",
    "pg_auth_members", "pg_db_role_setting", "pg_partitioned_table", "pg_stat_wal_receiver",
    "pg_replication_slots", "pg_event_trigger", "deployments", "deployment_events", "jobs",
    "agent_job_results", "application_instances", "fleet_allocations",
    "ingress_analytics_routes", "fleet_nodes", "network_attachments", "source_snapshots",
    "release_artifacts",
];

/// Type names resolved through the search path (`::uuid`, `::text`), as
/// domains whose CHECK records that it ran.
#[rustfmt::skip]
const DOMAINS: &[&str] = &[
    "text", "uuid", "jsonb", "json", "timestamptz", "int8", "int4", "int2", "name", "oid",
    "regclass", "regproc", "regnamespace", "regtype", "regrole", "bool", "float8", "date",
    "bytea", "inet", "pg_lsn", "xid", "xid8", "xml",
];

fn sql_array(items: &[&str]) -> String {
    let quoted: Vec<String> = items
        .iter()
        .map(|s| format!("'{}'", s.replace('\'', "''")))
        .collect();
    format!("ARRAY[{}]::pg_catalog.text[]", quoted.join(", "))
}

/// The roles and what they set up (run by the superuser).
fn roles_sql(db: &TestDb, plant: Plant, mallory: &str, operator: &str) -> String {
    let mut sql = format!(
        "DROP ROLE IF EXISTS {mallory}; DROP ROLE IF EXISTS {operator};
         CREATE ROLE {mallory} NOLOGIN;
         CREATE ROLE {operator} LOGIN SUPERUSER;
         CREATE SCHEMA evil AUTHORIZATION {mallory};
         GRANT USAGE ON SCHEMA evil TO PUBLIC;
         GRANT USAGE, CREATE ON SCHEMA public TO {mallory};
         GRANT SELECT ON ALL TABLES IN SCHEMA public TO {mallory};"
    );
    if plant == Plant::EvilFirst {
        sql.push_str(&format!(
            "ALTER ROLE {operator} IN DATABASE {} SET search_path = evil, public, pg_catalog;",
            db.name
        ));
    }
    sql
}

/// The marker table and the function every look-alike calls first.
const MARK_SQL: &str = "
CREATE TABLE evil.ran (what pg_catalog.text, by_user pg_catalog.text DEFAULT current_user);
GRANT INSERT, SELECT ON evil.ran TO PUBLIC;
CREATE FUNCTION evil.mark(p_what pg_catalog.text) RETURNS pg_catalog.bool
LANGUAGE plpgsql AS $m$
BEGIN
    INSERT INTO evil.ran (what) VALUES (p_what);
    RETURN true;
EXCEPTION WHEN read_only_sql_transaction THEN
    RAISE EXCEPTION 'planted look-alike % ran as % (in a read-only transaction)', p_what, current_user;
END $m$;
GRANT EXECUTE ON FUNCTION evil.mark(pg_catalog.text) TO PUBLIC;
";

/// The DO block that creates the look-alikes in `schema` (run as mallory).
fn look_alikes_sql(schema: &str, plant: Plant) -> String {
    let body = include_str!("look_alikes.sql");
    let relations: &[&str] = if plant == Plant::EvilFirst {
        RELATIONS
    } else {
        &[]
    };
    let domains: &[&str] = if plant == Plant::EvilFirst {
        DOMAINS
    } else {
        &[]
    };
    let polymorphic: Vec<String> = POLYMORPHIC
        .iter()
        .map(|(n, a, r)| format!("{n}|{a}|{r}"))
        .collect();
    let polymorphic: Vec<&str> = polymorphic.iter().map(String::as_str).collect();
    body.replace("@schema@", &format!("'{schema}'"))
        .replace("@functions@", &sql_array(FUNCTIONS))
        .replace("@aggregates@", &sql_array(AGGREGATES))
        .replace("@polymorphic@", &sql_array(&polymorphic))
        .replace("@types@", &sql_array(TYPES))
        .replace("@operators@", &sql_array(OPERATORS))
        .replace("@relations@", &sql_array(relations))
        .replace("@domains@", &sql_array(domains))
}

/// What was planted; dropping it removes the roles (and what they own).
pub struct Planted {
    pub mallory: String,
    /// The role the binary connects as (LOGIN SUPERUSER: the juiciest
    /// target), with the search path of [`Plant`].
    pub operator: String,
    pub count: i64,
    conninfo: String,
}

/// Plants everything in `db`; returns how many look-alikes there are.
pub fn plant(db: &TestDb, plant: Plant) -> Planted {
    let mallory = format!("mallory_{}", db.name);
    let operator = format!("op_{}", db.name);
    let mut client = db.client();
    client
        .batch_execute(&roles_sql(db, plant, &mallory, &operator))
        .expect("creating the roles");
    let schema = if plant == Plant::EvilFirst {
        "evil"
    } else {
        "public"
    };
    client
        .batch_execute(&format!(
            "SET search_path = pg_catalog, pg_temp; SET ROLE {mallory}; {MARK_SQL} {}; RESET ROLE;",
            look_alikes_sql(schema, plant)
        ))
        .unwrap_or_else(|e| panic!("planting the look-alikes: {e:?}"));
    let count: i64 = client
        .query_one(
            "SELECT pg_catalog.count(*) FROM pg_catalog.pg_proc
             WHERE pronamespace OPERATOR(pg_catalog.=) $1::pg_catalog.text::pg_catalog.regnamespace",
            &[&schema],
        )
        .unwrap()
        .get(0);
    Planted {
        mallory,
        operator,
        count,
        conninfo: db.conninfo.clone(),
    }
}

impl Planted {
    /// What ran: one line per call recorded in `evil.ran`.
    pub fn ran(&self) -> Vec<String> {
        let mut client =
            postgres::Client::connect(&self.conninfo, postgres::NoTls).expect("connecting");
        client
            .batch_execute("SET search_path = pg_catalog, pg_temp")
            .unwrap();
        client
            .query(
                "SELECT what OPERATOR(pg_catalog.||) ' as ' OPERATOR(pg_catalog.||) by_user
                 FROM evil.ran",
                &[],
            )
            .unwrap()
            .iter()
            .map(|r| r.get(0))
            .collect()
    }
}

impl Drop for Planted {
    fn drop(&mut self) {
        if let Ok(mut client) = postgres::Client::connect(&self.conninfo, postgres::NoTls) {
            let _ = client.batch_execute(&format!(
                "SET search_path = pg_catalog, pg_temp;
                 DROP OWNED BY {m}, {o} CASCADE; DROP ROLE IF EXISTS {m}; DROP ROLE IF EXISTS {o};",
                m = self.mallory,
                o = self.operator
            ));
        }
    }
}
