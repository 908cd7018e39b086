//! A plan (`fail-safely --plan-out`) on the screen and in the ticket: who
//! asked, when it expires, where it applies, each deployment with its path
//! and fingerprint, and the exact command that applies it.

use super::OutputFormat;
use super::markdown::{Md, at, code, escape, prose, table};
use super::output::{Output, Paint};
use super::report::{self, Line, Report};
use super::sanitize::visible;
use super::table::{Cell, Table, col};
use super::target::describe_with_identity;
use crate::model::plan::{Person, Plan};
use crate::model::short_id;

/// `alice (session_user ops) on jump-1, pushleft-controller/0.1.0`.
fn who(p: &Person) -> String {
    format!(
        "{} (session_user {}) on {}, {}",
        visible(&p.os_user),
        visible(&p.session_user),
        visible(&p.host),
        visible(&p.tool)
    )
}

/// How many deployments take each path: `41 teardown_requested`, and how
/// many of them are not stuck.
fn counts(plan: &Plan) -> String {
    let mut counts: Vec<String> = ["operator_failed", "teardown_requested"]
        .iter()
        .map(|path| {
            let n = plan.deployments.iter().filter(|d| d.path.as_str() == *path);
            (path, n.count())
        })
        .filter(|(_, n)| *n > 0)
        .map(|(path, n)| format!("{n} {path}"))
        .collect();
    let not_stuck = plan.deployments.iter().filter(|d| !d.stuck).count();
    if not_stuck > 0 {
        counts.push(format!("{not_stuck} NOT stuck"));
    }
    if counts.is_empty() {
        "nothing to write".to_string()
    } else {
        counts.join(", ")
    }
}

/// The plan's warnings, one line per kind however many deployments share
/// it ("41 × teardown will wait for node edge-07 (…): it completes only
/// when edge-07 is back"); a warning of one deployment names it.
pub fn warning_lines(plan: &Plan) -> Vec<String> {
    let mut groups: Vec<(String, String, Vec<String>)> = Vec::new();
    for d in &plan.deployments {
        for w in &d.warnings {
            let message = visible(&w.message).into_owned();
            // "teardown will wait for node N (last seen …): instance … is
            // active there; it completes only when N is back"
            let (what, rest) = message.split_once(": ").unwrap_or((&message, ""));
            let tail = rest.rsplit("; ").next().unwrap_or(rest).to_string();
            let short = short_id(d.deployment_id);
            match groups.iter_mut().find(|(w, _, _)| w == what) {
                Some((_, _, shorts)) => shorts.push(short),
                None => groups.push((what.to_string(), tail, vec![short])),
            }
        }
    }
    groups
        .into_iter()
        .map(|(what, tail, shorts)| {
            let tail = if tail.is_empty() {
                String::new()
            } else {
                format!(": {tail}")
            };
            match shorts.as_slice() {
                [one] => format!("{one}: {what}{tail}"),
                _ => format!("{} × {what}{tail}", shorts.len()),
            }
        })
        .collect()
}

/// `2026-12-02 01:59:10Z (3m ago)`, relative to `now`.
fn when(at_time: chrono::DateTime<chrono::Utc>, now: chrono::DateTime<chrono::Utc>) -> String {
    format!(
        "{} ({})",
        at(at_time),
        crate::duration::ago((now - at_time).num_seconds())
    )
}

/// The plan's head: id and counts, requester, times, target, reason.
/// `now`: when the plan is shown later (`--apply`), for its age.
fn head(out: &Output, plan: &Plan, now: Option<chrono::DateTime<chrono::Utc>>) -> Vec<String> {
    let n = plan.deployments.len();
    vec![
        out.paint(
            &format!(
                "PLAN {} for {n} deployment{}: {}",
                visible(&plan.plan_id),
                if n == 1 { "" } else { "s" },
                counts(plan)
            ),
            Paint::Bold,
        ),
        format!("  requested by {}", who(&plan.requester)),
        format!(
            "  at {}, expires {}",
            match now {
                Some(now) => when(plan.created_at, now),
                None => at(plan.created_at),
            },
            at(plan.expires_at)
        ),
        format!("  {}", describe_with_identity(&plan.target)),
        format!("  reason: {}", visible(&plan.reason)),
    ]
}

/// One row per deployment, fitted to the screen: the fingerprint is
/// shown whole or, on a narrow screen, left out (never cut); the plan
/// file holds it and `--apply` checks it whatever is shown.
fn deployment_lines(out: &Output, plan: &Plan) -> Vec<String> {
    let mut table = Table::new(&[
        col("deployment"),
        col("status"),
        col("path"),
        col("stuck").drop(2),
        col("fingerprint").drop(1),
    ]);
    for d in &plan.deployments {
        table.row(vec![
            Cell::new(short_id(d.deployment_id)),
            Cell::new(format!(
                "{} → {}",
                visible(&d.previous_status),
                visible(&d.new_status)
            )),
            Cell::new(d.path.as_str()),
            Cell::new(if d.stuck { "yes" } else { "NOT stuck" }).paint_if(!d.stuck, Paint::Bad),
            Cell::new(visible(&d.fingerprint)),
        ]);
    }
    let mut lines = vec![table.render(out)];
    for l in &plan.left_out {
        lines.push(format!(
            "left out ({}): {}: {}",
            visible(&l.result),
            visible(&l.deployment),
            visible(&l.why)
        ));
    }
    lines
}

/// What `--apply` shows before it asks: the deployments, then — directly
/// above the prompt, where the approver looks — the warnings, who asked
/// and when (time and ago), the counts per path, and where it applies.
pub fn apply_text(
    out: &Output,
    plan: &Plan,
    here: &crate::model::target::WriteTarget,
    now: chrono::DateTime<chrono::Utc>,
) -> String {
    let mut lines = deployment_lines(out, plan);
    lines.extend(warning_lines(plan).iter().map(|w| format!("! {w}")));
    lines.extend(head(out, plan, Some(now)));
    lines.push(format!("  applying {}", super::target::describe(here)));
    super::text::fitted(&lines.join("\n"), out.width).into_owned()
}

/// `-o markdown`: the plan for the ticket, with the command that applies
/// it.
fn markdown(plan: &Plan) -> String {
    let mut out = format!(
        "### fail-safely plan {} — {} deployment{}, nothing written yet\n\n",
        code(&plan.plan_id),
        plan.deployments.len(),
        if plan.deployments.len() == 1 { "" } else { "s" }
    );
    out.push_str(&format!(
        "**Requested by:** {} at {} · **expires** {}\n\n**Paths:** {}\n\n**Target:** {}\n\n**Reason:** {}\n\n",
        escape(&who(&plan.requester)),
        at(plan.created_at),
        at(plan.expires_at),
        escape(&counts(plan)),
        escape(&describe_with_identity(&plan.target)),
        escape(&plan.reason)
    ));
    let warnings = warning_lines(plan);
    if !warnings.is_empty() {
        out.push_str("**Warnings:**\n\n");
        for w in &warnings {
            out.push_str(&format!("- {}\n", escape(w)));
        }
        out.push('\n');
    }
    let rows: Vec<Vec<Md>> = plan
        .deployments
        .iter()
        .map(|d| {
            vec![
                Md::code(d.deployment_id),
                Md::Change(d.previous_status.clone(), d.new_status.clone()),
                Md::code(d.path.as_str()),
                if d.stuck { "yes" } else { "NO" }.to_string().into(),
                Md::code(&d.fingerprint),
            ]
        })
        .collect();
    out.push_str(&table(
        &["deployment", "status", "path", "stuck", "fingerprint"],
        &rows,
    ));
    for l in &plan.left_out {
        out.push_str(&format!(
            "\n- left out: {} ({}): {}",
            code(&l.deployment),
            code(&l.result),
            prose(&l.why)
        ));
    }
    out.push_str(&format!(
        "\n\n**Apply (someone else, before it expires):** {}\n",
        code(&plan.apply_command)
    ));
    out.push_str(&super::markdown::footer(plan.created_at));
    out
}

impl Report for Plan {
    const FORMATS: &'static [OutputFormat] = report::WITH_MARKDOWN;

    fn human(&self, out: &Output) -> Vec<Line> {
        let mut lines = head(out, self, None);
        lines.extend(deployment_lines(out, self));
        lines.extend(warning_lines(self).iter().map(|w| format!("! {w}")));
        lines.push("Next: review it in the ticket; someone else applies it with:".into());
        lines.push(format!("  {}", visible(&self.apply_command)));
        vec![Line::Out(lines.join("\n"))]
    }

    fn markdown(&self, _out: &Output) -> Vec<Line> {
        vec![Line::Out(markdown(self))]
    }
}
