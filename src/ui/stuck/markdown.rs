//! `stuck -o markdown`: the ticket's report of the scan, beside its table
//! renderer: the groups or the stuck deployments, the orphaned leases,
//! what `--limit` left out and the clock skew.

use crate::duration::human;
use crate::model::stuck::StuckReport;
use crate::ui::markdown::{Md, at, code, footer, or_dash, prose, table};

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
                    human(g.oldest_stuck_for_seconds).into(),
                    Md::List(paths),
                    Md::code(&g.next_command),
                ]
            })
            .collect();
        out.push_str(&format!(
            "\n**{}**, grouped (no event for {} or more)\n\n",
            code("deployment_stuck"),
            human(report.snapshot.stuck_after_seconds as i64)
        ));
        out.push_str(&table(
            &["group", "stuck", "oldest", "paths", "lists them"],
            &rows,
        ));
    }
}

/// `deployment_stuck`: the first alert as a table (the alert's name a
/// code span, as every code in the report).
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
                    human(d.stuck_for_seconds).into(),
                    d.nodes.join(", ").into(),
                    Md::code(d.path.as_str()),
                ]
            })
            .collect();
        out.push_str(&format!(
            "\n**{}** (no event for {} or more)\n\n",
            code("deployment_stuck"),
            human(report.snapshot.stuck_after_seconds as i64)
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

/// `job_lease_orphaned`: the second alert as a table.
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
        out.push_str(&format!("\n**{}**\n\n", code("job_lease_orphaned")));
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
            out.push_str(&format!("- ! {}\n", prose(&skew.message)));
        }
    }
}
