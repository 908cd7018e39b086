//! The runbook's Diagnosis: all eleven queries as one statement (one round
//! trip, one snapshot).

use super::*;

/// $1, $2: the id range of the id or prefix; $3: the last N events
/// (NULL: all).
pub const SNAPSHOT: Statement = file!(Query "diagnose/snapshot.sql" [Uuid, Uuid, OptInt8]);
/// $1 the deployment: its whole trail, oldest first, streamed.
pub const EVENTS: Statement = file!(Query "diagnose/events.sql" [Uuid]);
