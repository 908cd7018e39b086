//! The `wait --output json` documents: for one deployment where the
//! Verification step stands, whether it timed out, and on a timeout the
//! error in the same document; for several, one item each and the
//! aggregate exit code.

use std::time::Duration;

use serde::Serialize;

use super::failure::ErrorBody;
use super::progress::Progress;

/// The `wait --output json` document.
#[derive(Debug, Serialize)]
pub struct WaitReport<'a> {
    #[serde(flatten)]
    pub progress: &'a Progress,
    pub timed_out: bool,
    /// Whole seconds.
    pub elapsed_seconds: u64,
    /// On a timeout: the error document's body, in this one document.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorBody>,
    /// How long it waited, for the screen.
    #[serde(skip)]
    pub elapsed: Duration,
    /// When it stopped looking, for a ticket's footer.
    #[serde(skip)]
    pub at: chrono::DateTime<chrono::Utc>,
}

/// What became of one deployment of `wait` with several.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WaitResult {
    Verified,
    TimedOut,
    /// Everything left waits for dead nodes (exit 7): waiting longer
    /// changes nothing until they return.
    BlockedOnDeadNode,
    /// Nobody failed it: there is nothing to wait for (exit 4).
    NothingToWaitFor,
    /// It could not be read (not found, a bad id, a lost connection).
    Failed,
    /// Not looked at again: interrupted before it was done.
    Interrupted,
}

/// One deployment of `wait` with several.
#[derive(Debug, Serialize)]
pub struct WaitItem {
    /// As given.
    pub deployment: String,
    pub result: WaitResult,
    /// Its last look, if one succeeded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub progress: Option<Progress>,
    /// Whole seconds from the start until it was done (or given up).
    pub elapsed_seconds: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The exit code this one alone would give.
    #[serde(skip)]
    pub exit_code: crate::exit::ExitCode,
    /// Its line was printed on the terminal as it was done: the report
    /// on that terminal does not print it again.
    #[serde(skip)]
    pub shown: bool,
}

/// The `wait --output json` document for several deployments.
#[derive(Debug, Serialize)]
pub struct WaitAll {
    pub deployments: Vec<WaitItem>,
    pub verified: usize,
    pub total: usize,
    /// The process's exit status: the most serious among the deployments.
    pub exit_code: i32,
    /// When it stopped looking, for a ticket's footer.
    #[serde(skip)]
    pub at: chrono::DateTime<chrono::Utc>,
}
