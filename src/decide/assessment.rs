//! What an assessment of one deployment is built from and made of: the
//! snapshot with its path and quiet time (`Assessment`), the findings
//! (`Finding`, `Severity`) and the last event. `verdict` puts them
//! together; `findings`, `edges`, `unknown` and `verdict_text` read and add to
//! them without depending on `verdict`.

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::model::{BreakGlassPath, DeploymentSnapshot};

use super::policy::Policy;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Problem,
    Warning,
    Info,
}

/// One thing an operator should know. `code` is stable (scripts match it).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
}

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

    /// Most severe first; within a severity, in the order found.
    pub(super) fn into_sorted(mut self) -> Vec<Finding> {
        self.0.sort_by_key(|f| f.severity);
        self.0
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LastEvent {
    pub sequence: i64,
    pub kind: String,
    /// None: NULL in the database.
    pub occurred_at: Option<DateTime<Utc>>,
    pub age_seconds: Option<i64>,
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
