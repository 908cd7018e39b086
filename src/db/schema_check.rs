//! Does the live database have the shape this tool relies on? One check,
//! shared by `doctor` (which reports it) and `fail-safely` (which writes
//! nothing unless all of it holds):
//!
//! - every table and column the tool reads (SPEC.md, "The database it
//!   talks to", and `sql/schema.sql`) exists in the schema (`--schema`)
//!   with a type the tool can read, and the events are unique per
//!   `(deployment_id, sequence)`;
//! - the foreign keys "decide under locks" rests on exist and are enforced:
//!   from jobs, instances and events to the deployment, from results to the
//!   job (SPEC step 9);
//! - the triggers that protect the audit trail (`BEFORE DELETE` on
//!   `deployment_events`, `jobs` and `agent_job_results`, `BEFORE UPDATE`
//!   on `deployment_events` and `agent_job_results`) are on every relation
//!   of those tables (partitions too), enabled, fire BEFORE the operation,
//!   and really refuse (`decide::triggers::protects`), not only exist;
//! - `deployments` and `deployment_events`, the two tables fail-safely
//!   writes, carry no trigger or rule it cannot vouch for (SPEC step 5).
//!
//! Only catalog reads: safe on a standby, inside a read-only transaction.
//! Tables are looked up by schema and name as bound values.

use std::collections::BTreeMap;

use anyhow::{Context, Result};
use postgres::GenericClient;
use serde::Serialize;

use super::sql::{self, Schema};
pub use crate::decide::triggers::{AllowedTriggers, Operation};
use crate::decide::triggers::{Rule, Trigger, protects, visible, vouch};

/// A column type the tool can read, and the server types that qualify.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Uuid,
    Text,
    Int4,
    Int8,
    Bool,
    Timestamptz,
    Jsonb,
}

impl Kind {
    fn accepts(self, server_type: &str) -> bool {
        match self {
            Kind::Uuid => server_type == "uuid",
            Kind::Text => {
                server_type == "text"
                    || server_type.starts_with("character varying")
                    || server_type == "citext"
            }
            Kind::Int4 => server_type == "integer",
            Kind::Int8 => server_type == "bigint",
            Kind::Bool => server_type == "boolean",
            Kind::Timestamptz => server_type == "timestamp with time zone",
            Kind::Jsonb => server_type == "jsonb",
        }
    }

    fn expected(self) -> &'static str {
        match self {
            Kind::Uuid => "uuid",
            Kind::Text => "text",
            Kind::Int4 => "integer",
            Kind::Int8 => "bigint",
            Kind::Bool => "boolean",
            Kind::Timestamptz => "timestamptz",
            Kind::Jsonb => "jsonb",
        }
    }
}

use Kind::*;

/// Every table and column the tool reads, with the type it reads it as.
const EXPECTED: &[(&str, &[(&str, Kind)])] = &[
    (
        "deployments",
        &[
            ("id", Uuid),
            ("org_id", Uuid),
            ("status", Text),
            ("created_at", Timestamptz),
            ("updated_at", Timestamptz),
        ],
    ),
    (
        "deployment_events",
        &[
            ("sequence", Int8),
            ("id", Uuid),
            ("org_id", Uuid),
            ("deployment_id", Uuid),
            ("kind", Text),
            ("payload", Jsonb),
            ("occurred_at", Timestamptz),
        ],
    ),
    (
        "jobs",
        &[
            ("id", Uuid),
            ("deployment_id", Uuid),
            ("kind", Text),
            ("status", Text),
            ("target_node_id", Uuid),
            ("attempt", Int4),
            ("max_attempts", Int4),
            ("available_at", Timestamptz),
            ("lease_token", Uuid),
            ("lease_expires_at", Timestamptz),
            ("payload", Jsonb),
            ("created_at", Timestamptz),
            ("updated_at", Timestamptz),
        ],
    ),
    (
        "agent_job_results",
        &[
            ("id", Uuid),
            ("job_id", Uuid),
            ("node_id", Uuid),
            ("attempt", Int4),
            ("lease_token", Uuid),
            ("outcome", Text),
            ("output", Jsonb),
            ("reported_at", Timestamptz),
        ],
    ),
    (
        "source_snapshots",
        &[
            ("id", Uuid),
            ("deployment_id", Uuid),
            ("verified_at", Timestamptz),
        ],
    ),
    (
        "release_artifacts",
        &[("id", Uuid), ("deployment_id", Uuid), ("image", Text)],
    ),
    (
        "application_instances",
        &[
            ("id", Uuid),
            ("deployment_id", Uuid),
            ("role_name", Text),
            ("status", Text),
            ("active_node_id", Uuid),
            ("generation", Int4),
        ],
    ),
    (
        "fleet_allocations",
        &[
            ("id", Uuid),
            ("node_id", Uuid),
            ("resource_kind", Text),
            ("resource_id", Uuid),
            ("status", Text),
            ("created_at", Timestamptz),
            ("released_at", Timestamptz),
        ],
    ),
    (
        "ingress_analytics_routes",
        &[
            ("hostname", Text),
            ("deployment_id", Uuid),
            ("route_generation", Int4),
            ("status", Text),
        ],
    ),
    (
        "fleet_nodes",
        &[
            ("id", Uuid),
            ("name", Text),
            ("pool", Text),
            ("status", Text),
            ("schedulable", Bool),
            ("slots", Int4),
            ("last_seen_at", Timestamptz),
        ],
    ),
    (
        "network_attachments",
        &[
            ("id", Uuid),
            ("deployment_id", Uuid),
            ("segment", Text),
            ("node_id", Uuid),
            ("created_at", Timestamptz),
        ],
    ),
];

/// The tables the tool reads, in the order they are checked.
pub fn tables() -> impl Iterator<Item = &'static str> {
    EXPECTED.iter().map(|(table, _)| *table)
}

/// The triggers that keep the audit trail intact (SPEC.md): table and
/// operation, each needing an enabled BEFORE trigger that refuses.
pub const PROTECTING_TRIGGERS: &[(&str, Operation)] = &[
    ("deployment_events", Operation::Delete),
    ("jobs", Operation::Delete),
    ("agent_job_results", Operation::Delete),
    ("deployment_events", Operation::Update),
    ("agent_job_results", Operation::Update),
];

/// The foreign keys "decide under locks" rests on: (table, column, the
/// table whose id it references).
pub const LOCKING_FOREIGN_KEYS: &[(&str, &str, &str)] = &[
    ("jobs", "deployment_id", "deployments"),
    ("application_instances", "deployment_id", "deployments"),
    ("deployment_events", "deployment_id", "deployments"),
    ("agent_job_results", "job_id", "jobs"),
];

/// The tables fail-safely writes, and the reference schema's own triggers
/// on them (by name, with the operation each refuses): the only ones it
/// vouches for without being told.
pub const WRITTEN_TABLES: &[(&str, &[(&str, Operation)])] = &[
    ("deployments", &[]),
    (
        "deployment_events",
        &[
            ("deployment_events_refuse_delete", Operation::Delete),
            ("deployment_events_refuse_update", Operation::Update),
            ("deployment_events_refuse_truncate", Operation::Truncate),
        ],
    ),
];

/// A protecting trigger that was found, for reports.
#[derive(Debug, Clone, Serialize)]
pub struct FoundTrigger {
    pub table: String,
    pub operation: Operation,
    pub name: String,
    pub function: String,
}

/// What [`check`] found. Empty problem lists mean the schema is as
/// expected.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SchemaReport {
    pub tables_checked: usize,
    pub columns_checked: usize,
    /// Missing tables or columns, incompatible types, a missing unique key.
    pub schema_problems: Vec<String>,
    /// Locking foreign keys missing or not enforced.
    pub foreign_key_problems: Vec<String>,
    /// The locking foreign keys that are in place, in words.
    pub foreign_keys: Vec<String>,
    /// Protecting triggers missing, disabled, mistimed or not refusing.
    pub trigger_problems: Vec<String>,
    /// The protecting triggers that are in place.
    pub triggers: Vec<FoundTrigger>,
    /// Triggers and rules on the written tables nobody vouches for.
    pub unvouched: Vec<String>,
    /// Triggers and rules on the written tables vouched for only because
    /// `PUSHLEFT_ALLOWED_TRIGGERS` lists them.
    pub allowed: Vec<String>,
    /// The oid of each table found, by name.
    #[serde(skip)]
    pub oids: BTreeMap<&'static str, i64>,
}

impl SchemaReport {
    /// Every table, column, key and trigger is as expected.
    pub fn ok(&self) -> bool {
        self.schema_problems.is_empty()
            && self.foreign_key_problems.is_empty()
            && self.trigger_problems.is_empty()
            && self.unvouched.is_empty()
    }

    /// Tables, columns and types are as expected.
    pub fn schema_ok(&self) -> bool {
        self.schema_problems.is_empty()
    }

    /// Every protecting trigger is present, enabled and refusing.
    /// `fail-safely` refuses to write without them.
    pub fn protecting_triggers_ok(&self) -> bool {
        self.trigger_problems.is_empty()
    }

    /// Every problem, one sentence each (schema, foreign keys, protecting
    /// triggers, then triggers nobody vouches for).
    pub fn problems(&self) -> Vec<String> {
        self.schema_problems
            .iter()
            .chain(&self.foreign_key_problems)
            .chain(&self.trigger_problems)
            .chain(&self.unvouched)
            .cloned()
            .collect()
    }
}

/// Checks tables, columns, types, the events' unique key, the locking
/// foreign keys, the protecting triggers and the triggers and rules on the
/// written tables, in `schema`. Reads the catalogs only.
pub fn check(
    client: &mut impl GenericClient,
    schema: &Schema,
    allowed: &AllowedTriggers,
) -> Result<SchemaReport> {
    let mut report = SchemaReport::default();
    check_tables(client, schema, &mut report)?;
    check_unique_key(client, &mut report)?;
    check_foreign_keys(client, schema, &mut report)?;
    check_triggers(client, schema, &mut report)?;
    check_written_tables(client, allowed, &mut report)?;
    Ok(report)
}

/// Every table and column the tool reads, with a type it can read.
fn check_tables(
    client: &mut impl GenericClient,
    schema: &Schema,
    report: &mut SchemaReport,
) -> Result<()> {
    for (table, columns) in EXPECTED {
        report.tables_checked += 1;
        let row = client
            .query_opt(sql::schema_check::TABLE_OID.text, &[&schema.name(), table])
            .with_context(|| format!("looking up table {schema}.{table}"))?;
        let Some(oid) = row.map(|r| r.get::<_, i64>("oid")) else {
            report.schema_problems.push(format!(
                "table {table} is missing (not found in schema {}; see --schema / PUSHLEFT_SCHEMA)",
                visible(schema.name())
            ));
            continue;
        };
        report.oids.insert(table, oid);
        let rows = client
            .query(sql::schema_check::COLUMNS.text, &[&oid])
            .with_context(|| format!("reading the columns of {table}"))?;
        let found: Vec<(String, String)> = rows.iter().map(|r| (r.get(0), r.get(1))).collect();
        for (column, kind) in *columns {
            report.columns_checked += 1;
            match found.iter().find(|(name, _)| name == column) {
                None => report
                    .schema_problems
                    .push(format!("column {table}.{column} is missing")),
                Some((_, server_type)) if !kind.accepts(server_type) => {
                    report.schema_problems.push(format!(
                        "column {table}.{column} is {}, expected {}",
                        visible(server_type),
                        kind.expected()
                    ))
                }
                Some(_) => {}
            }
        }
    }

    Ok(())
}

/// fail-safely's max(sequence) + 1 is only race-safe with this key.
fn check_unique_key(client: &mut impl GenericClient, report: &mut SchemaReport) -> Result<()> {
    let Some(events) = report.oids.get("deployment_events").copied() else {
        return Ok(());
    };
    let unique: bool = client
        .query_one(sql::schema_check::EVENTS_UNIQUE_KEY.text, &[&events])
        .context("looking for the unique key of deployment_events")?
        .get(0);
    if !unique {
        report.schema_problems.push(
            "deployment_events has no UNIQUE (deployment_id, sequence): two concurrent \
             appends could write the same sequence"
                .to_string(),
        );
    }
    Ok(())
}

/// The foreign keys that make "decide under locks" hold.
fn check_foreign_keys(
    client: &mut impl GenericClient,
    schema: &Schema,
    report: &mut SchemaReport,
) -> Result<()> {
    for (table, column, parent) in LOCKING_FOREIGN_KEYS {
        let (Some(child), Some(parent_oid)) = (
            report.oids.get(table).copied(),
            report.oids.get(parent).copied(),
        ) else {
            continue;
        };
        let rows = client
            .query(
                sql::schema_check::FOREIGN_KEY.text,
                &[&child, column, &parent_oid],
            )
            .with_context(|| format!("reading the foreign keys of {table}"))?;
        let why = format!(
            "without it a row of {table} can be {} for a {} fail-safely holds locked, between \
             its decision and its write",
            if *table == "agent_job_results" {
                "inserted"
            } else {
                "inserted or re-pointed"
            },
            if *parent == "jobs" {
                "job"
            } else {
                "deployment"
            },
        );
        match rows.iter().find(|r| !r.get::<_, bool>("disabled")) {
            Some(row) => report.foreign_keys.push(format!(
                "{table}.{column} → {parent} ({})",
                visible(&row.get::<_, String>("name"))
            )),
            None if !rows.is_empty() => report.foreign_key_problems.push(format!(
                "the foreign key {} from {table}.{column} to {parent}.id is not enforced (its \
                 triggers are disabled): {why}. Next step: ALTER TABLE {schema}.{table} ENABLE \
                 TRIGGER ALL",
                visible(&rows[0].get::<_, String>("name")),
                schema = visible(schema.name())
            )),
            None => report.foreign_key_problems.push(format!(
                "no foreign key from {table}.{column} to {parent}.id: {why}. Next step: ALTER \
                 TABLE {schema}.{table} ADD FOREIGN KEY ({column}) REFERENCES \
                 {schema}.{parent} (id) NOT VALID",
                schema = visible(schema.name())
            )),
        }
    }
    Ok(())
}

/// The triggers of a table's whole tree.
fn triggers_of(client: &mut impl GenericClient, table: &str, oid: i64) -> Result<Vec<Trigger>> {
    Ok(client
        .query(sql::schema_check::TRIGGERS.text, &[&oid])
        .with_context(|| format!("reading the triggers of {table}"))?
        .iter()
        .map(|row| Trigger {
            relation: row.get("relation"),
            name: row.get("name"),
            enabled: row.get("enabled"),
            tgtype: row.get("tgtype"),
            internal: row.get("internal"),
            constraint: row.get("constraint_trigger"),
            function: row.get("function"),
            builtin: row.get("builtin"),
            language: row.get("language"),
            source: row.get("source"),
        })
        .collect())
}

/// The triggers of a table's tree, and its relations (name, relkind).
type TableTriggers = (Vec<Trigger>, Vec<(String, String)>);

/// For each protected table and operation, on every relation of its tree
/// that holds rows: an enabled BEFORE trigger that refuses.
fn check_triggers(
    client: &mut impl GenericClient,
    schema: &Schema,
    report: &mut SchemaReport,
) -> Result<()> {
    let mut by_table: BTreeMap<&str, TableTriggers> = BTreeMap::new();
    for (table, operation) in PROTECTING_TRIGGERS {
        let Some(oid) = report.oids.get(table).copied() else {
            continue;
        };
        if !by_table.contains_key(table) {
            let triggers = triggers_of(client, table, oid)?;
            let relations = client
                .query(sql::schema_check::TREE.text, &[&oid])
                .with_context(|| format!("reading the partitions of {table}"))?
                .iter()
                .map(|r| (r.get("relation"), r.get("relkind")))
                .collect();
            by_table.insert(table, (triggers, relations));
        }
        let (triggers, relations) = &by_table[table];
        let problems_before = report.trigger_problems.len();
        let mut found: Option<&Trigger> = None;
        for (relation, relkind) in relations {
            // A partitioned table holds no rows; its partitions do.
            if relkind == "p" {
                continue;
            }
            let candidates: Vec<&Trigger> = triggers
                .iter()
                .filter(|t| &t.relation == relation && t.on(*operation) && !t.internal)
                .collect();
            let protecting = candidates.iter().find(|t| protects(t, *operation).is_ok());
            let on = if relation == table {
                table.to_string()
            } else {
                format!("{} (a partition of {table})", visible(relation))
            };
            match (protecting, candidates.first()) {
                (Some(t), _) => {
                    found.get_or_insert(t);
                }
                (None, Some(t)) => {
                    let why = protects(t, *operation).unwrap_err();
                    let fix = match t.enabled.as_str() {
                        "D" | "R" => format!(
                            "next step: ALTER TABLE {}.{} ENABLE TRIGGER {}",
                            visible(schema.name()),
                            visible(relation),
                            visible(&t.name)
                        ),
                        _ => "see the reference trigger in sql/schema.sql".to_string(),
                    };
                    let what = if t.enabled == "D" {
                        format!(
                            "the BEFORE {} trigger {} on {on} is disabled",
                            operation.as_str(),
                            visible(&t.name)
                        )
                    } else {
                        format!(
                            "the {} trigger {} on {on} does not protect it: {why}",
                            operation.as_str(),
                            visible(&t.name)
                        )
                    };
                    report
                        .trigger_problems
                        .push(format!("{what}: the audit trail is not protected ({fix})"));
                }
                (None, None) => report.trigger_problems.push(format!(
                    "no BEFORE {} trigger on {on}: the audit trail is not protected \
                     (see sql/schema.sql)",
                    operation.as_str()
                )),
            }
        }
        if let Some(t) = found
            && report.trigger_problems.len() == problems_before
        {
            report.triggers.push(FoundTrigger {
                table: table.to_string(),
                operation: *operation,
                name: t.name.clone(),
                function: t.function.clone(),
            });
        }
    }
    Ok(())
}

/// The triggers and rules of the two written tables: each vouched for, or
/// a problem.
fn check_written_tables(
    client: &mut impl GenericClient,
    allowed: &AllowedTriggers,
    report: &mut SchemaReport,
) -> Result<()> {
    for (table, reference) in WRITTEN_TABLES {
        let Some(oid) = report.oids.get(table).copied() else {
            continue;
        };
        let triggers = triggers_of(client, table, oid)?;
        let rules: Vec<Rule> = client
            .query(sql::schema_check::RULES.text, &[&oid])
            .with_context(|| format!("reading the rules of {table}"))?
            .iter()
            .map(|r| Rule {
                relation: r.get("relation"),
                name: r.get("name"),
            })
            .collect();
        let vouching = vouch(table, reference, allowed, &triggers, &rules);
        report.unvouched.extend(vouching.unvouched);
        report.allowed.extend(vouching.allowed);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_the_tool_can_read() {
        assert!(Kind::Text.accepts("character varying(40)"));
        assert!(!Kind::Int4.accepts("bigint"));
        assert!(!Kind::Timestamptz.accepts("timestamp without time zone"));
        assert!(!Kind::Jsonb.accepts("json"));
    }

    #[test]
    fn protecting_triggers_are_the_five_of_the_spec() {
        assert_eq!(PROTECTING_TRIGGERS.len(), 5);
        let report = SchemaReport {
            trigger_problems: vec!["no BEFORE DELETE trigger on jobs".into()],
            ..SchemaReport::default()
        };
        assert!(report.schema_ok());
        assert!(!report.protecting_triggers_ok());
        assert_eq!(report.problems().len(), 1);
    }

    #[test]
    fn foreign_keys_and_unvouched_triggers_are_problems_too() {
        let report = SchemaReport {
            foreign_key_problems: vec!["no foreign key from agent_job_results.job_id".into()],
            unvouched: vec!["trigger `x` on deployments".into()],
            ..SchemaReport::default()
        };
        assert!(!report.ok());
        assert_eq!(report.problems().len(), 2);
    }
}
