//! What an assessment of one deployment is built from and made of: the
//! snapshot with its path and quiet time (`Assessment`), the findings
//! (`Finding`, `Severity`) and the last event. `verdict` puts them
//! together; `findings`, `edges`, `unknown` and `verdict_text` read and add to
//! them without depending on `verdict`.

use chrono::{DateTime, Utc};

pub use crate::model::assessment::{Finding, LastEvent, Severity};
use crate::model::{BreakGlassPath, DeploymentSnapshot};

use super::policy::Policy;

/// The findings of one assessment, in the order they were found.
#[derive(Debug, Default)]
pub struct Findings(Vec<Finding>);

impl Findings {
    pub fn add(&mut self, code: &'static str, severity: Severity, message: String) {
        self.0.push(Finding {
            code,
            severity,
            message,
        });
    }

    /// Drops the findings of `code` (a conclusion the read cannot back).
    pub(super) fn drop_code(&mut self, code: &str) {
        self.0.retain(|f| f.code != code);
    }

    /// Most severe first; within a severity, in the order found.
    pub(super) fn into_sorted(mut self) -> Vec<Finding> {
        self.0.sort_by_key(|f| f.severity);
        self.0
    }
}

/// What the findings of one snapshot are computed from.
pub struct Assessment<'a> {
    pub s: &'a DeploymentSnapshot,
    pub policy: &'a Policy,
    pub path: BreakGlassPath,
    pub dispatched: bool,
    /// Seconds since the last event, or since creation without one.
    pub quiet_for: i64,
}

/// When the deployment last made progress: its last event, or its creation
/// without one. A last event whose time is NULL counts as its creation
/// here; the verdict is undecidable then anyway.
pub fn last_activity(s: &DeploymentSnapshot) -> DateTime<Utc> {
    s.last_event()
        .and_then(|e| e.occurred_at)
        .unwrap_or(s.deployment.created_at)
}
