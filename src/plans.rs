//! Every statement the tool runs, for the EXPLAIN check: none of them may
//! read a big table with a sequential scan (the benchmark at production
//! size, and a test with sequential scans disabled, both hold us to it).

use anyhow::{Context, Result};
use postgres::GenericClient;
use postgres::types::ToSql;
use serde_json::Value;
use uuid::Uuid;

use crate::commands::{fail_safely, fleet, stuck};
use crate::snapshot::sql;

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
    pub name: &'static str,
    pub seq_scans: Vec<String>,
    pub plan: Value,
}

/// EXPLAINs every statement with realistic parameters for `deployment`.
pub fn explain_all(client: &mut impl GenericClient, deployment: Uuid) -> Result<Vec<PlanCheck>> {
    let id = deployment;
    let low = id;
    let high = id;
    let all_events: Option<i64> = None;
    let last_events: Option<i64> = Some(20);
    let key = "pl1-00000000000000000000000000000000".to_string();
    let kind = "operator_failed".to_string();
    let text = "x".to_string();
    let operator: Option<bool> = None;
    let no_filter: Option<String> = None;
    let not_stale_only = false;
    let stale_after_ms: i64 = 120_000;
    let stuck_after_ms: i64 = 1_800_000;
    let grace_ms: i64 = 60_000;
    let one: &[&(dyn ToSql + Sync)] = &[&id];
    let statements: Vec<(&'static str, &str, Vec<&(dyn ToSql + Sync)>)> = vec![
        ("resolve_deployment", sql::RESOLVE, vec![&low, &high]),
        ("diagnose/deployment", sql::DEPLOYMENT, one.to_vec()),
        ("diagnose/events (all)", sql::EVENTS, vec![&id, &all_events]),
        (
            "diagnose/events (last 20)",
            sql::EVENTS,
            vec![&id, &last_events],
        ),
        ("diagnose/events_total", sql::EVENTS_TOTAL, one.to_vec()),
        ("diagnose/jobs", sql::JOBS, one.to_vec()),
        ("diagnose/results", sql::RESULTS, one.to_vec()),
        (
            "diagnose/source_snapshots",
            sql::SOURCE_SNAPSHOTS,
            one.to_vec(),
        ),
        (
            "diagnose/release_artifacts",
            sql::RELEASE_ARTIFACTS,
            one.to_vec(),
        ),
        ("diagnose/instances", sql::INSTANCES, one.to_vec()),
        ("diagnose/allocations", sql::ALLOCATIONS, one.to_vec()),
        ("diagnose/routes", sql::ROUTES, one.to_vec()),
        (
            "diagnose/network_attachments",
            sql::NETWORK_ATTACHMENTS,
            one.to_vec(),
        ),
        ("diagnose/nodes", sql::NODES, one.to_vec()),
        (
            "fail-safely/lock_deployment",
            sql::LOCK_DEPLOYMENT,
            one.to_vec(),
        ),
        ("fail-safely/lock_jobs", sql::LOCK_JOBS, one.to_vec()),
        (
            "fail-safely/lock_instances",
            sql::LOCK_INSTANCES,
            one.to_vec(),
        ),
        (
            "fail-safely/find_idempotency_key",
            fail_safely::sql::FIND_IDEMPOTENCY_KEY,
            vec![&key],
        ),
        (
            "fail-safely/mark_failed",
            fail_safely::sql::MARK_FAILED,
            one.to_vec(),
        ),
        (
            "fail-safely/request_teardown",
            fail_safely::sql::REQUEST_TEARDOWN,
            one.to_vec(),
        ),
        (
            "fail-safely/append_event",
            fail_safely::sql::APPEND_EVENT,
            vec![
                &id, &kind, &text, &operator, &key, &text, &text, &text, &text,
            ],
        ),
        (
            "fleet list",
            fleet::FLEET_LIST,
            vec![&no_filter, &no_filter, &not_stale_only, &stale_after_ms],
        ),
        (
            "stuck/deployments",
            stuck::STUCK_DEPLOYMENTS,
            vec![&stuck_after_ms],
        ),
        ("stuck/leases", stuck::STUCK_LEASES, vec![&grace_ms]),
    ];
    let mut checks = Vec::new();
    for (name, statement, params) in statements {
        let row = client
            .query_one(&format!("EXPLAIN (FORMAT JSON) {statement}"), &params)
            .with_context(|| format!("EXPLAIN {name}"))?;
        let plan: Value = row.get(0);
        let mut seq_scans = Vec::new();
        collect_seq_scans(&plan, &mut seq_scans);
        checks.push(PlanCheck {
            name,
            seq_scans,
            plan,
        });
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
mod tests {
    use super::*;

    #[test]
    fn seq_scans_on_big_tables_are_found_anywhere_in_the_plan() {
        let plan = serde_json::json!([{"Plan": {"Node Type": "Nested Loop", "Plans": [
            {"Node Type": "Index Scan", "Relation Name": "deployments"},
            {"Node Type": "Seq Scan", "Relation Name": "deployment_events"},
            {"Node Type": "Seq Scan", "Relation Name": "fleet_nodes"}
        ]}}]);
        let mut found = Vec::new();
        collect_seq_scans(&plan, &mut found);
        assert_eq!(found, vec!["deployment_events".to_string()]);
    }
}
