//! The read side: every runbook query of one deployment, as typed rows.
//!
//! `sql/diagnose/snapshot.sql` reads all of it in one statement: one round
//! trip, one snapshot. `diagnose` runs it as a read-only transaction of its
//! own ([`read`]); `fail-safely` first locks the deployment, its jobs and
//! its instances `FOR UPDATE` and then runs it in the same transaction
//! ([`load_locked`]), and decides from that.

use anyhow::{Context, Result, anyhow};
use postgres::Row;
use uuid::Uuid;

use super::columns::{Columns, json_rows};
use super::resolve;
use super::session::Session;
use super::sql::{Conn, Schema, diagnose, fail_safely};
use crate::exit;
use crate::model::{
    Allocation, Deployment, DeploymentSnapshot, Event, Instance, Job, JobResult, NetworkAttachment,
    Node, ReadInfo, ReleaseArtifact, Route, SourceSnapshot,
};

/// Reads one deployment (id or prefix) in one read-only snapshot: one
/// statement in a pinned transaction (`Session::read`). `events_limit` keeps only the last
/// N events (the count of all is always read). Not found is exit 3, an
/// ambiguous prefix exit 2.
pub fn read(
    session: &mut Session,
    schema: &Schema,
    deployment: &str,
    events_limit: Option<usize>,
) -> Result<DeploymentSnapshot> {
    let (low, high, prefix) = resolve::range(deployment)?;
    let limit = limit(events_limit);
    let row = session
        .read(|tx| {
            diagnose::SNAPSHOT
                .query_one(tx, schema, &[&low, &high, &limit])
                .context("reading (sql/diagnose/snapshot.sql)")
        })
        .map_err(|err| match err.downcast::<postgres::Error>() {
            Ok(pg) => resolve::missing_table(pg, schema),
            Err(other) => other,
        })?;
    let candidates: Vec<Uuid> = row
        .try_get("candidates")
        .context("reading the candidates")?;
    let id = resolve::choose(&candidates, low, prefix.as_deref())?;
    from_row(&row, limit).with_context(|| format!("diagnosing deployment {id}"))
}

/// Reads everything about `id` inside the caller's transaction after
/// locking, in this order, the deployment, its jobs and its instances
/// `FOR UPDATE`. Not found is exit 3.
pub fn load_locked(
    client: &mut impl Conn,
    schema: &Schema,
    id: Uuid,
    events_limit: Option<usize>,
) -> Result<DeploymentSnapshot> {
    let locked = fail_safely::LOCK_DEPLOYMENT
        .query(client, schema, &[&id])
        .with_context(|| format!("locking deployment {id}"))?;
    if locked.is_empty() {
        return Err(exit::not_found(format!("deployment {id} does not exist")));
    }
    fail_safely::LOCK_JOBS
        .query(client, schema, &[&id])
        .with_context(|| format!("locking the jobs of deployment {id}"))?;
    fail_safely::LOCK_INSTANCES
        .query(client, schema, &[&id])
        .with_context(|| format!("locking the instances of deployment {id}"))?;
    let limit = limit(events_limit);
    let row = diagnose::SNAPSHOT
        .query_one(client, schema, &[&id, &id, &limit])
        .with_context(|| format!("reading deployment {id}"))?;
    from_row(&row, limit).with_context(|| format!("reading deployment {id}"))
}

/// The events: one array per column (NULL without events), the n-th
/// elements one event's; oldest first once sorted here.
fn events_from(row: &Row) -> Result<Vec<Event>> {
    fn column<T: for<'a> postgres::types::FromSql<'a>>(row: &Row, name: &str) -> Result<Vec<T>> {
        Ok(row
            .try_get::<_, Option<Vec<T>>>(name)
            .with_context(|| format!("reading column {name}"))?
            .unwrap_or_default())
    }
    let sequences: Vec<i64> = column(row, "event_sequences")?;
    let ids: Vec<Uuid> = column(row, "event_ids")?;
    let kinds: Vec<String> = column(row, "event_kinds")?;
    let times: Vec<chrono::DateTime<chrono::Utc>> = column(row, "event_times")?;
    let payloads: Vec<serde_json::Value> = column(row, "event_payloads")?;
    let n = sequences.len();
    if [ids.len(), kinds.len(), times.len(), payloads.len()] != [n; 4] {
        return Err(anyhow!("the event columns differ in length"));
    }
    let mut events: Vec<Event> = sequences
        .into_iter()
        .zip(ids)
        .zip(kinds)
        .zip(times)
        .zip(payloads)
        .map(|((((sequence, id), kind), occurred_at), payload)| Event {
            sequence,
            id,
            kind,
            occurred_at,
            payload,
        })
        .collect();
    events.sort_by_key(|event| event.sequence);
    Ok(events)
}

fn limit(events_limit: Option<usize>) -> Option<i64> {
    events_limit.map(|n| i64::try_from(n).unwrap_or(i64::MAX))
}

/// The sections of `sql/diagnose/snapshot.sql` that are a JSON column
/// `<section>_rows` (all but the events).
const SECTIONS: &[&str] = &[
    "deployment",
    "jobs",
    "results",
    "source_snapshots",
    "release_artifacts",
    "instances",
    "allocations",
    "routes",
    "network_attachments",
    "nodes",
];

/// The snapshot in the row of `sql/diagnose/snapshot.sql`.
fn from_row(row: &Row, limit: Option<i64>) -> Result<DeploymentSnapshot> {
    let sections: Vec<(&str, Option<serde_json::Value>)> = SECTIONS
        .iter()
        .map(|name| Ok((*name, row.col(&format!("{name}_rows"))?)))
        .collect::<Result<_>>()?;
    let section = |name: &str| -> Result<Option<&serde_json::Value>> {
        Ok(sections
            .iter()
            .find(|(n, _)| *n == name)
            .and_then(|(_, v)| v.as_ref()))
    };
    let deployment = json_rows(section("deployment")?, deployment_from)?
        .into_iter()
        .next()
        .ok_or_else(|| anyhow!("the deployment row is missing"))?;
    let events = events_from(row)?;
    let events_total = match limit {
        None => events.len() as i64,
        Some(_) => row.col("events_total")?,
    };
    Ok(DeploymentSnapshot {
        snapshot: read_info(row)?,
        deployment,
        events,
        events_total,
        jobs: json_rows(section("jobs")?, job_from)?,
        results: json_rows(section("results")?, result_from)?,
        source_snapshots: json_rows(section("source_snapshots")?, |row| {
            Ok(SourceSnapshot {
                id: row.col("id")?,
                verified_at: row.col("verified_at")?,
            })
        })?,
        release_artifacts: json_rows(section("release_artifacts")?, |row| {
            Ok(ReleaseArtifact {
                id: row.col("id")?,
                image: row.col("image")?,
            })
        })?,
        instances: json_rows(section("instances")?, instance_from)?,
        allocations: json_rows(section("allocations")?, allocation_from)?,
        routes: json_rows(section("routes")?, |row| {
            Ok(Route {
                hostname: row.col("hostname")?,
                route_generation: row.col("route_generation")?,
                status: row.col("status")?,
            })
        })?,
        network_attachments: json_rows(section("network_attachments")?, |row| {
            Ok(NetworkAttachment {
                id: row.col("id")?,
                segment: row.col("segment")?,
                node_id: row.col("node_id")?,
                created_at: row.col("created_at")?,
            })
        })?,
        nodes: json_rows(section("nodes")?, node_from)?,
    })
}

/// The server columns every one-statement read returns (e.g.
/// `sql/diagnose/snapshot.sql`): the read's instant, and whether a standby
/// answered (its replay lag in whole seconds).
pub fn read_info(row: &impl Columns) -> Result<ReadInfo> {
    Ok(ReadInfo {
        at: row.col("at")?,
        in_recovery: row.col("in_recovery")?,
        replay_lag_seconds: row
            .col::<Option<f64>>("replay_lag_seconds")?
            .map(|lag| lag.max(0.0).floor() as i64),
        server_version: row.col("server_version")?,
        isolation: row.col("isolation")?,
        read_only: row.col("read_only")?,
        row_security: row
            .col::<Option<Vec<String>>>("row_security")?
            .unwrap_or_default(),
    })
}

fn deployment_from(row: &impl Columns) -> Result<Deployment> {
    Ok(Deployment {
        id: row.col("id")?,
        org_id: row.col("org_id")?,
        status: row.col("status")?,
        created_at: row.col("created_at")?,
        updated_at: row.col("updated_at")?,
    })
}

fn job_from(row: &impl Columns) -> Result<Job> {
    Ok(Job {
        id: row.col("id")?,
        kind: row.col("kind")?,
        status: row.col("status")?,
        target_node_id: row.col("target_node_id")?,
        attempt: row.col("attempt")?,
        max_attempts: row.col("max_attempts")?,
        available_at: row.col("available_at")?,
        lease_expires_at: row.col("lease_expires_at")?,
        last_error: row.col("last_error")?,
        has_lease_token: row.col("has_lease_token")?,
        created_at: row.col("created_at")?,
        updated_at: row.col("updated_at")?,
    })
}

fn instance_from(row: &impl Columns) -> Result<Instance> {
    Ok(Instance {
        id: row.col("id")?,
        role_name: row.col("role_name")?,
        status: row.col("status")?,
        active_node_id: row.col("active_node_id")?,
        generation: row.col("generation")?,
    })
}

fn result_from(row: &impl Columns) -> Result<JobResult> {
    Ok(JobResult {
        id: row.col("id")?,
        job_id: row.col("job_id")?,
        reported_at: row.col("reported_at")?,
        kind: row.col("kind")?,
        node_id: row.col("node_id")?,
        attempt: row.col("attempt")?,
        outcome: row.col("outcome")?,
        output: row.col("output")?,
    })
}

fn allocation_from(row: &impl Columns) -> Result<Allocation> {
    Ok(Allocation {
        id: row.col("id")?,
        node_id: row.col("node_id")?,
        resource_kind: row.col("resource_kind")?,
        resource_id: row.col("resource_id")?,
        status: row.col("status")?,
        created_at: row.col("created_at")?,
        released_at: row.col("released_at")?,
    })
}

/// A `fleet_nodes` row (the columns of the nodes in `sql/diagnose/snapshot.sql`, which
/// `sql/fleet/list.sql` also returns).
pub fn node_from(row: &impl Columns) -> Result<Node> {
    Ok(Node {
        id: row.col("id")?,
        name: row.col("name")?,
        pool: row.col("pool")?,
        status: row.col("status")?,
        schedulable: row.col("schedulable")?,
        slots: row.col("slots")?,
        last_seen_at: row.col("last_seen_at")?,
        heartbeat_age_seconds: row.col("heartbeat_age_seconds")?,
    })
}
