//! `complete`: what shell completion offers from the database.

use super::*;

/// Deployments, nodes and pools to offer: $1 no event for this long (ms)
/// counts as stuck.
pub const CANDIDATES: Statement = file!(Query "complete/candidates.sql" [Int8]);
