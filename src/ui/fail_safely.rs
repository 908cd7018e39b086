//! `fail-safely` on the screen: the plan read under the locks, and the
//! outcome.

use serde_json::Value;

use super::output::{Output, Paint};
use crate::db::transition::Outcome;
use crate::decide::Severity;

/// The plan as read under the locks.
pub fn plan_text(out: &Output, plan: &Outcome) -> String {
    let mut lines = vec![out.paint(
        &format!(
            "PLAN for deployment {}: {}",
            plan.deployment_id,
            plan.path.as_str()
        ),
        Paint::Bold,
    )];
    lines.push(format!(
        "  status {} → {}",
        plan.previous_status, plan.new_status
    ));
    lines.push(stuck_line(out, plan));
    lines.push(format!(
        "  append event #{} {} {}",
        plan.event.sequence, plan.event.kind, plan.event.payload
    ));
    for e in &plan.evidence {
        lines.push(format!("  dispatched: {}", e.detail));
    }
    for f in &plan.findings {
        if f.severity != Severity::Info {
            lines.push(format!("  ! {}", f.message));
        }
    }
    lines.push(format!(
        "  fingerprint {}",
        plan.fingerprint.as_deref().unwrap_or("-")
    ));
    lines.join("\n")
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
        &o.previous_status,
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
    let mut lines = vec![out.paint(
        &headline(o),
        if o.dry_run { Paint::Bold } else { Paint::Good },
    )];
    lines.push(format!(
        "  event #{} {} id {}{}",
        o.event.sequence,
        o.event.kind,
        o.event.id,
        if not_written { " (not written)" } else { "" }
    ));
    if let Some(reason) = o.event.payload.get("reason").and_then(Value::as_str) {
        lines.push(format!("  reason: {reason}"));
    }
    lines.push(stuck_line(out, o));
    for e in &o.evidence {
        lines.push(format!("  dispatched: {}", e.detail));
    }
    if let Some(fp) = &o.fingerprint {
        lines.push(format!(
            "  fingerprint {fp} · idempotency key {}",
            o.idempotency_key
        ));
    }
    if not_written {
        lines.push(format!(
            "Next: rerun without --dry-run (or with --yes --expect-path {} --expect-fingerprint {})",
            o.path.as_str(),
            o.fingerprint.as_deref().unwrap_or("-")
        ));
    } else {
        lines.push(format!("Next: {}", o.next_command));
    }
    lines.join("\n")
}
