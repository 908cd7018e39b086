//! A read that cannot vouch for what it saw (README, "Reads row-level
//! security filters"): row-level security applies to the role on a table
//! the decision reads, so rows may be hidden from it. `decide::blind`
//! concludes it; every report carries the conclusion as it is.

use serde::Serialize;

use super::RowSecurity;

/// Why no path is named: which tables, which policies, for which role,
/// and how to read so that nothing is hidden.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CannotVouch {
    /// Stable, for scripts: `row_security`.
    pub reason: &'static str,
    /// The role that read (`current_user`).
    pub role: String,
    /// The tables that filter it, each with its owner and policies.
    pub tables: Vec<RowSecurity>,
    /// One sentence: what is filtered, and what can therefore not be told.
    pub message: String,
    /// How to read as a role that sees every row.
    pub next_step: String,
}
