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
    pub skipped: usize,
}

/// The `fail-safely --from --output json` document.
#[derive(Debug, Serialize)]
pub struct BatchReport {
    pub dry_run: bool,
    pub outcomes: Vec<BatchItem>,
    pub summary: BatchSummary,
    /// The process's exit status: the most serious among the deployments.
    pub exit_code: crate::exit::ExitCode,
    /// What to run next: `wait` for what was written (none when nothing
    /// was).
    pub next_command: Option<super::next::NextCommand>,
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
