//! Whether a write has reached the primary's standbys (README,
//! "Connecting"): with asynchronous replication an acknowledged COMMIT
//! lives on the primary alone until a standby replays it, and a failover
//! before then loses it. Read right after the COMMIT, on the same session.

use serde::Serialize;

/// The outcome's `replication`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Replication {
    /// The WAL position read right after COMMIT (at or past the end of
    /// the commit record); not in the JSON, which stays the same for the
    /// same write.
    #[serde(skip)]
    pub commit_lsn: String,
    /// Standbys the primary streams to (`pg_stat_replication`).
    pub standbys: i64,
    /// Of them, synchronous (sync or quorum): the COMMIT waited for them.
    pub synchronous: i64,
    /// Of them, those that had replayed the commit when it was read.
    pub confirmed: i64,
    /// Of them, those whose position this role may not see (without
    /// pg_read_all_stats): neither confirmed nor not.
    pub unknown: i64,
}

impl Replication {
    /// Asynchronous standbys only, none of which is known to hold the
    /// write: a failover now could lose it.
    pub fn at_risk(&self) -> bool {
        self.standbys > 0 && self.synchronous == 0 && self.confirmed == 0
    }

    /// One sentence for the outcome; none without standbys.
    pub fn sentence(&self) -> Option<String> {
        if self.standbys == 0 {
            return None;
        }
        let kind = if self.synchronous > 0 {
            "synchronous"
        } else {
            "asynchronous"
        };
        let unknown = if self.unknown > 0 {
            format!(
                ", {} not visible to this role (pg_read_all_stats)",
                self.unknown
            )
        } else {
            String::new()
        };
        let risk = if self.at_risk() {
            ": until a standby has it, a failover could lose this write (an asynchronous \
             standby is promoted without it); rerun the same command after a failover"
        } else {
            ""
        };
        Some(format!(
            "replication {kind}: {} of {} standbys had replayed this write when read{unknown}{risk}",
            self.confirmed, self.standbys
        ))
    }
}

#[cfg(test)]
#[path = "replication_tests.rs"]
mod tests;
