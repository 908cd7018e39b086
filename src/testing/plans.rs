//! The EXPLAIN check over the SQL registry: no statement the tool runs may
//! read a big table with a sequential scan, and none may be costly enough
//! for the server to JIT-compile it (the benchmark at production size in
//! both table states, and a test on a small set, hold us to it).

use crate::db::sql::{Conn, Wire};
use anyhow::{Context, Result};
use postgres::types::ToSql;
use serde_json::Value;
use uuid::Uuid;

use crate::db::sql::{self, Kind, Param, Schema};

/// The tables that are big in production.
pub const BIG_TABLES: &[&str] = &[
    "deployments",
    "deployment_events",
    "jobs",
    "agent_job_results",
    "fleet_allocations",
    "application_instances",
];

/// One statement's plan, and the big tables it would scan sequentially.
#[derive(Debug, Clone)]
pub struct PlanCheck {
    pub name: String,
    pub seq_scans: Vec<String>,
    /// The server would JIT-compile it (EXPLAIN shows a `JIT` section: the
    /// plan costs more than `jit_above_cost` in a session with JIT on).
    /// The tool's sessions turn JIT off, but a plan that costly is a plan
    /// that reads far more than an answer needs.
    pub jit: bool,
    /// The plan's estimated total cost.
    pub total_cost: f64,
    pub plan: Value,
}

/// Statements that read whole tables by design, with why: neither a
/// sequential scan nor a JIT-sized cost is a problem in them (the tool's
/// sessions run with JIT off; their cost is the price of the schema they
/// run on).
pub const READS_WHOLE_TABLES: &[(&str, &str)] = &[
    (
        "stuck/scan_without_indexes.sql",
        "runs only on a schema without the indexes stuck/scan.sql probes, and reads each table \
         once there, as psql's alert queries do",
    ),
    (
        "fleet/odd_allocations.sql",
        "runs only on a schema whose catalog lets fleet_allocations.status hold any value (no \
         CHECK as in the reference schema, or no NOT NULL): finding those values means reading \
         every allocation",
    ),
];

/// Statements whose work is, by design, the size of the text they write:
/// held to the sequential-scan check, not to the JIT-sized cost, with why.
pub const AS_COSTLY_AS_THEIR_TEXT: &[(&str, &str)] = &[(
    "diagnose/full_text_events.sql",
    "runs only when an operator asks for every payload whole (`diagnose --full-text`, README, \
     \"Huge text\"), one row per piece of each payload of the trail; the planner counts 1000 \
     pieces per event (generate_series' default estimate), which is what crosses the threshold",
)];

impl PlanCheck {
    /// This statement reads whole tables by design ([`READS_WHOLE_TABLES`]).
    pub fn reads_whole_tables(&self) -> bool {
        READS_WHOLE_TABLES
            .iter()
            .any(|(path, _)| self.name.starts_with(path))
    }

    /// This statement costs what the text it writes does
    /// ([`AS_COSTLY_AS_THEIR_TEXT`]).
    pub fn as_costly_as_its_text(&self) -> bool {
        AS_COSTLY_AS_THEIR_TEXT
            .iter()
            .any(|(path, _)| self.name.starts_with(path))
    }

    /// The plan would be JIT-compiled, and that is a problem for it.
    pub fn jit_problem(&self) -> bool {
        self.jit && !self.reads_whole_tables() && !self.as_costly_as_its_text()
    }

    /// What is wrong with this plan, if anything.
    pub fn problems(&self) -> Vec<String> {
        let mut problems: Vec<String> = if self.reads_whole_tables() {
            Vec::new()
        } else {
            self.seq_scans
                .iter()
                .map(|table| format!("Seq Scan on {table}"))
                .collect()
        };
        if self.jit_problem() {
            problems.push(format!("JIT-compiled (cost {:.0})", self.total_cost));
        }
        problems
    }
}

/// A sample value for a parameter of `kind`, about `deployment`. `present`:
/// an optional parameter is given (else NULL).
fn sample(kind: Param, deployment: Uuid, present: bool) -> Box<dyn ToSql + Sync> {
    match kind {
        Param::Uuid => Box::new(deployment),
        Param::UuidArray => Box::new(vec![deployment]),
        Param::Text => Box::new("pl1-00000000000000000000000000000000".to_string()),
        // The inventory's table and column names, and table oids.
        Param::TextArray => Box::new(vec!["deployments".to_string()]),
        Param::Int8Array => Box::new(vec![0i64]),
        Param::OptText => Box::new(present.then(|| "edge".to_string())),
        Param::Bool => Box::new(false),
        Param::OptBool => Box::new(present.then_some(true)),
        Param::Int4 => Box::new(8i32),
        // Milliseconds: the alerts' and the staleness thresholds.
        Param::Int8 => Box::new(120_000i64),
        // A limit (the last 20 events) or an age in milliseconds.
        Param::OptInt8 => Box::new(present.then_some(20i64)),
        Param::OptUuid => Box::new(present.then_some(deployment)),
        Param::Timestamptz => Box::new(chrono::Utc::now()),
        Param::OptTimestamptz => Box::new(present.then(chrono::Utc::now)),
        Param::Json => Box::new(serde_json::json!({"reason": "INC-1 explain"})),
    }
}

/// EXPLAINs every query of the SQL registry (`db::sql::ALL`, kind `Query`)
/// as the tool runs it (rendered for `schema`) with realistic parameters
/// for `deployment`; a statement with optional parameters twice, with them
/// absent and present.
pub fn explain_all(
    client: &mut impl Conn,
    schema: &Schema,
    deployment: Uuid,
) -> Result<Vec<PlanCheck>> {
    let mut checks = Vec::new();
    for statement in sql::ALL.iter().filter(|s| s.kind == Kind::Query) {
        let optional = statement
            .params
            .iter()
            .any(|p| matches!(p, Param::OptText | Param::OptBool | Param::OptInt8));
        let variants: &[bool] = if optional { &[false, true] } else { &[false] };
        for &present in variants {
            let values: Vec<Box<dyn ToSql + Sync>> = statement
                .params
                .iter()
                .map(|&p| sample(p, deployment, present))
                .collect();
            let values: Vec<&(dyn ToSql + Sync)> = values.iter().map(|v| v.as_ref()).collect();
            // Typed as the tool sends them (Statement::query).
            let params = statement.typed(&values);
            let name = if optional {
                format!(
                    "{} ({})",
                    statement.path,
                    if present {
                        "with options"
                    } else {
                        "without options"
                    }
                )
            } else {
                statement.path.to_string()
            };
            let row = Wire::query_typed(
                client.client(),
                &format!("EXPLAIN (FORMAT JSON) {}", statement.sql(schema)),
                &params,
            )
            .with_context(|| format!("EXPLAIN {name}"))?
            .into_iter()
            .next()
            .with_context(|| format!("EXPLAIN {name} returned no plan"))?;
            let plan: Value = row.get(0);
            let mut seq_scans = Vec::new();
            collect_seq_scans(&plan, &mut seq_scans);
            let top = &plan[0];
            checks.push(PlanCheck {
                name,
                seq_scans,
                jit: top.get("JIT").is_some(),
                total_cost: top["Plan"]["Total Cost"].as_f64().unwrap_or(f64::NAN),
                plan,
            });
        }
    }
    Ok(checks)
}

fn collect_seq_scans(node: &Value, out: &mut Vec<String>) {
    match node {
        Value::Object(map) => {
            if map.get("Node Type").and_then(Value::as_str) == Some("Seq Scan")
                && let Some(relation) = map.get("Relation Name").and_then(Value::as_str)
                && BIG_TABLES.contains(&relation)
            {
                out.push(relation.to_string());
            }
            for value in map.values() {
                collect_seq_scans(value, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_seq_scans(v, out)),
        _ => {}
    }
}

#[cfg(test)]
#[path = "plans_tests.rs"]
mod tests;
