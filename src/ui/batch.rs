//! `fail-safely --from` on the screen: one plan for the whole batch, the
//! confirmation (type the number of deployments), a progress bar, and the
//! summary.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use super::output::{Output, Paint};
use super::sanitize::visible;
use crate::db::transition::Outcome;
use crate::decide::batch::BatchResult;
use crate::exit::ExitCode;
use crate::model::next::{NextCommand, Subcommand};

/// One deployment of the batch: what happened, and the outcome or error.
#[derive(Debug, Serialize)]
pub struct BatchItem {
    /// As given in the batch.
    pub deployment: String,
    pub result: BatchResult,
    pub exit_code: ExitCode,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// How many of each result.
#[derive(Debug, Default, Serialize)]
pub struct BatchSummary {
    pub total: usize,
    pub planned: usize,
    pub applied: usize,
    pub replayed: usize,
    pub refused: usize,
    pub failed: usize,
    pub skipped: usize,
}

/// The `fail-safely --from --output json` document.
#[derive(Debug, Serialize)]
pub struct BatchReport {
    pub dry_run: bool,
    pub outcomes: Vec<BatchItem>,
    pub summary: BatchSummary,
    /// The process's exit status: the most serious among the deployments.
    pub exit_code: ExitCode,
}

impl BatchSummary {
    pub fn of(items: &[BatchItem]) -> BatchSummary {
        let mut s = BatchSummary {
            total: items.len(),
            ..BatchSummary::default()
        };
        for item in items {
            match item.result {
                BatchResult::Planned => s.planned += 1,
                BatchResult::Applied => s.applied += 1,
                BatchResult::Replayed => s.replayed += 1,
                BatchResult::Refused => s.refused += 1,
                BatchResult::Failed => s.failed += 1,
                BatchResult::Skipped => s.skipped += 1,
            }
        }
        s
    }
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

/// A bar on a terminal, nothing otherwise.
pub fn progress(terminal: bool, len: usize) -> Option<ProgressBar> {
    terminal.then(|| {
        let bar = ProgressBar::new(len as u64);
        bar.set_style(
            ProgressStyle::with_template("{spinner} [{elapsed}] {bar:30} {pos}/{len} · {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
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
        if report.exit_code == ExitCode::Done {
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
    lines.push(format!(
        "Next: {}, and `history` for the record",
        NextCommand::new(Subcommand::Wait).placeholder("deployment")
    ));
    lines.join("\n")
}
