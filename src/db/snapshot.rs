//! The read side: every runbook query of one deployment, as typed rows.
//!
//! `diagnose` reads it inside one `REPEATABLE READ READ ONLY` transaction
//! (`session::read_only`), so all sections describe one instant.
//! `fail-safely` reads the same rows with the deployment, its jobs and its
//! instances locked `FOR UPDATE` ([`Mode::Locked`]), and decides from that.

use anyhow::{Context, Result};
use postgres::{GenericClient, Row};
use uuid::Uuid;

use super::sql::{Schema, Statement, diagnose, fail_safely};
use crate::exit;
use crate::model::{
    Allocation, Deployment, DeploymentSnapshot, Event, Instance, Job, JobResult, NetworkAttachment,
    Node, ReadInfo, ReleaseArtifact, Route, SourceSnapshot,
};

/// How the rows of the deployment, its jobs and its instances are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Plain reads (inside diagnose's read-only snapshot).
    Plain,
    /// `FOR UPDATE`, in this order: deployment, jobs, instances.
    Locked,
}

/// The rows of one section, each made into `T`.
fn rows<T>(
    client: &mut impl GenericClient,
    schema: &Schema,
    statement: &Statement,
    id: Uuid,
    from: impl Fn(&Row) -> T,
) -> Result<Vec<T>> {
    Ok(client
        .query(&statement.sql(schema), &[&id])
        .with_context(|| format!("reading deployment {id} (sql/{})", statement.path))?
        .iter()
        .map(from)
        .collect())
}

/// Reads everything about `id`. `events_limit` keeps only the last N events
/// (the count of all is always read). Not found is exit 3.
pub fn load(
    client: &mut impl GenericClient,
    schema: &Schema,
    id: Uuid,
    events_limit: Option<usize>,
    mode: Mode,
) -> Result<DeploymentSnapshot> {
    let info = read_info(&client.query_one(diagnose::SERVER.text, &[])?);
    let (deployment_sql, jobs_sql, instances_sql) = match mode {
        Mode::Plain => (&diagnose::DEPLOYMENT, &diagnose::JOBS, &diagnose::INSTANCES),
        Mode::Locked => (
            &fail_safely::LOCK_DEPLOYMENT,
            &fail_safely::LOCK_JOBS,
            &fail_safely::LOCK_INSTANCES,
        ),
    };
    let deployment = client
        .query_opt(&deployment_sql.sql(schema), &[&id])
        .with_context(|| format!("reading deployment {id}"))?
        .map(|row| deployment_from(&row))
        .ok_or_else(|| exit::not_found(format!("deployment {id} does not exist")))?;
    let jobs = rows(client, schema, jobs_sql, id, job_from)?;
    let instances = rows(client, schema, instances_sql, id, instance_from)?;
    let (events, events_total) = events(client, schema, id, events_limit)?;
    Ok(DeploymentSnapshot {
        snapshot: info,
        deployment,
        events,
        events_total,
        jobs,
        results: rows(client, schema, &diagnose::RESULTS, id, result_from)?,
        source_snapshots: rows(client, schema, &diagnose::SOURCE_SNAPSHOTS, id, |row| {
            SourceSnapshot {
                id: row.get("id"),
                verified_at: row.get("verified_at"),
            }
        })?,
        release_artifacts: rows(client, schema, &diagnose::RELEASE_ARTIFACTS, id, |row| {
            ReleaseArtifact {
                id: row.get("id"),
                image: row.get("image"),
            }
        })?,
        instances,
        allocations: rows(client, schema, &diagnose::ALLOCATIONS, id, allocation_from)?,
        routes: rows(client, schema, &diagnose::ROUTES, id, |row| Route {
            hostname: row.get("hostname"),
            route_generation: row.get("route_generation"),
            status: row.get("status"),
        })?,
        network_attachments: rows(client, schema, &diagnose::NETWORK_ATTACHMENTS, id, |row| {
            NetworkAttachment {
                id: row.get("id"),
                segment: row.get("segment"),
                node_id: row.get("node_id"),
                created_at: row.get("created_at"),
            }
        })?,
        nodes: rows(client, schema, &diagnose::NODES, id, node_from)?,
    })
}

/// The last `limit` events (all without one), oldest first, and the count
/// of all of them.
fn events(
    client: &mut impl GenericClient,
    schema: &Schema,
    id: Uuid,
    limit: Option<usize>,
) -> Result<(Vec<Event>, i64)> {
    let limit = limit.map(|n| i64::try_from(n).unwrap_or(i64::MAX));
    let mut events: Vec<Event> = client
        .query(&diagnose::EVENTS.sql(schema), &[&id, &limit])
        .with_context(|| format!("reading the events of deployment {id}"))?
        .iter()
        .map(|row| Event {
            sequence: row.get("sequence"),
            id: row.get("id"),
            kind: row.get("kind"),
            occurred_at: row.get("occurred_at"),
            payload: row.get("payload"),
        })
        .collect();
    events.reverse();
    let total = match limit {
        None => events.len() as i64,
        Some(_) => client
            .query_one(&diagnose::EVENTS_TOTAL.sql(schema), &[&id])
            .with_context(|| format!("counting the events of deployment {id}"))?
            .get(0),
    };
    Ok((events, total))
}

/// The server row (`sql/diagnose/00_server.sql`): the read's instant, and
/// whether a standby answered (its replay lag in whole seconds).
pub fn read_info(row: &Row) -> ReadInfo {
    ReadInfo {
        at: row.get("at"),
        in_recovery: row.get("in_recovery"),
        replay_lag_seconds: row
            .get::<_, Option<f64>>("replay_lag_seconds")
            .map(|lag| lag.max(0.0).floor() as i64),
        server_version: row.get("server_version"),
        isolation: row.get("isolation"),
        read_only: row.get("read_only"),
    }
}

fn deployment_from(row: &Row) -> Deployment {
    Deployment {
        id: row.get("id"),
        org_id: row.get("org_id"),
        status: row.get("status"),
        created_at: row.get("created_at"),
        updated_at: row.get("updated_at"),
    }
}

fn job_from(row: &Row) -> Job {
    Job {
        id: row.get("id"),
        kind: row.get("kind"),
        status: row.get("status"),
        target_node_id: row.get("target_node_id"),
        attempt: row.get("attempt"),
        max_attempts: row.get("max_attempts"),
        available_at: row.get("available_at"),
        lease_expires_at: row.get("lease_expires_at"),
        last_error: row.get("last_error"),
        has_lease_token: row.get("has_lease_token"),
        created_at: row.get("created_at"),
        updated_at: row.get("updated_at"),
    }
}

fn instance_from(row: &Row) -> Instance {
    Instance {
        id: row.get("id"),
        role_name: row.get("role_name"),
        status: row.get("status"),
        active_node_id: row.get("active_node_id"),
        generation: row.get("generation"),
    }
}

fn result_from(row: &Row) -> JobResult {
    JobResult {
        id: row.get("id"),
        job_id: row.get("job_id"),
        reported_at: row.get("reported_at"),
        kind: row.get("kind"),
        node_id: row.get("node_id"),
        attempt: row.get("attempt"),
        outcome: row.get("outcome"),
        output: row.get("output"),
    }
}

fn allocation_from(row: &Row) -> Allocation {
    Allocation {
        id: row.get("id"),
        node_id: row.get("node_id"),
        resource_kind: row.get("resource_kind"),
        resource_id: row.get("resource_id"),
        status: row.get("status"),
        created_at: row.get("created_at"),
        released_at: row.get("released_at"),
    }
}

/// A `fleet_nodes` row (the columns of `sql/diagnose/12_nodes.sql`, which
/// `sql/fleet/list.sql` also returns).
pub fn node_from(row: &Row) -> Node {
    Node {
        id: row.get("id"),
        name: row.get("name"),
        pool: row.get("pool"),
        status: row.get("status"),
        schedulable: row.get("schedulable"),
        slots: row.get("slots"),
        last_seen_at: row.get("last_seen_at"),
        heartbeat_age_seconds: row.get("heartbeat_age_seconds"),
    }
}

/// Reads one deployment in one read-only snapshot (id or prefix).
pub fn read(
    client: &mut postgres::Client,
    schema: &Schema,
    deployment: &str,
    events_limit: Option<usize>,
) -> Result<DeploymentSnapshot> {
    let mut tx = super::session::read_only(client)?;
    let id = super::resolve::resolve(&mut tx, schema, deployment)?;
    let snapshot = load(&mut tx, schema, id, events_limit, Mode::Plain)
        .with_context(|| format!("diagnosing deployment {id}"))?;
    // Nothing was written; ending the transaction either way is the same.
    tx.rollback()?;
    Ok(snapshot)
}
