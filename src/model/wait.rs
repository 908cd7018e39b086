//! The `wait --output json` document: where the Verification step stands,
//! whether it timed out, and on a timeout the error in the same document.

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
}
