//! What a batch of fail-safely did (`fail-safely --from --output json`;
//! README, "A big incident"): each deployment's result, and the counts.

use serde::Serialize;

use super::outcome::Outcome;

/// What became of one deployment of a batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BatchResult {
    /// Only planned (--dry-run, or before the confirmation).
    Planned,
    Applied,
    /// An earlier run with the same key did it; nothing written now.
    Replayed,
    Refused,
    Failed,
    /// COMMIT was sent and its answer never came (the session went
    /// away): it may or may not be written; the rerun finds out.
    InDoubt,
    /// Not run: the batch stopped before it.
    Skipped,
}

impl BatchResult {
    pub fn as_str(self) -> &'static str {
        match self {
            BatchResult::Planned => "planned",
            BatchResult::Applied => "applied",
            BatchResult::Replayed => "already done",
            BatchResult::Refused => "refused",
            BatchResult::Failed => "failed",
            BatchResult::InDoubt => "in doubt",
            BatchResult::Skipped => "not run",
        }
    }
}

/// One deployment of the batch: what happened, and the outcome or error.
#[derive(Debug, Serialize)]
pub struct BatchItem {
    /// As given in the batch.
    pub deployment: String,
    pub result: BatchResult,
    pub exit_code: crate::exit::ExitCode,
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
    /// COMMITs whose answer never came (`in_doubt` results).
    pub in_doubt: usize,
    pub skipped: usize,
}

/// The `fail-safely --from --output json` document.
#[derive(Debug, Serialize)]
pub struct BatchReport {
    pub dry_run: bool,
    /// Where the batch was written (read once for the session).
    pub target: Option<super::target::WriteTarget>,
    /// The plan applied (`--apply`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plan_id: Option<String>,
    /// The pace the writes kept (`--rate`); absent when nothing was paced
    /// (a dry run).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rate: Option<RateKept>,
    pub outcomes: Vec<BatchItem>,
    pub summary: BatchSummary,
    /// The process's exit status: the most serious among the deployments.
    pub exit_code: crate::exit::ExitCode,
    /// What to run next: the same batch again when it did not finish
    /// (a rerun replays what was applied), else `wait` for what was
    /// written (none when nothing was).
    pub next_command: Option<super::next::NextCommand>,
}

impl BatchReport {
    /// Whether some deployment was not done: not run, failed or in doubt
    /// (a refusal is a judgement, not an unfinished write).
    pub fn unfinished(&self) -> bool {
        unfinished(&self.outcomes)
    }
}

/// Whether some item was not run, failed or is in doubt.
pub fn unfinished(items: &[BatchItem]) -> bool {
    items.iter().any(|i| {
        matches!(
            i.result,
            BatchResult::Skipped | BatchResult::Failed | BatchResult::InDoubt
        )
    })
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
                BatchResult::InDoubt => s.in_doubt += 1,
                BatchResult::Skipped => s.skipped += 1,
            }
        }
        s
    }
}

/// `--rate N/s`: at most this many deployments started per second, so a
/// big incident does not stampede the scheduler with teardowns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rate {
    pub per_second: f64,
}

impl Rate {
    /// The default: 5 a second (a batch of 50 in about 10 s).
    pub const DEFAULT: Rate = Rate { per_second: 5.0 };

    /// The time from one deployment's start to the next one's.
    pub fn interval(self) -> std::time::Duration {
        std::time::Duration::from_secs_f64(1.0 / self.per_second)
    }

    /// `4/s`, `120/m` (`/min`), `0.5/s`, or a bare number per second.
    pub fn parse(text: &str) -> Result<Rate, String> {
        let text = text.trim();
        let (number, per) = match text.split_once('/') {
            Some((n, "s" | "sec")) => (n, 1.0),
            Some((n, "m" | "min")) => (n, 60.0),
            Some(_) => return Err(format!("`{text}`: give N/s or N/m, e.g. 4/s")),
            None => (text, 1.0),
        };
        match number.trim().parse::<f64>() {
            Ok(n) if n.is_finite() && n > 0.0 && n / per <= 1000.0 => Ok(Rate {
                per_second: n / per,
            }),
            _ => Err(format!(
                "`{text}`: give a positive rate of at most 1000/s, e.g. 4/s"
            )),
        }
    }
}

/// The pace a batch's writes kept.
#[derive(Debug, Clone, Serialize)]
pub struct RateKept {
    /// `--rate`, per second.
    pub limit_per_second: f64,
    /// Deployments started per second, from the first start to the last
    /// (null with fewer than two).
    pub kept_per_second: Option<f64>,
    /// From the first start to the end of the last deployment.
    pub elapsed_seconds: f64,
    /// How many deployments were run at this pace.
    pub runs: usize,
}

#[cfg(test)]
#[path = "batch_tests.rs"]
mod tests;
