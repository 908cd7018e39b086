//! `fail-safely --from` on the screen: one plan for the whole batch, the
//! confirmation (type the number of deployments), a progress bar, and the
//! summary.

use std::time::Duration;

use indicatif::ProgressBar;

use super::output::{Output, Paint};
use super::report::{Line, Report};
use super::sanitize::visible;
use crate::exit::ExitCode;
use crate::model::batch::{BatchItem, BatchReport, RateKept};
use crate::model::target::WriteTarget;

/// An error of several lines (a prefix's candidates, say) as one line: its
/// lines joined with "; ", so the screen shows them, not a literal `\n`.
fn one_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// What the plan says of one deployment, in one line.
fn plan_line(item: &BatchItem) -> String {
    let short: String = item.deployment.chars().take(8).collect();
    match (&item.outcome, &item.error) {
        (Some(o), _) if o.replayed => format!(
            "  {short}  already done: {} ({} → {}), nothing to write",
            o.path.as_str(),
            o.previous_status,
            o.new_status
        ),
        (Some(o), _) => format!(
            "  {short}  {} → {}  {}",
            o.previous_status,
            o.new_status,
            o.path.as_str()
        ),
        (None, Some(error)) => format!("  {short}  WILL NOT RUN: {}", visible(&one_line(error))),
        (None, None) => format!("  {short}  ?"),
    }
}

/// The teardowns that will wait for a node, one line per node however many
/// deployments wait for it ("41 × teardown will wait for node edge-07 …").
fn waits_lines(items: &[BatchItem]) -> Vec<String> {
    let mut groups: Vec<(String, String, Vec<String>)> = Vec::new();
    for item in items {
        let Some(o) = item.outcome.as_ref().filter(|o| !o.replayed) else {
            continue;
        };
        let short: String = visible(&item.deployment).chars().take(8).collect();
        for f in o
            .findings
            .iter()
            .filter(|f| f.code == "teardown_waits_for_node")
        {
            let message = visible(&f.message).into_owned();
            // "teardown will wait for node N (last seen …): instance … is
            // active there; it completes only when N is back"
            let (what, rest) = message.split_once(": ").unwrap_or((&message, ""));
            let tail = rest.rsplit("; ").next().unwrap_or(rest).to_string();
            match groups.iter_mut().find(|(w, _, _)| w == what) {
                Some((_, _, shorts)) => shorts.push(short.clone()),
                None => groups.push((what.to_string(), tail, vec![short.clone()])),
            }
        }
    }
    groups
        .into_iter()
        .map(|(what, tail, shorts)| match shorts.as_slice() {
            [one] => format!("  ! {one}: {what}: {tail}"),
            _ => format!("  ! {} × {what}: {tail}", shorts.len()),
        })
        .collect()
}

/// The plan of the whole batch, for stderr: one line per deployment, the
/// waits grouped, and last — directly above the prompt — the counts and
/// where it would be written.
pub fn plan_text(
    out: &Output,
    items: &[BatchItem],
    keep_going: bool,
    target: &WriteTarget,
) -> String {
    let to_write: Vec<&str> = items
        .iter()
        .filter_map(|i| i.outcome.as_ref().filter(|o| !o.replayed))
        .map(|o| o.path.as_str())
        .collect();
    let mut lines: Vec<String> = items.iter().map(plan_line).collect();
    lines.extend(waits_lines(items));
    if items.iter().any(|i| i.outcome.is_none()) && !keep_going {
        lines.push(
            "The batch stops at the first deployment that is refused (--keep-going goes on); \
             the ones before it are written."
                .to_string(),
        );
    }
    let per_path: Vec<String> = ["operator_failed", "teardown_requested"]
        .iter()
        .map(|path| (path, to_write.iter().filter(|p| *p == path).count()))
        .filter(|(_, n)| *n > 0)
        .map(|(path, n)| format!("{n} {path}"))
        .collect();
    lines.push(out.paint(
        &format!(
            "PLAN for {} deployments: {} to write{}, {} already done, {} refused",
            items.len(),
            to_write.len(),
            if per_path.is_empty() {
                String::new()
            } else {
                format!(" ({})", per_path.join(", "))
            },
            items
                .iter()
                .filter(|i| i.outcome.as_ref().is_some_and(|o| o.replayed))
                .count(),
            items.iter().filter(|i| i.outcome.is_none()).count()
        ),
        Paint::Bold,
    ));
    lines.push(format!("  {}", super::target::describe(target)));
    lines.join("\n")
}

/// A bar on a terminal, nothing otherwise; fitted to the screen with
/// room for `12/41 · ` and a whole deployment id after it.
pub fn progress(terminal: bool, len: usize) -> Option<ProgressBar> {
    terminal.then(|| {
        let bar = ProgressBar::new(len as u64);
        let counts = 2 * len.to_string().len() + 1;
        bar.set_style(super::bar::style(
            super::output::screen_width(),
            "{pos}/{len} · ETA {eta} · {msg}",
            counts + 3 + 36 + 10,
            30,
        ));
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    })
}

/// The summary, for stdout.
pub fn summary_text(out: &Output, report: &BatchReport) -> String {
    let s = &report.summary;
    let mut lines = vec![out.paint(
        &format!(
            "{} deployments: {} applied, {} already done, {} refused, {} failed{}, {} not run{}",
            s.total,
            s.applied,
            s.replayed,
            s.refused,
            s.failed,
            if s.in_doubt > 0 {
                format!(", {} in doubt (COMMIT sent, answer lost)", s.in_doubt)
            } else {
                String::new()
            },
            s.skipped,
            if report.dry_run {
                format!(" ({} planned; dry run, nothing written)", s.planned)
            } else {
                String::new()
            }
        ),
        if report.exit_code == ExitCode::Done {
            Paint::Good
        } else {
            Paint::Bad
        },
    )];
    if let Some(target) = &report.target {
        lines.push(format!("  {}", super::target::describe(target)));
    }
    if let Some(plan) = &report.plan_id {
        lines.push(format!("  plan {}", visible(plan)));
    }
    if let Some(rate) = &report.rate {
        lines.push(format!("  {}", rate_text(rate)));
    }
    for item in &report.outcomes {
        let short: String = visible(&item.deployment).chars().take(8).collect();
        let result = item.result.as_str();
        let what = match (&item.outcome, &item.error) {
            (Some(o), _) => format!("{result} {}", o.path.as_str()),
            (None, Some(e)) => format!("{result}: {}", visible(&one_line(e))),
            (None, None) => result.to_string(),
        };
        lines.push(format!("  {short}  {what}"));
    }
    let at_risk = report
        .outcomes
        .iter()
        .filter(|i| {
            i.outcome
                .as_ref()
                .and_then(|o| o.replication.as_ref())
                .is_some_and(|r| r.at_risk())
        })
        .count();
    if at_risk > 0 {
        lines.push(out.paint(
            &format!(
                "  {at_risk} written but not yet on any standby (asynchronous replication): a \
                 failover now could lose them; rerun the same batch after a failover"
            ),
            Paint::Warn,
        ));
    }
    if let Some(next) = &report.next_command {
        if report.unfinished() {
            lines.push(
                "The batch did not finish: rerun it; what was applied is replayed, not \
                 written twice, and the rest is done"
                    .to_string(),
            );
        }
        lines.push(format!("Next: {next}"));
        lines.push("  then `pushleft-controller history` for the record".into());
    }
    lines.join("\n")
}

/// One `error:` line for stderr per deployment that was refused, failed
/// or is in doubt, whatever the output format: a batch's failures are
/// errors too, not only rows of its report.
pub fn error_lines(report: &BatchReport) -> Vec<String> {
    report
        .outcomes
        .iter()
        .filter_map(|item| {
            let error = item.error.as_deref()?;
            Some(format!(
                "error: deployment {} {}: {}",
                visible(&item.deployment),
                item.result.as_str(),
                visible(&one_line(error))
            ))
        })
        .collect()
}

/// `paced at most 5/s: kept 4.9/s, 40 in 8.1s`.
fn rate_text(rate: &RateKept) -> String {
    let kept = rate
        .kept_per_second
        .map(|k| format!("kept {k:.1}/s, "))
        .unwrap_or_default();
    format!(
        "paced at most {}/s: {kept}{} in {:.1}s",
        rate.limit_per_second, rate.runs, rate.elapsed_seconds
    )
}

impl Report for BatchReport {
    fn human(&self, out: &Output) -> Vec<Line> {
        vec![Line::Out(summary_text(out, self))]
    }
}
