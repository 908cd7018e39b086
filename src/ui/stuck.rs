//! `stuck` on the screen: the two alerts as two tables.

use anyhow::Result;

use super::output::{self, Output, Paint};
use crate::duration;
use crate::model::short_id;
use crate::model::stuck::{OrphanedLease, StuckDeployment, StuckGroup, StuckReport};

fn secs(seconds: u64) -> i64 {
    i64::try_from(seconds).unwrap_or(i64::MAX)
}

pub fn render(report: &StuckReport, output: &Output) -> Result<()> {
    output::print(&text(report, output))?;
    if report.found_anything() {
        output::note(
            "Look before you act: `pushleft-controller diagnose <deployment>` shows the evidence; \
             fail-safely decides the path again under row locks and asks before it writes.",
        );
    }
    Ok(())
}

/// Both tables (or the groups), as text.
pub fn text(report: &StuckReport, output: &Output) -> String {
    let mut text = String::new();
    text.push_str(&output.paint(
        &format!(
            "Stuck deployments (in flight, no event for {} or more): {}",
            duration::human(secs(report.snapshot.stuck_after_seconds)),
            report.deployments_stuck.len()
        ),
        Paint::Bold,
    ));
    text.push('\n');
    match &report.groups {
        Some(groups) if !groups.is_empty() => {
            text.push_str(&groups_table(groups, output));
            text.push('\n');
        }
        Some(_) => {}
        None if !report.deployments_stuck.is_empty() => {
            text.push_str(&deployments_table(&report.deployments_stuck, output));
            text.push('\n');
        }
        None => {}
    }
    let left_out = report.left_out.unwrap_or_default();
    text.push_str(&more(left_out.deployments_stuck));
    text.push('\n');
    text.push_str(&output.paint(
        &format!(
            "Orphaned leases (expired more than {} ago, not reclaimed): {}",
            duration::human(secs(report.snapshot.grace_seconds)),
            report.leases_orphaned.len()
        ),
        Paint::Bold,
    ));
    text.push('\n');
    if !report.leases_orphaned.is_empty() {
        text.push_str(&leases_table(&report.leases_orphaned, output));
        text.push('\n');
    }
    text.push_str(&more(left_out.leases_orphaned));
    text
}

/// "… and 2,941 more" when `--limit` left rows out.
fn more(left_out: usize) -> String {
    if left_out == 0 {
        return String::new();
    }
    format!("… and {} more (--limit)\n", thousands(left_out))
}

/// 2941 → "2,941".
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn groups_table(groups: &[StuckGroup], output: &Output) -> String {
    let mut table = output.table(&["group", "stuck", "oldest", "paths", "next"]);
    for g in groups {
        let mut paths = Vec::new();
        if g.teardown_requested > 0 {
            paths.push(format!("{} teardown_requested", g.teardown_requested));
        }
        if g.operator_failed > 0 {
            paths.push(format!("{} operator_failed", g.operator_failed));
        }
        let none = g.count - g.teardown_requested - g.operator_failed;
        if none > 0 {
            paths.push(format!("{none} none"));
        }
        table.add_row(vec![
            output.cell(super::output::visible(&g.key), false),
            output.cell(g.count, false),
            output.cell(duration::human(g.oldest_stuck_for_seconds), true),
            output.cell(paths.join(", "), false),
            output.cell(super::output::visible(&g.next_command), false),
        ]);
    }
    table.to_string()
}

fn deployments_table(rows: &[StuckDeployment], output: &Output) -> String {
    let mut table = output.table(&[
        "deployment",
        "org",
        "status",
        "stuck for",
        "last event",
        "nodes",
        "path",
        "next",
    ]);
    for d in rows {
        let last_event = match (&d.last_event_kind, d.last_event_at) {
            (Some(kind), Some(_)) => kind.clone(),
            _ => "none (since creation)".to_string(),
        };
        table.add_row(vec![
            output.cell(short_id(d.deployment_id), false),
            output.cell(short_id(d.org_id), false),
            output.cell(&d.status, false),
            output.cell(duration::human(d.stuck_for_seconds), true),
            output.cell(last_event, false),
            output.cell(d.nodes.join(", "), false),
            output.cell(d.path.as_str(), false),
            output.cell(&d.next_command, false),
        ]);
    }
    table.to_string()
}

fn leases_table(rows: &[OrphanedLease], output: &Output) -> String {
    let mut table = output.table(&[
        "job",
        "deployment",
        "org",
        "status",
        "kind",
        "node",
        "expired for",
        "path",
        "next",
    ]);
    for l in rows {
        let node = match (&l.node_name, l.node_heartbeat_age_seconds) {
            (Some(name), Some(age)) => format!("{name} (seen {})", duration::ago(age)),
            (Some(name), None) => format!("{name} (never seen)"),
            _ => "-".to_string(),
        };
        table.add_row(vec![
            output.cell(short_id(l.job_id), false),
            output.cell(short_id(l.deployment_id), false),
            output.cell(short_id(l.org_id), false),
            output.cell(&l.deployment_status, false),
            output.cell(&l.kind, false),
            output.cell(node, false),
            output.cell(duration::human(l.expired_for_seconds), true),
            output.cell(l.path.as_str(), false),
            output.cell(&l.next_command, false),
        ]);
    }
    table.to_string()
}
