//! The runbook's Diagnosis: all eleven queries as one statement (one round
//! trip, one snapshot).

use super::*;

/// $1, $2: the id range of the id or prefix; $3: the last N events
/// (NULL: all).
pub const SNAPSHOT: Statement = file!(Query "diagnose/snapshot.sql" [Uuid, Uuid, OptInt8]);
/// $1 the deployment: its whole trail, oldest first, streamed.
pub const EVENTS: Statement = file!(Query "diagnose/events.sql" [Uuid]);
/// `diagnose --full-text`, $1 the deployment, $2 the most bytes in one
/// piece: each job's whole last_error, streamed in pieces.
pub const FULL_TEXT_JOBS: Statement = file!(Query "diagnose/full_text_jobs.sql" [Uuid, Int4]);
/// The same for each agent result's output.
pub const FULL_TEXT_RESULTS: Statement = file!(Query "diagnose/full_text_results.sql" [Uuid, Int4]);
/// The same for each event's payload.
pub const FULL_TEXT_EVENTS: Statement = file!(Query "diagnose/full_text_events.sql" [Uuid, Int4]);
