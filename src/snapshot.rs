//! The read side: every runbook query of one deployment, as typed rows.
//!
//! `diagnose` reads it inside one `REPEATABLE READ READ ONLY` transaction
//! ([`read_only_snapshot`]), so all sections describe one instant.
//! `fail-safely` reads the same rows with the deployment, its jobs and its
//! instances locked `FOR UPDATE` ([`Mode::Locked`]), and decides from that.

use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use postgres::{GenericClient, Row, Transaction};
use serde::Serialize;
use serde_json::Value;
use uuid::Uuid;

use crate::exit;
use crate::verdict::DeploymentStatus;

/// The SQL, one file per runbook section (SPEC.md: SQL lives in `sql/`).
pub mod sql {
    pub const SERVER: &str = include_str!("../sql/diagnose/00_server.sql");
    pub const DEPLOYMENT: &str = include_str!("../sql/diagnose/01_deployment.sql");
    pub const EVENTS: &str = include_str!("../sql/diagnose/02_events.sql");
    pub const EVENTS_TOTAL: &str = include_str!("../sql/diagnose/03_events_total.sql");
    pub const JOBS: &str = include_str!("../sql/diagnose/04_jobs.sql");
    pub const RESULTS: &str = include_str!("../sql/diagnose/05_results.sql");
    pub const SOURCE_SNAPSHOTS: &str = include_str!("../sql/diagnose/06_source_snapshots.sql");
    pub const RELEASE_ARTIFACTS: &str = include_str!("../sql/diagnose/07_release_artifacts.sql");
    pub const INSTANCES: &str = include_str!("../sql/diagnose/08_instances.sql");
    pub const ALLOCATIONS: &str = include_str!("../sql/diagnose/09_allocations.sql");
    pub const ROUTES: &str = include_str!("../sql/diagnose/10_routes.sql");
    pub const NETWORK_ATTACHMENTS: &str =
        include_str!("../sql/diagnose/11_network_attachments.sql");
    pub const NODES: &str = include_str!("../sql/diagnose/12_nodes.sql");
    pub const RESOLVE: &str = include_str!("../sql/resolve_deployment.sql");
    pub const LOCK_DEPLOYMENT: &str = include_str!("../sql/fail_safely/01_lock_deployment.sql");
    pub const LOCK_JOBS: &str = include_str!("../sql/fail_safely/02_lock_jobs.sql");
    pub const LOCK_INSTANCES: &str = include_str!("../sql/fail_safely/03_lock_instances.sql");
}

/// The one `now()` of the read, and what kind of server answered.
#[derive(Debug, Clone, Serialize)]
pub struct SnapshotInfo {
    pub at: DateTime<Utc>,
    pub in_recovery: bool,
    pub replay_lag_seconds: Option<f64>,
    pub server_version: String,
    pub isolation: String,
    pub read_only: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct Deployment {
    pub id: Uuid,
    pub org_id: Uuid,
    pub status: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl Deployment {
    pub fn status(&self) -> DeploymentStatus {
        DeploymentStatus::parse(&self.status)
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Event {
    pub sequence: i64,
    pub id: Uuid,
    pub kind: String,
    pub occurred_at: DateTime<Utc>,
    /// Without its `log` key (removed by the query itself).
    pub payload: Value,
}

#[derive(Debug, Clone, Serialize)]
pub struct Job {
    pub id: Uuid,
    pub kind: String,
    pub status: String,
    pub target_node_id: Option<Uuid>,
    pub attempt: i32,
    pub max_attempts: i32,
    pub available_at: DateTime<Utc>,
    pub lease_expires_at: Option<DateTime<Utc>>,
    pub last_error: Option<String>,
    pub has_lease_token: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

#[derive(Debug, Clone, Serialize)]
pub struct JobResult {
    pub id: Uuid,
    pub job_id: Uuid,
    pub reported_at: DateTime<Utc>,
    pub kind: String,
    pub node_id: Uuid,
    pub attempt: i32,
    pub outcome: String,
    /// Without its `log` key.
    pub output: Value,
}

#[derive(Debug, Clone, Serialize)]
pub struct SourceSnapshot {
    pub id: Uuid,
    pub verified_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ReleaseArtifact {
    pub id: Uuid,
    pub image: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Instance {
    pub id: Uuid,
    pub role_name: String,
    pub status: String,
    pub active_node_id: Option<Uuid>,
    pub generation: i32,
}

#[derive(Debug, Clone, Serialize)]
pub struct Allocation {
    pub id: Uuid,
    pub node_id: Uuid,
    pub resource_kind: String,
    pub resource_id: Uuid,
    pub status: String,
    pub created_at: DateTime<Utc>,
    pub released_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Route {
    pub hostname: String,
    pub route_generation: i32,
    pub status: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct NetworkAttachment {
    pub id: Uuid,
    pub segment: String,
    pub node_id: Option<Uuid>,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Node {
    pub id: Uuid,
    pub name: String,
    pub pool: String,
    pub status: String,
    pub schedulable: bool,
    pub slots: i32,
    pub last_seen_at: Option<DateTime<Utc>>,
    pub heartbeat_age_seconds: Option<f64>,
}

/// Everything the runbook's Diagnosis reads about one deployment.
#[derive(Debug, Clone, Serialize)]
pub struct Snapshot {
    pub snapshot: SnapshotInfo,
    pub deployment: Deployment,
    /// Oldest first. All of them, or the last N when asked for fewer.
    pub events: Vec<Event>,
    pub events_total: i64,
    pub jobs: Vec<Job>,
    pub results: Vec<JobResult>,
    pub source_snapshots: Vec<SourceSnapshot>,
    pub release_artifacts: Vec<ReleaseArtifact>,
    pub instances: Vec<Instance>,
    pub allocations: Vec<Allocation>,
    pub routes: Vec<Route>,
    pub network_attachments: Vec<NetworkAttachment>,
    pub nodes: Vec<Node>,
}

impl Snapshot {
    pub fn node(&self, id: Uuid) -> Option<&Node> {
        self.nodes.iter().find(|n| n.id == id)
    }

    /// A node's name, or its id when the row is missing.
    pub fn node_name(&self, id: Uuid) -> String {
        self.node(id)
            .map(|n| n.name.clone())
            .unwrap_or_else(|| id.to_string())
    }

    pub fn last_event(&self) -> Option<&Event> {
        self.events.last()
    }
}

/// How the rows of the deployment, its jobs and its instances are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Plain reads (inside diagnose's read-only snapshot).
    Plain,
    /// `FOR UPDATE`, in this order: deployment, jobs, instances.
    Locked,
}

/// Opens diagnose's transaction: one snapshot, and the database itself
/// refuses any write in it.
pub fn read_only_snapshot(client: &mut postgres::Client) -> Result<Transaction<'_>> {
    client
        .build_transaction()
        .isolation_level(postgres::IsolationLevel::RepeatableRead)
        .read_only(true)
        .start()
        .context("opening a read-only snapshot transaction")
}

/// Reads everything about `id`. `events_limit` keeps only the last N events
/// (the count of all is always read). Not found is exit 3.
pub fn load(
    client: &mut impl GenericClient,
    id: Uuid,
    events_limit: Option<usize>,
    mode: Mode,
) -> Result<Snapshot> {
    let server = client.query_one(sql::SERVER, &[])?;
    let settings = client.query_one(
        "SELECT current_setting('transaction_isolation'), current_setting('transaction_read_only') = 'on'",
        &[],
    )?;
    let info = SnapshotInfo {
        at: server.get("at"),
        in_recovery: server.get("in_recovery"),
        replay_lag_seconds: server.get("replay_lag_seconds"),
        server_version: server.get("server_version"),
        isolation: settings.get(0),
        read_only: settings.get(1),
    };

    let (deployment_sql, jobs_sql, instances_sql) = match mode {
        Mode::Plain => (sql::DEPLOYMENT, sql::JOBS, sql::INSTANCES),
        Mode::Locked => (sql::LOCK_DEPLOYMENT, sql::LOCK_JOBS, sql::LOCK_INSTANCES),
    };
    let deployment = client
        .query_opt(deployment_sql, &[&id])
        .with_context(|| format!("reading deployment {id}"))?
        .map(|row| deployment_from(&row))
        .ok_or_else(|| exit::not_found(format!("deployment {id} does not exist")))?;

    let jobs = client
        .query(jobs_sql, &[&id])
        .with_context(|| format!("reading the jobs of deployment {id}"))?
        .iter()
        .map(job_from)
        .collect();
    let instances = client
        .query(instances_sql, &[&id])
        .with_context(|| format!("reading the instances of deployment {id}"))?
        .iter()
        .map(|row| Instance {
            id: row.get("id"),
            role_name: row.get("role_name"),
            status: row.get("status"),
            active_node_id: row.get("active_node_id"),
            generation: row.get("generation"),
        })
        .collect();

    let limit = events_limit.map(|n| i64::try_from(n).unwrap_or(i64::MAX));
    let mut events: Vec<Event> = client
        .query(sql::EVENTS, &[&id, &limit])
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
    let events_total: i64 = if limit.is_none() {
        events.len() as i64
    } else {
        client.query_one(sql::EVENTS_TOTAL, &[&id])?.get(0)
    };

    let results = client
        .query(sql::RESULTS, &[&id])
        .with_context(|| format!("reading the agent results of deployment {id}"))?
        .iter()
        .map(|row| JobResult {
            id: row.get("id"),
            job_id: row.get("job_id"),
            reported_at: row.get("reported_at"),
            kind: row.get("kind"),
            node_id: row.get("node_id"),
            attempt: row.get("attempt"),
            outcome: row.get("outcome"),
            output: row.get("output"),
        })
        .collect();
    let source_snapshots = client
        .query(sql::SOURCE_SNAPSHOTS, &[&id])?
        .iter()
        .map(|row| SourceSnapshot {
            id: row.get("id"),
            verified_at: row.get("verified_at"),
        })
        .collect();
    let release_artifacts = client
        .query(sql::RELEASE_ARTIFACTS, &[&id])?
        .iter()
        .map(|row| ReleaseArtifact {
            id: row.get("id"),
            image: row.get("image"),
        })
        .collect();
    let allocations = client
        .query(sql::ALLOCATIONS, &[&id])?
        .iter()
        .map(|row| Allocation {
            id: row.get("id"),
            node_id: row.get("node_id"),
            resource_kind: row.get("resource_kind"),
            resource_id: row.get("resource_id"),
            status: row.get("status"),
            created_at: row.get("created_at"),
            released_at: row.get("released_at"),
        })
        .collect();
    let routes = client
        .query(sql::ROUTES, &[&id])?
        .iter()
        .map(|row| Route {
            hostname: row.get("hostname"),
            route_generation: row.get("route_generation"),
            status: row.get("status"),
        })
        .collect();
    let network_attachments = client
        .query(sql::NETWORK_ATTACHMENTS, &[&id])?
        .iter()
        .map(|row| NetworkAttachment {
            id: row.get("id"),
            segment: row.get("segment"),
            node_id: row.get("node_id"),
            created_at: row.get("created_at"),
        })
        .collect();
    let nodes = client
        .query(sql::NODES, &[&id])
        .with_context(|| format!("reading the nodes involved in deployment {id}"))?
        .iter()
        .map(|row| Node {
            id: row.get("id"),
            name: row.get("name"),
            pool: row.get("pool"),
            status: row.get("status"),
            schedulable: row.get("schedulable"),
            slots: row.get("slots"),
            last_seen_at: row.get("last_seen_at"),
            heartbeat_age_seconds: row.get("heartbeat_age_seconds"),
        })
        .collect();

    Ok(Snapshot {
        snapshot: info,
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
    })
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
