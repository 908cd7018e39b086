//! The reports: one function per command that has one.

use super::{Md, at, code, escape, footer, table};
use crate::decide::{Severity, Verdict};
use crate::model::history::History;
use crate::model::outcome::Outcome;
use crate::model::stuck::StuckReport;
use crate::model::{DeploymentSnapshot, short_id};
use crate::ui::cut::{Cut, reason_cuts};

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
        code(d.status.as_str()),
        escape(&verdict.headline),
        escape(&verdict.reason)
    );
    if let Some(next) = &verdict.next_command {
        out.push_str(&format!("\n**Next:** {}\n", code(&next.to_string())));
    }
    out.push_str(&format!(
        "\nStatus {} since {} (created {}); {} events, the last {}.\n",
        code(d.status.as_str()),
        at(d.updated_at),
        at(d.created_at),
        s.events_total,
        s.last_event()
            .map(|e| format!(
                "#{} {} at {}",
                e.sequence,
                code(&e.kind),
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
        let rows: Vec<Vec<Md>> = s
            .jobs
            .iter()
            .map(|j| {
                vec![
                    Md::code(short_id(j.id)),
                    Md::code(&j.kind),
                    Md::code(&j.status),
                    or_dash(j.target_node_id.map(|n| s.node_name(n))).into(),
                    format!("{}/{}", j.attempt, j.max_attempts).into(),
                    or_dash(j.lease_expires_at.map(at)).into(),
                    or_dash(j.last_error.clone()).into(),
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
        let cuts: Vec<Cut> = s
            .jobs
            .iter()
            .filter(|j| j.last_error_cut)
            .map(|j| Cut {
                what: format!("job {}", short_id(j.id)),
                length: j.last_error_length,
            })
            .collect();
        cut_line(out, &cuts);
    }
}

/// The line under a table that says which of its values were read cut
/// (README, "Huge text").
fn cut_line(out: &mut String, cuts: &[Cut]) {
    if let Some(line) = crate::ui::cut::line(cuts) {
        out.push_str(&format!("\n_{}_\n", escape(&line)));
    }
}

/// **Instances**: the deployment's instances as a table.
fn instances(out: &mut String, s: &DeploymentSnapshot) {
    if !s.instances.is_empty() {
        let rows: Vec<Vec<Md>> = s
            .instances
            .iter()
            .map(|i| {
                vec![
                    Md::code(short_id(i.id)),
                    i.role_name.clone().into(),
                    Md::code(&i.status),
                    or_dash(i.active_node_id.map(|n| s.node_name(n))).into(),
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
        let rows: Vec<Vec<Md>> = s
            .nodes
            .iter()
            .map(|n| {
                vec![
                    n.name.clone().into(),
                    n.pool.clone().unwrap_or_else(|| "NULL".to_string()).into(),
                    Md::code(&n.status),
                    or_dash(n.last_seen_at.map(at)).into(),
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
    // Grouped, the report is the groups (each with its own listing
    // command), not every row again under them.
    match report.groups {
        Some(_) => groups(&mut out, report),
        None => deployments_stuck(&mut out, report),
    }
    leases_orphaned(&mut out, report);
    left_out(&mut out, report);
    clock_skew(&mut out, report);
    out.push_str(&footer(report.snapshot.at));
    out
}

/// The groups (`--group-by`), one row each.
fn groups(out: &mut String, report: &StuckReport) {
    if let Some(groups) = &report.groups {
        let rows: Vec<Vec<Md>> = groups
            .iter()
            .map(|g| {
                let paths: Vec<Md> = [
                    (g.operator_failed, "operator_failed"),
                    (g.teardown_requested, "teardown_requested"),
                ]
                .iter()
                .filter(|(n, _)| *n > 0)
                .map(|(n, path)| Md::code(format!("{path}: {n}")))
                .collect();
                vec![
                    g.key.clone().into(),
                    g.count.to_string().into(),
                    crate::duration::human(g.oldest_stuck_for_seconds).into(),
                    Md::List(paths),
                    Md::code(&g.next_command),
                ]
            })
            .collect();
        out.push_str(&format!(
            "\n**deployment_stuck**, grouped (no event for {} or more)\n\n",
            crate::duration::human(report.snapshot.stuck_after_seconds as i64)
        ));
        out.push_str(&table(
            &["group", "stuck", "oldest", "paths", "lists them"],
            &rows,
        ));
    }
}

/// **deployment_stuck**: the first alert as a table.
fn deployments_stuck(out: &mut String, report: &StuckReport) {
    if !report.deployments_stuck.is_empty() {
        let rows: Vec<Vec<Md>> = report
            .deployments_stuck
            .iter()
            .map(|d| {
                vec![
                    Md::code(d.deployment_id),
                    Md::code(&d.status),
                    at(d.last_event_at.unwrap_or(d.created_at)).into(),
                    crate::duration::human(d.stuck_for_seconds).into(),
                    d.nodes.join(", ").into(),
                    Md::code(d.path.as_str()),
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
        let rows: Vec<Vec<Md>> = report
            .leases_orphaned
            .iter()
            .map(|l| {
                vec![
                    Md::code(l.job_id),
                    Md::code(l.deployment_id),
                    Md::code(&l.kind),
                    or_dash(l.node_name.clone()).into(),
                    at(l.lease_expires_at).into(),
                    Md::code(l.path.as_str()),
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
        code(o.path.as_str()),
        what,
        code(o.previous_status.as_str()),
        code(o.new_status.as_str()),
        o.event.sequence,
        code(&o.event.kind),
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
        "\n\nIdempotency key {}{}.\n\n**Next:** {}\n",
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

/// `history -o markdown`: who (the OS user, the database's session user,
/// the host) and why, with the idempotency key that makes it replayable.
pub fn history(h: &History) -> String {
    // The approval column only when an action has one.
    let approvals = h.actions.iter().any(|a| a.audit.approval.is_some());
    let rows: Vec<Vec<Md>> = h
        .actions
        .iter()
        .map(|a| {
            let mut row = vec![
                a.occurred_at.map_or_else(|| "NULL".to_string(), at).into(),
                Md::code(a.deployment_id),
                Md::code(a.path.as_str()),
                or_dash(a.audit.os_user.clone()).into(),
                or_dash(a.audit.session_user.clone()).into(),
                or_dash(a.audit.host.clone()).into(),
            ];
            if approvals {
                row.push(crate::ui::approval::approval(a).into());
            }
            row.extend([
                Md::code(&a.status_now),
                or_dash(a.reason.clone()).into(),
                a.idempotency_key
                    .as_ref()
                    .map_or_else(|| "—".to_string().into(), Md::code),
            ]);
            row
        })
        .collect();
    let mut out = format!("### Operator actions: {}\n\n", h.actions.len());
    if !rows.is_empty() {
        let mut headers = vec![
            "when",
            "deployment",
            "action",
            "operator",
            "session user",
            "host",
        ];
        if approvals {
            headers.push("approval");
        }
        headers.extend(["status now", "reason", "key"]);
        out.push_str(&table(&headers, &rows));
        cut_line(&mut out, &reason_cuts(h));
    }
    if h.snapshot.truncated {
        out.push_str("\nOlder actions match too (--limit N shows more).\n");
    }
    out.push_str(&footer(h.snapshot.at));
    out
}
