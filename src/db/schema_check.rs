//! Does the live database have the shape this tool relies on?
//!
//! Every table and column the tool reads (SPEC.md, "The database it talks
//! to", and `sql/schema.sql`) must exist with a type the tool can read, the
//! events must be unique per `(deployment_id, sequence)`, and the triggers
//! that protect the audit trail must be present and enabled: `BEFORE
//! DELETE` on `deployment_events`, `jobs` and `agent_job_results`, and
//! `BEFORE UPDATE` on `deployment_events` and `agent_job_results`.
//!
//! Only catalog reads: safe on a standby, inside a read-only transaction.
//! Tables are found through the session's `search_path`, as the queries
//! find them.

use anyhow::{Context, Result};
use postgres::GenericClient;
use serde::Serialize;

use super::sql;

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
/// operation, each needing an enabled BEFORE trigger.
pub const PROTECTING_TRIGGERS: &[(&str, Operation)] = &[
    ("deployment_events", Operation::Delete),
    ("jobs", Operation::Delete),
    ("agent_job_results", Operation::Delete),
    ("deployment_events", Operation::Update),
    ("agent_job_results", Operation::Update),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Operation {
    Delete,
    Update,
}

impl Operation {
    pub fn as_str(self) -> &'static str {
        match self {
            Operation::Delete => "DELETE",
            Operation::Update => "UPDATE",
        }
    }

    /// The bit of `pg_trigger.tgtype`.
    fn bit(self) -> i32 {
        match self {
            Operation::Delete => 1 << 3,
            Operation::Update => 1 << 4,
        }
    }
}

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
    /// Protecting triggers missing or disabled.
    pub trigger_problems: Vec<String>,
    /// The protecting triggers that are in place.
    pub triggers: Vec<FoundTrigger>,
}

impl SchemaReport {
    /// Every table, column and trigger is as expected.
    pub fn ok(&self) -> bool {
        self.schema_problems.is_empty() && self.trigger_problems.is_empty()
    }

    /// Tables, columns and types are as expected.
    pub fn schema_ok(&self) -> bool {
        self.schema_problems.is_empty()
    }

    /// Every protecting trigger is present and enabled. `fail-safely`
    /// refuses to write without them.
    pub fn protecting_triggers_ok(&self) -> bool {
        self.trigger_problems.is_empty()
    }

    /// Every problem, one sentence each (schema first, then triggers).
    pub fn problems(&self) -> Vec<String> {
        self.schema_problems
            .iter()
            .chain(&self.trigger_problems)
            .cloned()
            .collect()
    }
}

/// Checks tables, columns, types, the events' unique key and the protecting
/// triggers. Reads the catalogs only.
pub fn check(client: &mut impl GenericClient) -> Result<SchemaReport> {
    let mut report = SchemaReport::default();
    check_tables(client, &mut report)?;
    check_unique_key(client, &mut report)?;
    check_triggers(client, &mut report)?;
    Ok(report)
}

/// Every table and column the tool reads, with a type it can read.
fn check_tables(client: &mut impl GenericClient, report: &mut SchemaReport) -> Result<()> {
    for (table, columns) in EXPECTED {
        report.tables_checked += 1;
        let row = client
            .query_one(sql::schema_check::TABLE_OID.text, &[table])
            .with_context(|| format!("looking up table {table}"))?;
        let oid: Option<i64> = row.get(0);
        let Some(oid) = oid else {
            report.schema_problems.push(format!(
                "table {table} is missing (not found on the search_path)"
            ));
            continue;
        };
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
                        "column {table}.{column} is {server_type}, expected {}",
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
    let unique: bool = client
        .query_one(sql::schema_check::EVENTS_UNIQUE_KEY.text, &[])
        .context("looking for the unique key of deployment_events")?
        .get(0);
    if !unique
        && !report
            .schema_problems
            .iter()
            .any(|p| p.starts_with("table deployment_events"))
    {
        report.schema_problems.push(
            "deployment_events has no UNIQUE (deployment_id, sequence): two concurrent \
             appends could write the same sequence"
                .to_string(),
        );
    }

    Ok(())
}

/// An enabled BEFORE trigger for each protected table and operation.
fn check_triggers(client: &mut impl GenericClient, report: &mut SchemaReport) -> Result<()> {
    for (table, operation) in PROTECTING_TRIGGERS {
        let rows = client
            .query(
                sql::schema_check::BEFORE_TRIGGERS.text,
                &[table, &operation.bit()],
            )
            .with_context(|| format!("reading the triggers of {table}"))?;
        let enabled = rows
            .iter()
            .find(|r| matches!(r.get::<_, String>(1).as_str(), "O" | "A"));
        match (enabled, rows.first()) {
            (Some(row), _) => report.triggers.push(FoundTrigger {
                table: table.to_string(),
                operation: *operation,
                name: row.get(0),
                function: row.get(2),
            }),
            (None, Some(row)) => report.trigger_problems.push(format!(
                "the BEFORE {} trigger {} on {table} is disabled: the audit trail is not \
                 protected (ALTER TABLE {table} ENABLE TRIGGER {})",
                operation.as_str(),
                row.get::<_, String>(0),
                row.get::<_, String>(0),
            )),
            (None, None) => report.trigger_problems.push(format!(
                "no BEFORE {} trigger on {table}: the audit trail is not protected \
                 (see sql/schema.sql)",
                operation.as_str()
            )),
        }
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
}
