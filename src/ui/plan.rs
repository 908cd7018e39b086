//! A plan (`fail-safely --plan-out`) on the screen and in the ticket: who
//! asked, when it expires, where it applies, each deployment with its path
//! and fingerprint, and the exact command that applies it.

use super::OutputFormat;
use super::markdown::{Md, at, code, escape, prose, table};
use super::output::{Output, Paint};
use super::report::{self, Line, Report};
use super::sanitize::visible;
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

/// The plan's head: id, requester, times, target.
fn head(out: &Output, plan: &Plan) -> Vec<String> {
    vec![
        out.paint(
            &format!(
                "PLAN {} for {} deployment{}: nothing was written",
                visible(&plan.plan_id),
                plan.deployments.len(),
                if plan.deployments.len() == 1 { "" } else { "s" }
            ),
            Paint::Bold,
        ),
        format!("  requested by {}", who(&plan.requester)),
        format!(
            "  at {}, expires {}",
            at(plan.created_at),
            at(plan.expires_at)
        ),
        format!("  {}", describe_with_identity(&plan.target)),
        format!("  reason: {}", visible(&plan.reason)),
    ]
}

fn deployment_lines(plan: &Plan) -> Vec<String> {
    let mut lines: Vec<String> = plan
        .deployments
        .iter()
        .map(|d| {
            format!(
                "  {}  {} → {}  {}{}  fingerprint {}",
                short_id(d.deployment_id),
                visible(&d.previous_status),
                visible(&d.new_status),
                d.path.as_str(),
                if d.stuck { "" } else { " (NOT stuck)" },
                visible(&d.fingerprint)
            )
        })
        .collect();
    for l in &plan.left_out {
        lines.push(format!(
            "  {}  left out ({}): {}",
            visible(&l.deployment),
            visible(&l.result),
            visible(&l.why)
        ));
    }
    lines
}

/// What `--apply` shows before it asks.
pub fn apply_text(out: &Output, plan: &Plan, here: &crate::model::target::WriteTarget) -> String {
    let mut lines = head(out, plan);
    lines.push(format!("  applying {}", super::target::describe(here)));
    lines.extend(deployment_lines(plan));
    lines.join("\n")
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
        "**Requested by:** {} at {} · **expires** {}\n\n**Target:** {}\n\n**Reason:** {}\n\n",
        escape(&who(&plan.requester)),
        at(plan.created_at),
        at(plan.expires_at),
        escape(&describe_with_identity(&plan.target)),
        escape(&plan.reason)
    ));
    let rows: Vec<Vec<Md>> = plan
        .deployments
        .iter()
        .map(|d| {
            vec![
                Md::code(d.deployment_id),
                Md::List(vec![Md::code(&d.previous_status), Md::code(&d.new_status)]),
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
        let mut lines = head(out, self);
        lines.extend(deployment_lines(self));
        lines.push("Next: review it in the ticket; someone else applies it with:".into());
        lines.push(format!("  {}", visible(&self.apply_command)));
        vec![Line::Out(lines.join("\n"))]
    }

    fn markdown(&self, _out: &Output) -> Vec<Line> {
        vec![Line::Out(markdown(self))]
    }
}
