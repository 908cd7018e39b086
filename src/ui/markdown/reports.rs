//! The reports: one function per command that has one.

use super::{at, code, escape, footer, table};
use crate::decide::{Severity, Verdict};
use crate::model::history::History;
use crate::model::outcome::Outcome;
use crate::model::stuck::StuckReport;
use crate::model::{DeploymentSnapshot, short_id};

fn mark(severity: Severity) -> &'static str {
    match severity {
        Severity::Problem => "✗",
        Severity::Warning => "!",
        Severity::Info => "·",
    }
}

fn or_dash(text: Option<String>) -> String {
    text.unwrap_or_else(|| "—".to_string())
}

/// `diagnose -o markdown`.
pub fn diagnose(s: &DeploymentSnapshot, verdict: &Verdict, fingerprint: &str) -> String {
    let mut out = headline(s, verdict);
    dispatched(&mut out, verdict);
    findings(&mut out, verdict);
    jobs(&mut out, s);
    instances(&mut out, s);
    nodes(&mut out, s);
    out.push_str(&format!("\nFingerprint {}.\n", code(fingerprint)));
    out.push_str(&footer(s.snapshot.at));
    out
}

/// The deployment, the verdict and why, the next command, and the status
/// with the last event.
fn headline(s: &DeploymentSnapshot, verdict: &Verdict) -> String {
    let d = &s.deployment;
    let mut out = format!(
        "### Deployment {} — {}\n\n**Verdict:** {}\n\n**Why:** {}\n",
        code(&d.id.to_string()),
        escape(d.status.as_str()),
        escape(&verdict.headline),
        escape(&verdict.reason)
    );
    if let Some(next) = &verdict.next_command {
        out.push_str(&format!("\n**Next:** {}\n", code(&next.to_string())));
    }
    out.push_str(&format!(
        "\nStatus {} since {} (created {}); {} events, the last {}.\n",
        escape(d.status.as_str()),
        at(d.updated_at),
        at(d.created_at),
        s.events_total,
        s.last_event()
            .map(|e| format!(
                "#{} {} at {}",
                e.sequence,
                escape(&e.kind),
                e.occurred_at.map_or_else(|| "NULL".to_string(), at)
            ))
            .unwrap_or_else(|| "—".to_string())
    ));
    out
}

/// **Dispatched:** the evidence that work was handed out.
fn dispatched(out: &mut String, verdict: &Verdict) {
    if !verdict.evidence.is_empty() {
        out.push_str("\n**Dispatched:**\n\n");
        for e in &verdict.evidence {
            out.push_str(&format!("- {}\n", escape(&e.detail)));
        }
    }
}

/// **Findings:** one line each, with its mark and code.
fn findings(out: &mut String, verdict: &Verdict) {
    if !verdict.findings.is_empty() {
        out.push_str("\n**Findings:**\n\n");
        for f in &verdict.findings {
            out.push_str(&format!(
                "- {} {} ({})\n",
                mark(f.severity),
                escape(&f.message),
                f.code
            ));
        }
    }
}

/// **Jobs**: the deployment's jobs as a table.
fn jobs(out: &mut String, s: &DeploymentSnapshot) {
    if !s.jobs.is_empty() {
        let rows: Vec<Vec<String>> = s
            .jobs
            .iter()
            .map(|j| {
                vec![
                    short_id(j.id),
                    j.kind.to_string(),
                    j.status.to_string(),
                    or_dash(j.target_node_id.map(|n| s.node_name(n))),
                    format!("{}/{}", j.attempt, j.max_attempts),
                    or_dash(j.lease_expires_at.map(at)),
                    or_dash(j.last_error.clone()),
                ]
            })
            .collect();
        out.push_str("\n**Jobs**\n\n");
        out.push_str(&table(
            &[
                "job",
                "kind",
                "status",
                "target",
                "attempt",
                "lease expires",
                "last error",
            ],
            &rows,
        ));
    }
}

/// **Instances**: the deployment's instances as a table.
fn instances(out: &mut String, s: &DeploymentSnapshot) {
    if !s.instances.is_empty() {
        let rows: Vec<Vec<String>> = s
            .instances
            .iter()
            .map(|i| {
                vec![
                    short_id(i.id),
                    i.role_name.clone(),
                    i.status.to_string(),
                    or_dash(i.active_node_id.map(|n| s.node_name(n))),
                ]
            })
            .collect();
        out.push_str("\n**Instances**\n\n");
        out.push_str(&table(&["instance", "role", "status", "node"], &rows));
    }
}

/// **Nodes involved**: the snapshot's nodes as a table.
fn nodes(out: &mut String, s: &DeploymentSnapshot) {
    if !s.nodes.is_empty() {
        let rows: Vec<Vec<String>> = s
            .nodes
            .iter()
            .map(|n| {
                vec![
                    n.name.clone(),
                    n.pool.clone().unwrap_or_else(|| "NULL".to_string()),
                    n.status.to_string(),
                    or_dash(n.last_seen_at.map(at)),
                ]
            })
            .collect();
        out.push_str("\n**Nodes involved**\n\n");
        out.push_str(&table(&["node", "pool", "status", "last seen"], &rows));
    }
}

/// `stuck -o markdown`.
pub fn stuck(report: &StuckReport) -> String {
    let mut out = format!(
        "### Stuck deployments: {} · orphaned leases: {}\n",
        report.deployments_stuck.len(),
        report.leases_orphaned.len()
    );
    groups(&mut out, report);
    deployments_stuck(&mut out, report);
    leases_orphaned(&mut out, report);
    left_out(&mut out, report);
    clock_skew(&mut out, report);
    out.push_str(&footer(report.snapshot.at));
    out
}

/// The groups (`--group-by`), one row each.
fn groups(out: &mut String, report: &StuckReport) {
    if let Some(groups) = &report.groups {
        let rows: Vec<Vec<String>> = groups
            .iter()
            .map(|g| {
                vec![
                    g.key.clone(),
                    g.count.to_string(),
                    crate::duration::human(g.oldest_stuck_for_seconds),
                    g.next_command.to_string(),
                ]
            })
            .collect();
        out.push('\n');
        out.push_str(&table(&["group", "stuck", "oldest", "lists them"], &rows));
    }
}

/// **deployment_stuck**: the first alert as a table.
fn deployments_stuck(out: &mut String, report: &StuckReport) {
    if !report.deployments_stuck.is_empty() {
        let rows: Vec<Vec<String>> = report
            .deployments_stuck
            .iter()
            .map(|d| {
                vec![
                    d.deployment_id.to_string(),
                    d.status.to_string(),
                    at(d.last_event_at.unwrap_or(d.created_at)),
                    crate::duration::human(d.stuck_for_seconds),
                    d.nodes.join(", "),
                    d.path.as_str().to_string(),
                ]
            })
            .collect();
        out.push_str(&format!(
            "\n**deployment_stuck** (no event for {} or more)\n\n",
            crate::duration::human(report.snapshot.stuck_after_seconds as i64)
        ));
        out.push_str(&table(
            &[
                "deployment",
                "status",
                "quiet since",
                "stuck for",
                "nodes",
                "path",
            ],
            &rows,
        ));
    }
}

/// **job_lease_orphaned**: the second alert as a table.
fn leases_orphaned(out: &mut String, report: &StuckReport) {
    if !report.leases_orphaned.is_empty() {
        let rows: Vec<Vec<String>> = report
            .leases_orphaned
            .iter()
            .map(|l| {
                vec![
                    l.job_id.to_string(),
                    l.deployment_id.to_string(),
                    l.kind.to_string(),
                    or_dash(l.node_name.clone()),
                    at(l.lease_expires_at),
                    l.path.as_str().to_string(),
                ]
            })
            .collect();
        out.push_str("\n**job_lease_orphaned**\n\n");
        out.push_str(&table(
            &["job", "deployment", "kind", "node", "expired at", "path"],
            &rows,
        ));
    }
}

/// What `--limit` left out, if anything.
fn left_out(out: &mut String, report: &StuckReport) {
    if let Some(left) = report.left_out
        && left.deployments_stuck + left.leases_orphaned > 0
    {
        out.push_str(&format!(
            "\n… and {} more stuck, {} more leases (--limit).\n",
            left.deployments_stuck, left.leases_orphaned
        ));
    }
}

/// The times ahead of the server's clock, one item each.
fn clock_skew(out: &mut String, report: &StuckReport) {
    if !report.clock_skew.is_empty() {
        out.push_str("\n**Clock skew:**\n\n");
        for skew in &report.clock_skew {
            out.push_str(&format!("- ! {}\n", escape(&skew.message)));
        }
    }
}

/// `fail-safely -o markdown` (one deployment).
pub fn fail_safely(o: &Outcome) -> String {
    let what = if o.replayed {
        "already done (replayed: nothing written now)"
    } else if o.dry_run {
        "dry run (rolled back: nothing written)"
    } else {
        "applied"
    };
    let mut out = format!(
        "### fail-safely {} — {} {}\n\n**{}** → **{}** · event #{} {} at {}\n",
        code(&o.deployment_id.to_string()),
        o.path.as_str(),
        what,
        escape(o.previous_status.as_str()),
        escape(o.new_status.as_str()),
        o.event.sequence,
        escape(&o.event.kind),
        at(o.event.occurred_at)
    );
    if let Some(target) = &o.target {
        out.push_str(&format!(
            "\n**Target:** {}\n",
            escape(&crate::ui::target::describe(target))
        ));
    }
    if let Some(reason) = o.event.payload.get("reason").and_then(|r| r.as_str()) {
        out.push_str(&format!("\n**Reason:** {}\n", escape(reason)));
    }
    for e in &o.evidence {
        out.push_str(&format!("\n- dispatched: {}", escape(&e.detail)));
    }
    for f in o.findings.iter().filter(|f| f.severity != Severity::Info) {
        out.push_str(&format!("\n- {} {}", mark(f.severity), escape(&f.message)));
    }
    out.push_str(&format!(
        "\n\nIdempotency key {}{}. Next: {}\n",
        code(&o.idempotency_key),
        o.fingerprint
            .as_deref()
            .map(|f| format!(", fingerprint {}", code(f)))
            .unwrap_or_default(),
        code(&o.next_command.to_string())
    ));
    out.push_str(&footer(o.event.occurred_at));
    out
}

/// `history -o markdown`.
pub fn history(h: &History) -> String {
    // The approval column only when an action has one.
    let approvals = h.actions.iter().any(|a| a.audit.approval.is_some());
    let rows: Vec<Vec<String>> = h
        .actions
        .iter()
        .map(|a| {
            let mut row = vec![
                a.occurred_at.map_or_else(|| "NULL".to_string(), at),
                a.deployment_id.to_string(),
                a.path.as_str().to_string(),
                match (&a.audit.os_user, &a.audit.host) {
                    (Some(user), Some(host)) => format!("{user}@{host}"),
                    _ => or_dash(a.audit.current_user.clone()),
                },
            ];
            if approvals {
                row.push(crate::ui::approval::approval(a));
            }
            row.extend([a.status_now.to_string(), or_dash(a.reason.clone())]);
            row
        })
        .collect();
    let mut out = format!("### Operator actions: {}\n\n", h.actions.len());
    if !rows.is_empty() {
        let mut headers = vec!["when", "deployment", "action", "by"];
        if approvals {
            headers.push("approval");
        }
        headers.extend(["status now", "reason"]);
        out.push_str(&table(&headers, &rows));
    }
    if h.snapshot.truncated {
        out.push_str("\nOlder actions match too (--limit N shows more).\n");
    }
    out.push_str(&footer(h.snapshot.at));
    out
}
