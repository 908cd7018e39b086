//! `fail-safely --from` on the screen: one plan for the whole batch, the
//! confirmation (type the number of deployments), a progress bar, and the
//! summary.

use std::time::Duration;

use indicatif::ProgressBar;

use super::output::{Output, Paint};
use super::report::{Line, Report};
use super::sanitize::visible;
use crate::model::batch::{BatchItem, BatchReport};

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
        (Some(o), _) => {
            let waits: Vec<&str> = o
                .findings
                .iter()
                .filter(|f| f.code == "teardown_waits_for_node")
                .map(|f| f.message.as_str())
                .collect();
            let mut line = format!(
                "  {short}  {} → {}  {}",
                o.previous_status,
                o.new_status,
                o.path.as_str()
            );
            for w in waits {
                line.push_str(&format!("\n            ! {}", visible(w)));
            }
            line
        }
        (None, Some(error)) => format!("  {short}  WILL NOT RUN: {}", visible(error)),
        (None, None) => format!("  {short}  ?"),
    }
}

/// The plan of the whole batch, for stderr.
pub fn plan_text(out: &Output, items: &[BatchItem], keep_going: bool) -> String {
    let to_write = items
        .iter()
        .filter(|i| i.outcome.as_ref().is_some_and(|o| !o.replayed))
        .count();
    let mut lines = vec![out.paint(
        &format!(
            "PLAN for {} deployments: {to_write} to write, {} already done, {} refused",
            items.len(),
            items
                .iter()
                .filter(|i| i.outcome.as_ref().is_some_and(|o| o.replayed))
                .count(),
            items.iter().filter(|i| i.outcome.is_none()).count()
        ),
        Paint::Bold,
    )];
    lines.extend(items.iter().map(plan_line));
    if items.iter().any(|i| i.outcome.is_none()) && !keep_going {
        lines.push(
            "The batch stops at the first deployment that is refused (--keep-going goes on); \
             the ones before it are written."
                .to_string(),
        );
    }
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
            "{pos}/{len} · {msg}",
            counts + 3 + 36,
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
            "{} deployments: {} applied, {} already done, {} refused, {} failed, {} not run{}",
            s.total,
            s.applied,
            s.replayed,
            s.refused,
            s.failed,
            s.skipped,
            if report.dry_run {
                format!(" ({} planned; dry run, nothing written)", s.planned)
            } else {
                String::new()
            }
        ),
        if report.exit_code == 0 {
            Paint::Good
        } else {
            Paint::Bad
        },
    )];
    for item in &report.outcomes {
        let short: String = item.deployment.chars().take(8).collect();
        let result = item.result.as_str();
        let what = match (&item.outcome, &item.error) {
            (Some(o), _) => format!("{result} {}", o.path.as_str()),
            (None, Some(e)) => format!("{result}: {}", visible(e)),
            (None, None) => result.to_string(),
        };
        lines.push(format!("  {short}  {what}"));
    }
    lines.push("Next: pushleft-controller wait <deployment>, and `history` for the record".into());
    lines.join("\n")
}

impl Report for BatchReport {
    fn human(&self, out: &Output) -> Vec<Line> {
        vec![Line::Out(summary_text(out, self))]
    }
}
