//! `fail-safely` on the screen: the plan read under the locks, and the
//! outcome. Every line fits the screen; the operator's reason and the
//! payload are shown through the sanitizer.

use serde_json::Value;

use super::OutputFormat;
use super::markdown::{at, code, escape, footer, mark, prose};
use super::output::{Output, Paint};
use super::report::{self, Line, Report};
use super::sanitize::visible;
use super::text::{fit_command, width_of, wrap};
use crate::model::assessment::Severity;
use crate::model::outcome::Outcome;

/// The warnings and problems the decision found (a teardown that will
/// wait for a dead node, say): the plan, the dry run and the outcome all
/// show them.
/// The most findings and evidence lines a plan shows: a deployment with
/// 10,000 dispatched jobs still fits a screen or two (JSON has them all).
const PLAN_ITEMS: usize = 10;

fn finding_lines(out: &Output, o: &Outcome, lines: &mut Vec<String>) {
    let shown: Vec<_> = o
        .findings
        .iter()
        .filter(|f| f.severity != Severity::Info)
        .collect();
    for f in shown.iter().take(PLAN_ITEMS) {
        for l in wrap(&visible(&f.message), out.width, "  ! ", "    ") {
            lines.push(out.paint(&l, Paint::Warn));
        }
    }
    more(shown.len(), "finding", lines);
}

fn evidence_lines(out: &Output, o: &Outcome, lines: &mut Vec<String>) {
    for e in o.evidence.iter().take(PLAN_ITEMS) {
        lines.extend(wrap(
            &visible(&e.detail),
            out.width,
            "  dispatched: ",
            "    ",
        ));
    }
    more(o.evidence.len(), "dispatched item", lines);
}

/// "… and N more" past [`PLAN_ITEMS`].
fn more(total: usize, what: &str, lines: &mut Vec<String>) {
    if total > PLAN_ITEMS {
        let n = total - PLAN_ITEMS;
        lines.push(format!(
            "  … and {n} more {what}{} (--output json lists them all)",
            if n == 1 { "" } else { "s" }
        ));
    }
}

/// "Held by session 4242 (ops, psql, from 10.0.0.5, idle in transaction,
/// its transaction open for 3m)": who to look at after a lock timeout.
pub fn lock_holders_text(holders: &[crate::model::outcome::LockHolder]) -> String {
    let sessions: Vec<String> = holders
        .iter()
        .map(|h| {
            let mut about: Vec<String> = [&h.user, &h.application, &h.state]
                .into_iter()
                .flatten()
                .filter(|s| !s.is_empty())
                .map(|s| visible(s).into_owned())
                .collect();
            if let Some(addr) = &h.client_addr {
                about.push(format!("from {addr}"));
            }
            if let Some(age) = h.transaction_age_seconds {
                about.push(format!(
                    "its transaction open for {}",
                    crate::duration::human(age)
                ));
            }
            format!("session {} ({})", h.pid, about.join(", "))
        })
        .collect();
    format!(
        "Held by {} (pg_stat_activity has the details; find out what it does before ending it)",
        sessions.join("; or ")
    )
}

/// The plan as read under the locks.
pub fn plan_text(out: &Output, plan: &Outcome) -> String {
    let mut lines: Vec<String> = wrap(
        &format!(
            "PLAN for deployment {}: {}",
            plan.deployment_id,
            plan.path.as_str()
        ),
        out.width,
        "",
        "  ",
    )
    .iter()
    .map(|l| out.paint(l, Paint::Bold))
    .collect();
    target_lines(out, plan, &mut lines);
    lines.push(format!(
        "  status {} → {}",
        visible(&plan.previous_status.to_string()),
        plan.new_status
    ));
    lines.push(stuck_line(out, plan));
    lines.extend(wrap(
        &visible(&format!(
            "append event #{} {} {}",
            plan.event.sequence, plan.event.kind, plan.event.payload
        )),
        out.width,
        "  ",
        "    ",
    ));
    evidence_lines(out, plan, &mut lines);
    finding_lines(out, plan, &mut lines);
    lines.push(format!(
        "  fingerprint {}",
        plan.fingerprint.as_deref().unwrap_or("-")
    ));
    lines.join("\n")
}

/// Where it is (or would be) written, when the run knows.
fn target_lines(out: &Output, o: &Outcome, lines: &mut Vec<String>) {
    if let Some(target) = &o.target {
        lines.extend(wrap(
            &super::target::describe(target),
            out.width,
            "  ",
            "    ",
        ));
    }
}

/// Stuck or not, as the plan and the outcome say it.
fn stuck_line(out: &Output, o: &Outcome) -> String {
    let since = o
        .stuck_for_seconds
        .map(|s| format!(", no progress for {}", crate::duration::human(s)))
        .unwrap_or_default();
    if o.stuck {
        format!("  stuck: yes{since}")
    } else {
        out.paint(
            &format!("  stuck: NO, not stuck{since} (--even-if-not-stuck)"),
            Paint::Warn,
        )
    }
}

fn headline(o: &Outcome) -> String {
    let (path, id, from, to) = (
        o.path.as_str(),
        o.deployment_id,
        visible(&o.previous_status.to_string()).into_owned(),
        &o.new_status,
    );
    if o.replayed {
        format!(
            "Already done by an earlier run with the same idempotency key: {path} on deployment {id} ({from} → {to}). Nothing was written now."
        )
    } else if o.dry_run {
        format!(
            "Dry run: would apply {path} to deployment {id} ({from} → {to}). Rolled back, nothing was written."
        )
    } else {
        format!("Applied {path} to deployment {id} ({from} → {to}).")
    }
}

/// The outcome: what was (or would be) done, the event, what next.
pub fn outcome_text(out: &Output, o: &Outcome) -> String {
    let not_written = o.dry_run && !o.replayed;
    let paint = if o.dry_run { Paint::Bold } else { Paint::Good };
    let mut lines: Vec<String> = wrap(&headline(o), out.width, "", "  ")
        .iter()
        .map(|l| out.paint(l, paint))
        .collect();
    target_lines(out, o, &mut lines);
    lines.extend(wrap(
        &format!(
            "event #{} {} id {}{}",
            o.event.sequence,
            visible(&o.event.kind),
            o.event.id,
            if not_written { " (not written)" } else { "" }
        ),
        out.width,
        "  ",
        "    ",
    ));
    if not_written {
        // What it would append, as the interactive plan shows it.
        lines.extend(wrap(
            &visible(&format!("payload {}", o.event.payload)),
            out.width,
            "  ",
            "    ",
        ));
    } else if let Some(reason) = o.event.payload.get("reason").and_then(Value::as_str) {
        lines.extend(wrap(&visible(reason), out.width, "  reason: ", "    "));
    }
    replication_lines(out, o, &mut lines);
    lines.push(stuck_line(out, o));
    evidence_lines(out, o, &mut lines);
    finding_lines(out, o, &mut lines);
    if let Some(fp) = &o.fingerprint {
        lines.push(format!("  fingerprint {fp}"));
    }
    lines.extend(wrap(
        &format!("idempotency key {}", visible(&o.idempotency_key)),
        out.width,
        "  ",
        "    ",
    ));
    next_lines(out, o, not_written, &mut lines);
    lines.join("\n")
}

/// How many of the primary's standbys had the write when it was read
/// after COMMIT, in warning colour when none had it yet.
fn replication_lines(out: &Output, o: &Outcome, lines: &mut Vec<String>) {
    if let Some(replication) = o.replication.as_ref().and_then(|r| r.sentence()) {
        let paint = match o.replication.as_ref().is_some_and(|r| r.at_risk()) {
            true => Paint::Warn,
            false => Paint::Dim,
        };
        for line in wrap(&replication, out.width, "  ", "    ") {
            lines.push(out.paint(&line, paint));
        }
    }
}

/// What to run next: after a dry run the same command for real, after a
/// write the wait that verifies it.
fn next_lines(out: &Output, o: &Outcome, not_written: bool, lines: &mut Vec<String>) {
    if not_written {
        // The command to paste, whole on its line (a reason's spaces are
        // inside its quotes, where no line break continues a command): the
        // same without --dry-run, which asks before it writes. Too narrow
        // for it, in words.
        let room = out.command_room(2);
        let rerun = o.rerun.as_ref().map(|c| fit_command(&c.to_string(), room));
        match rerun.filter(|c| width_of(c) <= room) {
            Some(rerun) => {
                lines.push(
                    "Next: the same without --dry-run (it asks before it writes):".to_string(),
                );
                lines.push(format!("  {rerun}"));
                lines.push("To run it unattended, add:".to_string());
            }
            None => {
                lines.push("Next: rerun without --dry-run; to run it unattended, add:".to_string())
            }
        }
        lines.push(format!("  --yes --expect-path {}", o.path.as_str()));
        lines.push(format!(
            "  --expect-fingerprint {}",
            o.fingerprint.as_deref().unwrap_or("-")
        ));
    } else {
        lines.push("Next: follow it until the runbook's Verification holds:".to_string());
        lines.push(format!(
            "  {}",
            fit_command(&o.next_command.to_string(), out.command_room(2))
        ));
    }
}

impl Report for Outcome {
    const FORMATS: &'static [OutputFormat] = report::WITH_MARKDOWN;

    fn human(&self, out: &Output) -> Vec<Line> {
        vec![Line::Out(outcome_text(out, self))]
    }

    fn markdown(&self, _out: &Output) -> Vec<Line> {
        vec![Line::Out(markdown(self))]
    }
}

/// `fail-safely -o markdown` (one deployment).
fn markdown(o: &Outcome) -> String {
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
            escape(&super::target::describe(target))
        ));
    }
    if let Some(reason) = o.event.payload.get("reason").and_then(|r| r.as_str()) {
        out.push_str(&format!("\n**Reason:** {}\n", escape(reason)));
    }
    for e in &o.evidence {
        out.push_str(&format!("\n- dispatched: {}", prose(&e.detail)));
    }
    for f in o.findings.iter().filter(|f| f.severity != Severity::Info) {
        out.push_str(&format!("\n- {} {}", mark(f.severity), prose(&f.message)));
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
