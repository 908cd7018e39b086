//! One table per section of the runbook's Diagnosis, for `diagnose`'s
//! table output. Each returns the section's body (`None`: leave it out).

use chrono::{DateTime, Utc};

use super::output::Output;
use crate::decide::Policy;
use crate::duration::ago;
use crate::model::{BreakGlassPath, DeploymentSnapshot, NodeStatus, ResultOutcome, short_id};

/// What every section is drawn from.
pub struct View<'a> {
    pub out: &'a Output,
    pub s: &'a DeploymentSnapshot,
    pub policy: &'a Policy,
}

impl View<'_> {
    fn now(&self) -> DateTime<Utc> {
        self.s.snapshot.at
    }

    fn age(&self, at: Option<DateTime<Utc>>) -> String {
        match at {
            Some(at) => ago((self.now() - at).num_seconds()),
            None => "—".to_string(),
        }
    }

    fn node_name(&self, id: Option<uuid::Uuid>) -> String {
        id.map(|n| self.s.node_name(n))
            .unwrap_or_else(|| "—".into())
    }
}

fn empty_or<T>(rows: &[T], table: String, empty: &str) -> Option<String> {
    Some(if rows.is_empty() {
        format!("({empty})")
    } else {
        table
    })
}

/// A payload in one line, shortened for a table cell.
fn compact(value: &serde_json::Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 80 {
        format!("{}…", text.chars().take(79).collect::<String>())
    } else {
        text
    }
}

pub fn deployment(v: &View, path: BreakGlassPath) -> Option<String> {
    let (out, d) = (v.out, &v.s.deployment);
    let mut t = out.table(&["status", "created", "updated", "events"]);
    t.add_row(vec![
        out.cell(&d.status, path != BreakGlassPath::None),
        out.cell(v.age(Some(d.created_at)), false),
        out.cell(v.age(Some(d.updated_at)), false),
        out.cell(v.s.events_total, false),
    ]);
    Some(t.to_string())
}

pub fn events(v: &View) -> Option<String> {
    let (out, s) = (v.out, v.s);
    let hidden = s.events_total - s.events.len() as i64;
    let mut t = out.table(&["seq", "kind", "occurred", "payload (without log)"]);
    for e in &s.events {
        t.add_row(vec![
            out.cell(e.sequence, false),
            out.cell(&e.kind, false),
            out.cell(v.age(Some(e.occurred_at)), false),
            out.cell(compact(&e.payload), false),
        ]);
    }
    let mut body = String::new();
    if hidden > 0 {
        body.push_str(&format!(
            "({hidden} earlier event{} hidden; --events N shows more, --output json all)\n",
            if hidden == 1 { "" } else { "s" }
        ));
    }
    body.push_str(&t.to_string());
    Some(body)
}

pub fn jobs(v: &View) -> Option<String> {
    let (out, s, now) = (v.out, v.s, v.now());
    let mut t = out.table(&[
        "job",
        "kind",
        "status",
        "target",
        "attempt",
        "available",
        "lease expires",
        "last error",
    ]);
    for j in &s.jobs {
        let lease_expired = j.lease_expired(now);
        t.add_row(vec![
            out.cell(short_id(j.id), false),
            out.cell(&j.kind, false),
            out.cell(&j.status, lease_expired),
            out.cell(v.node_name(j.target_node_id), false),
            out.cell(
                format!("{}/{}", j.attempt, j.max_attempts),
                j.out_of_attempts(),
            ),
            out.warn_cell(v.age(Some(j.available_at)), j.available_at > now),
            out.cell(v.age(j.lease_expires_at), lease_expired),
            out.cell(
                j.last_error.as_deref().unwrap_or("—"),
                j.last_error.is_some(),
            ),
        ]);
    }
    empty_or(&s.jobs, t.to_string(), "no jobs")
}

pub fn results(v: &View) -> Option<String> {
    let (out, s) = (v.out, v.s);
    let mut t = out.table(&[
        "reported",
        "kind",
        "node",
        "attempt",
        "outcome",
        "output (without log)",
    ]);
    for r in &s.results {
        t.add_row(vec![
            out.cell(v.age(Some(r.reported_at)), false),
            out.cell(&r.kind, false),
            out.cell(s.node_name(r.node_id), false),
            out.cell(r.attempt, false),
            out.cell(&r.outcome, r.outcome == ResultOutcome::Failed),
            out.cell(compact(&r.output), false),
        ]);
    }
    empty_or(&s.results, t.to_string(), "no agent results")
}

pub fn sources(v: &View) -> Option<String> {
    let (out, s) = (v.out, v.s);
    let mut t = out.table(&["source snapshot", "verified"]);
    for x in &s.source_snapshots {
        t.add_row(vec![
            out.cell(short_id(x.id), false),
            out.cell(v.age(x.verified_at), x.verified_at.is_none()),
        ]);
    }
    empty_or(&s.source_snapshots, t.to_string(), "no source snapshot")
}

pub fn artifacts(v: &View) -> Option<String> {
    let (out, s) = (v.out, v.s);
    let mut t = out.table(&["artifact", "image"]);
    for a in &s.release_artifacts {
        t.add_row(vec![
            out.cell(short_id(a.id), false),
            out.cell(&a.image, false),
        ]);
    }
    empty_or(&s.release_artifacts, t.to_string(), "no release artifact")
}

pub fn instances(v: &View) -> Option<String> {
    let (out, s) = (v.out, v.s);
    let mut t = out.table(&["instance", "role", "status", "active node", "generation"]);
    for i in &s.instances {
        let dead = i
            .active_node_id
            .and_then(|n| s.node(n))
            .is_some_and(|n| v.policy.is_dead(n, v.now()));
        t.add_row(vec![
            out.cell(short_id(i.id), false),
            out.cell(&i.role_name, false),
            out.cell(&i.status, false),
            out.cell(v.node_name(i.active_node_id), dead),
            out.cell(i.generation, false),
        ]);
    }
    empty_or(&s.instances, t.to_string(), "no instances")
}

pub fn reservations(v: &View) -> Option<String> {
    let (out, s) = (v.out, v.s);
    let mut t = out.table(&["node", "resource", "kind", "status", "created"]);
    for a in &s.allocations {
        t.add_row(vec![
            out.cell(s.node_name(a.node_id), false),
            out.cell(short_id(a.resource_id), false),
            out.cell(&a.resource_kind, false),
            out.cell(&a.status, false),
            out.cell(v.age(Some(a.created_at)), false),
        ]);
    }
    empty_or(&s.allocations, t.to_string(), "no reservations")
}

pub fn routes(v: &View) -> Option<String> {
    let (out, s) = (v.out, v.s);
    let mut t = out.table(&["hostname", "generation", "status"]);
    for r in &s.routes {
        t.add_row(vec![
            out.cell(&r.hostname, false),
            out.cell(r.route_generation, false),
            out.cell(&r.status, false),
        ]);
    }
    empty_or(&s.routes, t.to_string(), "no routes")
}

/// Only when there are any: an attachment is what keeps reservations.
pub fn network_attachments(v: &View) -> Option<String> {
    let (out, s) = (v.out, v.s);
    if s.network_attachments.is_empty() {
        return None;
    }
    let mut t = out.table(&["attachment", "segment", "node", "created"]);
    for a in &s.network_attachments {
        t.add_row(vec![
            out.cell(short_id(a.id), false),
            out.cell(&a.segment, true),
            out.cell(v.node_name(a.node_id), false),
            out.cell(v.age(Some(a.created_at)), false),
        ]);
    }
    Some(t.to_string())
}

pub fn nodes(v: &View) -> Option<String> {
    let (out, s) = (v.out, v.s);
    let mut t = out.table(&["node", "pool", "status", "schedulable", "heartbeat"]);
    for n in &s.nodes {
        let stale = v.policy.is_stale(n, v.now());
        let offline = n.status == NodeStatus::Offline;
        t.add_row(vec![
            out.cell(&n.name, stale || offline),
            out.cell(&n.pool, false),
            out.cell(&n.status, offline),
            out.warn_cell(if n.schedulable { "yes" } else { "no" }, !n.schedulable),
            out.cell(
                match n.heartbeat_age_seconds {
                    Some(a) => format!("{}{}", ago(a), if stale { " (stale)" } else { "" }),
                    None => "never".to_string(),
                },
                stale,
            ),
        ]);
    }
    empty_or(&s.nodes, t.to_string(), "no nodes involved")
}
