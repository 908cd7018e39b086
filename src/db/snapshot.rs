//! The read side: every runbook query of one deployment, as typed rows.
//!
//! `sql/diagnose/snapshot.sql` reads all of it in one statement, one
//! snapshot. `diagnose` sends it in one flight with its transaction's
//! first message and COMMIT (`db::reading`): one round trip. `fail-safely`
//! first locks the deployment, its jobs and its instances `FOR UPDATE` and
//! then runs it in the same transaction ([`load_locked`]), and decides
//! from that.

use anyhow::{Context, Result, anyhow};
use postgres::Row;
use uuid::Uuid;

use super::columns::{Columns, RowReader, json_rows};
use super::deployment_id;
use super::sql::{Conn, Schema, diagnose, fail_safely};
use super::text::json_text;
use crate::db_failure::DbError;
use crate::exit;
use crate::model::{
    Allocation, Deployment, DeploymentSnapshot, Event, Instance, Job, JobKind, JobResult,
    NetworkAttachment, Node, ReadInfo, ReleaseArtifact, Route, RowSecurity, SourceSnapshot,
    Warning,
};

/// A table that is not there, in the words of [`deployment_id::missing_table`].
pub(super) fn missing(err: anyhow::Error, schema: &Schema) -> anyhow::Error {
    match err.downcast::<DbError>() {
        Ok(pg) => deployment_id::missing_table(pg, schema),
        Err(other) => other,
    }
}

/// The one deployment the snapshot's `candidates` name.
pub(super) fn chosen(row: &Row, low: Uuid, prefix: Option<&str>) -> Result<Uuid> {
    let candidates: Vec<Uuid> = row
        .try_get("candidates")
        .context("reading the candidates")?;
    deployment_id::choose(&candidates, low, prefix)
}

/// The snapshot's statement inside the caller's read-only transaction
/// (which is already open: the write path's re-read).
pub fn read_in(
    tx: &mut impl Conn,
    schema: &Schema,
    deployment: &str,
    events_limit: Option<usize>,
) -> Result<DeploymentSnapshot> {
    let (low, high, prefix) = deployment_id::range(deployment)?;
    let limit = limit(events_limit);
    let row = diagnose::SNAPSHOT
        .query_one(tx, schema, &[&low, &high, &limit])
        .context("reading (sql/diagnose/snapshot.sql)")
        .map_err(|err| missing(err, schema))?;
    let id = chosen(&row, low, prefix.as_deref())?;
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
/// elements one event's; oldest first once sorted here. A NULL element
/// where the reference schema says NOT NULL is a placeholder (the payload
/// JSON null, the time none) and a warning naming the event.
fn events_from(row: &Row, nulls: &mut Vec<Warning>) -> Result<Vec<Event>> {
    fn column<T: for<'a> postgres::types::FromSql<'a>>(
        row: &Row,
        name: &str,
    ) -> Result<Vec<Option<T>>> {
        Ok(row
            .try_get::<_, Option<Vec<Option<T>>>>(name)
            .with_context(|| format!("reading column {name}"))?
            .unwrap_or_default())
    }
    let sequences: Vec<Option<i64>> = column(row, "event_sequences")?;
    let ids: Vec<Option<Uuid>> = column(row, "event_ids")?;
    let kinds: Vec<Option<String>> = column(row, "event_kinds")?;
    let times: Vec<Option<chrono::DateTime<chrono::Utc>>> = column(row, "event_times")?;
    let payloads: Vec<Option<String>> = column(row, "event_payloads")?;
    let lengths: Vec<Option<i64>> = column(row, "event_payload_lengths")?;
    let cuts: Vec<Option<bool>> = column(row, "event_payload_cuts")?;
    let n = sequences.len();
    let columns = [ids.len(), kinds.len(), times.len(), payloads.len()];
    if columns != [n; 4] || [lengths.len(), cuts.len()] != [n; 2] {
        return Err(anyhow!("the event columns differ in length"));
    }
    let mut events = Vec::with_capacity(n);
    let payloads = payloads.into_iter().zip(lengths).zip(cuts);
    for ((((sequence, id), kind), occurred_at), ((payload, length), cut)) in sequences
        .into_iter()
        .zip(ids)
        .zip(kinds)
        .zip(times)
        .zip(payloads)
    {
        let id = id.unwrap_or_default();
        let row = id.to_string();
        let mut null = |column: &str| nulls.push(Warning::null(EVENTS, column, &row));
        if sequence.is_none() {
            null("sequence");
        }
        if kind.is_none() {
            null("kind");
        }
        if occurred_at.is_none() {
            null("occurred_at");
        }
        if payload.is_none() {
            null("payload");
        }
        let cut = cut.unwrap_or(false);
        events.push(Event {
            sequence: sequence.unwrap_or(0),
            id,
            kind: kind.unwrap_or_else(|| "NULL".to_string()),
            occurred_at,
            payload: json_text(payload, cut)?,
            payload_length: length,
            payload_cut: cut,
        });
    }
    events.sort_by_key(|event| event.sequence);
    Ok(events)
}

pub(super) const EVENTS: &str = "deployment_events";

pub(super) fn limit(events_limit: Option<usize>) -> Option<i64> {
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
pub(super) fn from_row(row: &Row, limit: Option<i64>) -> Result<DeploymentSnapshot> {
    let sections: Vec<(&str, Option<serde_json::Value>)> = SECTIONS
        .iter()
        .map(|name| Ok((*name, row.col(&format!("{name}_rows"))?)))
        .collect::<Result<_>>()?;
    let section = |name: &str| -> Option<&serde_json::Value> {
        sections
            .iter()
            .find(|(n, _)| *n == name)
            .and_then(|(_, v)| v.as_ref())
    };
    let mut nulls = Vec::new();
    let w = &mut nulls;
    let deployment = json_rows(section("deployment"), |r| deployment_from(r, w))?
        .into_iter()
        .next()
        .ok_or_else(|| anyhow!("the deployment row is missing"))?;
    let events = events_from(row, w)?;
    let events_total = match limit {
        None => events.len() as i64,
        Some(_) => row.col("events_total")?,
    };
    let jobs = json_rows(section("jobs"), |r| job_from(r, w))?;
    let results = json_rows(section("results"), |r| result_from(r, w))?;
    let source_snapshots = json_rows(section("source_snapshots"), |r| {
        Ok(SourceSnapshot {
            id: r.col("id")?,
            verified_at: r.col("verified_at")?,
        })
    })?;
    let release_artifacts = json_rows(section("release_artifacts"), |r| {
        let mut r = RowReader::new(r, "release_artifacts", "id", w)?;
        Ok(ReleaseArtifact {
            id: r.col("id")?,
            image: r.required("image")?,
        })
    })?;
    let instances = json_rows(section("instances"), |r| instance_from(r, w))?;
    let allocations = json_rows(section("allocations"), |r| allocation_from(r, w))?;
    let routes = json_rows(section("routes"), |r| route_from(r, w))?;
    let network_attachments = json_rows(section("network_attachments"), |r| {
        let mut r = RowReader::new(r, "network_attachments", "id", w)?;
        Ok(NetworkAttachment {
            id: r.col("id")?,
            segment: r.required("segment")?,
            node_id: r.col("node_id")?,
            created_at: r.required("created_at")?,
        })
    })?;
    let nodes = json_rows(section("nodes"), |r| node_from(r, w))?;
    Ok(DeploymentSnapshot {
        snapshot: read_info(row)?,
        deployment,
        events,
        events_total,
        jobs,
        results,
        source_snapshots,
        release_artifacts,
        instances,
        allocations,
        routes,
        network_attachments,
        nodes,
        nulls,
    })
}

/// The server columns every one-statement read returns (e.g.
/// `sql/diagnose/snapshot.sql`): the read's instant, and whether a standby
/// answered (its replay lag in whole seconds).
pub fn read_info(row: &impl Columns) -> Result<ReadInfo> {
    let policies: Vec<RowSecurity> = match row
        .col::<Option<serde_json::Value>>("row_security_detail")?
    {
        Some(detail) => serde_json::from_value(detail).context("reading row_security_detail")?,
        None => Vec::new(),
    };
    Ok(ReadInfo {
        at: row.col("at")?,
        in_recovery: row.col("in_recovery")?,
        replay_lag_seconds: row
            .col::<Option<f64>>("replay_lag_seconds")?
            .map(|lag| lag.max(0.0).floor() as i64),
        replay_paused: row.col("replay_paused")?,
        server_version: row.col("server_version")?,
        isolation: row.col("isolation")?,
        read_only: row.col("read_only")?,
        row_security: policies.iter().map(|p| p.table.clone()).collect(),
        row_security_policies: policies,
        role: row.col("reading_role")?,
    })
}

fn deployment_from(row: &impl Columns, w: &mut Vec<Warning>) -> Result<Deployment> {
    let mut r = RowReader::new(row, "deployments", "id", w)?;
    Ok(Deployment {
        id: r.col("id")?,
        org_id: r.or_unknown("org_id")?,
        status: r.required("status")?,
        created_at: r.required("created_at")?,
        updated_at: r.required("updated_at")?,
    })
}

fn job_from(row: &impl Columns, w: &mut Vec<Warning>) -> Result<Job> {
    let mut r = RowReader::new(row, "jobs", "id", w)?;
    Ok(Job {
        id: r.col("id")?,
        kind: r.required("kind")?,
        status: r.required("status")?,
        target_node_id: r.col("target_node_id")?,
        attempt: r.required("attempt")?,
        max_attempts: r.required("max_attempts")?,
        available_at: r.required("available_at")?,
        lease_expires_at: r.col("lease_expires_at")?,
        last_error: r.col("last_error")?,
        last_error_length: r.col("last_error_length")?,
        last_error_cut: r.col::<Option<bool>>("last_error_cut")?.unwrap_or(false),
        has_lease_token: r.col("has_lease_token")?,
        created_at: r.required("created_at")?,
        updated_at: r.required("updated_at")?,
    })
}

fn instance_from(row: &impl Columns, w: &mut Vec<Warning>) -> Result<Instance> {
    let mut r = RowReader::new(row, "application_instances", "id", w)?;
    Ok(Instance {
        id: r.col("id")?,
        role_name: r.required("role_name")?,
        status: r.required("status")?,
        active_node_id: r.col("active_node_id")?,
        generation: r.required("generation")?,
    })
}

fn result_from(row: &impl Columns, w: &mut Vec<Warning>) -> Result<JobResult> {
    let mut r = RowReader::new(row, "agent_job_results", "id", w)?;
    let output_cut = r.col::<Option<bool>>("output_cut")?.unwrap_or(false);
    Ok(JobResult {
        id: r.col("id")?,
        job_id: r.required("job_id")?,
        reported_at: r.required("reported_at")?,
        // The job's kind (its NULL is the job's warning).
        kind: r.col::<Option<JobKind>>("kind")?.unwrap_or(JobKind::Null),
        node_id: r.required("node_id")?,
        attempt: r.required("attempt")?,
        outcome: r.required("outcome")?,
        output: json_text(r.or_unknown("output")?, output_cut)?,
        output_length: r.col("output_length")?,
        output_cut,
    })
}

fn allocation_from(row: &impl Columns, w: &mut Vec<Warning>) -> Result<Allocation> {
    let mut r = RowReader::new(row, "fleet_allocations", "id", w)?;
    Ok(Allocation {
        id: r.col("id")?,
        node_id: r.required("node_id")?,
        resource_kind: r.required("resource_kind")?,
        resource_id: r.required("resource_id")?,
        status: r.required("status")?,
        created_at: r.required("created_at")?,
        released_at: r.col("released_at")?,
    })
}

fn route_from(row: &impl Columns, w: &mut Vec<Warning>) -> Result<Route> {
    let hostname: Option<String> = row.col("hostname")?;
    let generation: Option<i32> = row.col("route_generation")?;
    let id = format!(
        "{}/{}",
        hostname.as_deref().unwrap_or("NULL"),
        generation.map_or_else(|| "NULL".to_string(), |g| g.to_string())
    );
    let mut r = RowReader::with_id(row, "ingress_analytics_routes", id, w);
    Ok(Route {
        hostname: r.required("hostname")?,
        route_generation: r.required("route_generation")?,
        status: r.required("status")?,
    })
}

/// A `fleet_nodes` row (the columns of the nodes in `sql/diagnose/snapshot.sql`, which
/// `sql/fleet/list.sql` also returns). NULLs become warnings in `w`.
pub fn node_from(row: &impl Columns, w: &mut Vec<Warning>) -> Result<Node> {
    let mut r = RowReader::new(row, "fleet_nodes", "id", w)?;
    Ok(Node {
        id: r.col("id")?,
        name: r.required("name")?,
        pool: r.or_unknown("pool")?,
        status: r.required("status")?,
        schedulable: r.required("schedulable")?,
        slots: r.required("slots")?,
        last_seen_at: r.col("last_seen_at")?,
        // A heartbeat ahead of the server's clock is seen just now, never
        // a negative age (the clock skew is reported on its own).
        heartbeat_age_seconds: r
            .col::<Option<i64>>("heartbeat_age_seconds")?
            .map(|age| age.max(0)),
    })
}
