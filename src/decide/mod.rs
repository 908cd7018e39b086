//! The decisions, as pure functions over typed rows: no database, no
//! screen, unit-tested on their own. `diagnose`, `fail-safely` (under its
//! row locks), `stuck` and `wait` all decide with these and nothing else.

pub mod approval;
pub mod assessment;
pub mod batch;
pub mod blind;
pub mod blocked;
pub mod edges;
pub mod evidence;
pub mod findings;
pub mod fingerprint;
pub mod guard;
pub mod input;
pub mod path;
pub mod policy;
pub mod progress;
pub mod regions;
pub mod schema;
pub mod stuck;
pub mod stuck_advice;
pub mod transition;
pub mod triage;
pub mod triggers;
pub mod unknown;
pub mod verdict;
pub mod verdict_text;

use chrono::{DateTime, Utc};

pub use assessment::{Finding, LastEvent, Severity};
pub use evidence::{Evidence, dispatch_evidence};
pub use fingerprint::fingerprint;
pub use path::decide_path;
pub use policy::{LEASE_GRACE, Policy, STUCK_AFTER};
pub use progress::{Blocked, Pending, Progress, ProgressState, progress};
pub use stuck::{Stuck, stuck};
pub use verdict::{Verdict, assess};
pub use verdict_text::{Asker, next_command};

/// Whole seconds from `then` to `now` (negative when `then` is later).
fn seconds_between(now: DateTime<Utc>, then: DateTime<Utc>) -> i64 {
    (now - then).num_seconds()
}

#[cfg(test)]
mod tests;
