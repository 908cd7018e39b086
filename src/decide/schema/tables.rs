//! The tables and columns the tool reads, with a type it can read, and
//! the events' unique key.

use super::{SchemaFacts, SchemaReport};
use crate::model::text::escaped;

/// A column type the tool can read, and the server types that qualify.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Uuid,
    Text,
    Int4,
    Int8,
    Bool,
    Timestamptz,
    Jsonb,
}

impl Kind {
    pub(super) fn accepts(self, server_type: &str) -> bool {
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

    pub(super) fn expected(self) -> &'static str {
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
pub(super) const EXPECTED: &[(&str, &[(&str, Kind)])] = &[
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

/// Every (table, column) the tool reads.
pub(super) fn read_columns() -> impl Iterator<Item = (&'static str, &'static str)> {
    EXPECTED
        .iter()
        .flat_map(|(table, columns)| columns.iter().map(move |(column, _)| (*table, *column)))
}

/// The tables the tool reads, in the order they are checked.
pub fn tables() -> impl Iterator<Item = &'static str> {
    EXPECTED.iter().map(|(table, _)| *table)
}

/// Every table and column the tool reads, with a type it can read (the
/// `tables` section of `sql/schema_check/check.sql`), in `schema`.
pub(super) fn check_tables(facts: &SchemaFacts, schema: &str, report: &mut SchemaReport) {
    for (table, columns) in EXPECTED {
        report.tables_checked += 1;
        let Some(found) = facts.table(table) else {
            report.schema_problems.push(format!(
                "table {table} is missing (not found in schema {}; see --schema / PUSHLEFT_SCHEMA)",
                escaped(schema)
            ));
            continue;
        };
        report.oids.insert(table, found.oid);
        for (column, kind) in *columns {
            report.columns_checked += 1;
            match found.columns.iter().find(|c| c.name == *column) {
                None => report
                    .schema_problems
                    .push(format!("column {table}.{column} is missing")),
                Some(c) if !kind.accepts(&c.server_type) => report.schema_problems.push(format!(
                    "column {table}.{column} is {}, expected {}",
                    escaped(&c.server_type),
                    kind.expected()
                )),
                Some(_) => {}
            }
        }
    }
}

/// fail-safely's max(sequence) + 1 is only race-safe with this key.
pub(super) fn check_unique_key(facts: &SchemaFacts, report: &mut SchemaReport) {
    if !report.oids.contains_key("deployment_events") {
        return;
    }
    if !facts.unique_key {
        report.schema_problems.push(
            "deployment_events has no UNIQUE (deployment_id, sequence): two concurrent \
             appends could write the same sequence"
                .to_string(),
        );
    }
}

#[cfg(test)]
#[path = "tables_tests.rs"]
mod tests;
