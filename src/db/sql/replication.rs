//! Whether a write has reached the primary's standbys.

use super::*;

/// Right after a write's COMMIT: the WAL position, and the standbys that
/// have replayed it (`db::replication`).
pub const AFTER_COMMIT: Statement = file!(Query "replication/after_commit.sql" []);
