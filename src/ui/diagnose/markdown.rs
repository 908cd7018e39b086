//! `diagnose -o markdown`: the ticket's report, drawn from the document
//! like the table: the verdict and why, the next command, the status with
//! the last event, the evidence and the findings, then the jobs, the
//! instances and the nodes.

use crate::model::assessment::Verdict;
use crate::model::diagnose::DiagnoseReport;
use crate::model::short_id;
use crate::ui::markdown::{Md, at, code, cut_line, footer, mark, or_dash, prose, table};

/// `diagnose -o markdown`.
pub fn diagnose(d: &DiagnoseReport) -> String {
    let mut out = headline(d);
    dispatched(&mut out, d.verdict);
    findings(&mut out, d.verdict);
    jobs(&mut out, d);
    instances(&mut out, d);
    nodes(&mut out, d);
    out.push_str(&format!("\nFingerprint {}.\n", code(d.fingerprint)));
    out.push_str(&footer(d.snapshot.at));
    out
}

/// The deployment, the verdict and why, the next command, and the status
/// with the last event.
fn headline(d: &DiagnoseReport) -> String {
    let (deployment, verdict) = (d.deployment, d.verdict);
    let mut out = format!(
        "### Deployment {} — {}\n\n**Verdict:** {}\n\n**Why:** {}\n",
        code(&deployment.id.to_string()),
        code(deployment.status.as_str()),
        prose(&verdict.headline),
        prose(&verdict.reason)
    );
    // A standby's stale view right under the heading, before the verdict
    // is acted on.
    if let Some(stale) = d.read_from.stale_line() {
        out = out.replacen(
            "**Verdict:**",
            &format!("**{}**\n\n**Verdict:**", prose(&stale)),
            1,
        );
    }
    if let Some(next) = &verdict.next_command {
        out.push_str(&format!("\n**Next:** {}\n", code(&next.to_string())));
    }
    out.push_str(&format!(
        "\nStatus {} since {} (created {}); {} events, the last {}.\n",
        code(deployment.status.as_str()),
        at(deployment.updated_at),
        at(deployment.created_at),
        d.events_total,
        d.last_event()
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
            out.push_str(&format!("- {}\n", prose(&e.detail)));
        }
    }
}

/// **Findings:** one line each, with its mark and code (a code span, as
/// every code in the report: `markdown::prose`).
fn findings(out: &mut String, verdict: &Verdict) {
    if !verdict.findings.is_empty() {
        out.push_str("\n**Findings:**\n\n");
        for f in &verdict.findings {
            out.push_str(&format!(
                "- {} {} ({})\n",
                mark(f.severity),
                prose(&f.message),
                code(f.code)
            ));
        }
    }
}

/// **Jobs**: the deployment's jobs as a table.
fn jobs(out: &mut String, d: &DiagnoseReport) {
    if !d.jobs.is_empty() {
        let rows: Vec<Vec<Md>> = d
            .jobs
            .iter()
            .map(|j| {
                vec![
                    Md::code(short_id(j.id)),
                    Md::code(&j.kind),
                    Md::code(&j.status),
                    or_dash(j.target_node_id.map(|n| d.node_name(n))).into(),
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
        let cuts = crate::ui::cut::last_error_cuts(d.jobs);
        cut_line(out, &cuts);
    }
}

/// **Instances**: the deployment's instances as a table.
fn instances(out: &mut String, d: &DiagnoseReport) {
    if !d.instances.is_empty() {
        let rows: Vec<Vec<Md>> = d
            .instances
            .iter()
            .map(|i| {
                vec![
                    Md::code(short_id(i.id)),
                    i.role_name.clone().into(),
                    Md::code(&i.status),
                    or_dash(i.active_node_id.map(|n| d.node_name(n))).into(),
                ]
            })
            .collect();
        out.push_str("\n**Instances**\n\n");
        out.push_str(&table(&["instance", "role", "status", "node"], &rows));
    }
}

/// **Nodes involved**: the snapshot's nodes as a table.
fn nodes(out: &mut String, d: &DiagnoseReport) {
    if !d.nodes.is_empty() {
        let rows: Vec<Vec<Md>> = d
            .nodes
            .iter()
            .map(|view| {
                let n = view.node;
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
