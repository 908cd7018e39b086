//! Rendering of `diagnose` (and of the plan `fail-safely` shows): the
//! verdict first, then one table per runbook section; or one JSON document.

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::duration::ago;
use crate::output::{Output, Paint};
use crate::snapshot::{Node, Snapshot};
use crate::verdict::{Path, Policy, Severity, Verdict};

/// A node row with its `stale` flag, for JSON.
#[derive(Debug, Serialize)]
pub struct NodeView<'a> {
    #[serde(flatten)]
    pub node: &'a Node,
    pub stale: bool,
}

/// The `diagnose --output json` document (documented in the man page).
#[derive(Debug, Serialize)]
pub struct DiagnoseReport<'a> {
    pub deployment: &'a crate::snapshot::Deployment,
    pub verdict: &'a Verdict,
    pub fingerprint: &'a str,
    pub snapshot: &'a crate::snapshot::SnapshotInfo,
    pub events: &'a [crate::snapshot::Event],
    pub events_total: i64,
    pub jobs: &'a [crate::snapshot::Job],
    pub results: &'a [crate::snapshot::JobResult],
    pub source_snapshots: &'a [crate::snapshot::SourceSnapshot],
    pub release_artifacts: &'a [crate::snapshot::ReleaseArtifact],
    pub instances: &'a [crate::snapshot::Instance],
    pub allocations: &'a [crate::snapshot::Allocation],
    pub routes: &'a [crate::snapshot::Route],
    pub network_attachments: &'a [crate::snapshot::NetworkAttachment],
    pub nodes: Vec<NodeView<'a>>,
}

impl<'a> DiagnoseReport<'a> {
    pub fn new(
        s: &'a Snapshot,
        verdict: &'a Verdict,
        fingerprint: &'a str,
        policy: &Policy,
    ) -> DiagnoseReport<'a> {
        DiagnoseReport {
            deployment: &s.deployment,
            verdict,
            fingerprint,
            snapshot: &s.snapshot,
            events: &s.events,
            events_total: s.events_total,
            jobs: &s.jobs,
            results: &s.results,
            source_snapshots: &s.source_snapshots,
            release_artifacts: &s.release_artifacts,
            instances: &s.instances,
            allocations: &s.allocations,
            routes: &s.routes,
            network_attachments: &s.network_attachments,
            nodes: s
                .nodes
                .iter()
                .map(|node| NodeView {
                    node,
                    stale: policy.is_stale(node),
                })
                .collect(),
        }
    }
}

fn age(now: DateTime<Utc>, at: Option<DateTime<Utc>>) -> String {
    match at {
        Some(at) => ago((now - at).num_seconds()),
        None => "—".to_string(),
    }
}

fn short(id: uuid::Uuid) -> String {
    id.to_string()[..8].to_string()
}

/// The verdict block: headline, why, next step, findings. The first lines
/// an operator reads say what is wrong and what to do.
pub fn verdict_lines(out: &Output, s: &Snapshot, verdict: &Verdict) -> Vec<String> {
    let paint = match verdict.path {
        Path::OperatorFailed | Path::TeardownRequested => Paint::Bad,
        Path::None => Paint::Good,
    };
    let mut lines = vec![
        out.paint(&format!("VERDICT {}", verdict.headline), paint),
        format!("  why:  {}", verdict.reason),
    ];
    if let Some(next) = &verdict.next_command {
        lines.push(format!("  next: {}", out.paint(next, Paint::Bold)));
    }
    lines.push(format!(
        "  deployment {} · {} · org {} · read at {}",
        s.deployment.id,
        s.deployment.status,
        short(s.deployment.org_id),
        s.snapshot.at.format("%Y-%m-%d %H:%M:%S UTC"),
    ));
    for finding in &verdict.findings {
        let (mark, paint) = match finding.severity {
            Severity::Problem => ("✗", Paint::Bad),
            Severity::Warning => ("!", Paint::Warn),
            Severity::Info => ("·", Paint::Dim),
        };
        lines.push(format!("  {} {}", out.paint(mark, paint), finding.message));
    }
    lines
}

/// The whole table rendering of a diagnosis.
pub fn diagnose_table(
    out: &Output,
    s: &Snapshot,
    verdict: &Verdict,
    fingerprint: &str,
    policy: &Policy,
) -> String {
    let now = s.snapshot.at;
    let mut text = verdict_lines(out, s, verdict).join("\n");
    text.push('\n');
    let mut section = |title: &str, body: String| {
        text.push('\n');
        text.push_str(&out.paint(title, Paint::Bold));
        text.push('\n');
        text.push_str(&body);
        text.push('\n');
    };

    // 1. State and the event trail.
    let mut t = out.table(&["status", "created", "updated", "events"]);
    t.add_row(vec![
        out.cell(&s.deployment.status, verdict.path != Path::None),
        out.cell(age(now, Some(s.deployment.created_at)), false),
        out.cell(age(now, Some(s.deployment.updated_at)), false),
        out.cell(s.events_total, false),
    ]);
    section("Deployment", t.to_string());

    let hidden = s.events_total - s.events.len() as i64;
    let mut t = out.table(&["seq", "kind", "occurred", "payload (without log)"]);
    for e in &s.events {
        t.add_row(vec![
            out.cell(e.sequence, false),
            out.cell(&e.kind, false),
            out.cell(age(now, Some(e.occurred_at)), false),
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
    section("Events", body);

    // 2. Jobs.
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
        let lease_expired = j.status == "leased" && j.lease_expires_at.is_some_and(|at| at <= now);
        let out_of_attempts = j.attempt >= j.max_attempts && j.status != "succeeded";
        t.add_row(vec![
            out.cell(short(j.id), false),
            out.cell(&j.kind, false),
            out.cell(&j.status, lease_expired),
            out.cell(
                j.target_node_id
                    .map(|n| s.node_name(n))
                    .unwrap_or_else(|| "—".into()),
                false,
            ),
            out.cell(format!("{}/{}", j.attempt, j.max_attempts), out_of_attempts),
            out.warn_cell(age(now, Some(j.available_at)), j.available_at > now),
            out.cell(age(now, j.lease_expires_at), lease_expired),
            out.cell(
                j.last_error.as_deref().unwrap_or("—"),
                j.last_error.is_some(),
            ),
        ]);
    }
    section("Jobs", empty_or(&s.jobs, t.to_string(), "no jobs"));

    // 3. Results.
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
            out.cell(age(now, Some(r.reported_at)), false),
            out.cell(&r.kind, false),
            out.cell(s.node_name(r.node_id), false),
            out.cell(r.attempt, false),
            out.cell(&r.outcome, r.outcome == "failed"),
            out.cell(compact(&r.output), false),
        ]);
    }
    section(
        "Agent results",
        empty_or(&s.results, t.to_string(), "no agent results"),
    );

    // 4. Source, artifact, instances, reservations, routes, attachments.
    let mut t = out.table(&["source snapshot", "verified"]);
    for x in &s.source_snapshots {
        t.add_row(vec![
            out.cell(short(x.id), false),
            out.cell(age(now, x.verified_at), x.verified_at.is_none()),
        ]);
    }
    section(
        "Source",
        empty_or(&s.source_snapshots, t.to_string(), "no source snapshot"),
    );
    let mut t = out.table(&["artifact", "image"]);
    for a in &s.release_artifacts {
        t.add_row(vec![
            out.cell(short(a.id), false),
            out.cell(&a.image, false),
        ]);
    }
    section(
        "Artifacts",
        empty_or(&s.release_artifacts, t.to_string(), "no release artifact"),
    );

    let mut t = out.table(&["instance", "role", "status", "active node", "generation"]);
    for i in &s.instances {
        let dead = i
            .active_node_id
            .and_then(|n| s.node(n))
            .is_some_and(|n| policy.is_dead(n));
        t.add_row(vec![
            out.cell(short(i.id), false),
            out.cell(&i.role_name, false),
            out.cell(&i.status, false),
            out.cell(
                i.active_node_id
                    .map(|n| s.node_name(n))
                    .unwrap_or_else(|| "—".into()),
                dead,
            ),
            out.cell(i.generation, false),
        ]);
    }
    section(
        "Instances",
        empty_or(&s.instances, t.to_string(), "no instances"),
    );

    let mut t = out.table(&["node", "resource", "kind", "status", "created"]);
    for a in &s.allocations {
        t.add_row(vec![
            out.cell(s.node_name(a.node_id), false),
            out.cell(short(a.resource_id), false),
            out.cell(&a.resource_kind, false),
            out.cell(&a.status, false),
            out.cell(age(now, Some(a.created_at)), false),
        ]);
    }
    section(
        "Reservations",
        empty_or(&s.allocations, t.to_string(), "no reservations"),
    );

    let mut t = out.table(&["hostname", "generation", "status"]);
    for r in &s.routes {
        t.add_row(vec![
            out.cell(&r.hostname, false),
            out.cell(r.route_generation, false),
            out.cell(&r.status, false),
        ]);
    }
    section("Routes", empty_or(&s.routes, t.to_string(), "no routes"));

    if !s.network_attachments.is_empty() {
        let mut t = out.table(&["attachment", "segment", "node", "created"]);
        for a in &s.network_attachments {
            t.add_row(vec![
                out.cell(short(a.id), false),
                out.cell(&a.segment, true),
                out.cell(
                    a.node_id
                        .map(|n| s.node_name(n))
                        .unwrap_or_else(|| "—".into()),
                    false,
                ),
                out.cell(age(now, Some(a.created_at)), false),
            ]);
        }
        section("Network attachments", t.to_string());
    }

    // 5. Nodes involved.
    let mut t = out.table(&["node", "pool", "status", "schedulable", "heartbeat"]);
    for n in &s.nodes {
        let stale = policy.is_stale(n);
        t.add_row(vec![
            out.cell(&n.name, stale || n.status == "offline"),
            out.cell(&n.pool, false),
            out.cell(&n.status, n.status == "offline"),
            out.warn_cell(if n.schedulable { "yes" } else { "no" }, !n.schedulable),
            out.cell(
                match n.heartbeat_age_seconds {
                    Some(a) => format!("{}{}", ago(a as i64), if stale { " (stale)" } else { "" }),
                    None => "never".to_string(),
                },
                stale,
            ),
        ]);
    }
    section(
        "Nodes involved",
        empty_or(&s.nodes, t.to_string(), "no nodes involved"),
    );

    text.push_str(&format!("\nfingerprint {fingerprint}"));
    text
}

fn empty_or<T>(rows: &[T], table: String, empty: &str) -> String {
    if rows.is_empty() {
        format!("({empty})")
    } else {
        table
    }
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
