//! What kind of server a read came from and how stale a standby's view
//! is (README, "Connecting"): the lag is measured from WAL positions
//! (`sql/session/read_settings.sql`), never from the age of the last
//! replayed transaction alone, which on an idle primary says nothing.

use serde::Serialize;

use super::deployment::ReadInfo;
use crate::duration::human;

/// The JSON's `read_from`: primary or standby, and a standby's lag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ReadFrom {
    /// `primary` or `standby`.
    pub server: &'static str,
    /// Whole seconds the standby's view may be behind: 0 once replay has
    /// caught up with the WAL it received; null on a primary, and on a
    /// standby where nothing says (no WAL receiver, nothing replayed yet).
    pub lag_seconds: Option<i64>,
    /// Replay paused (`pg_wal_replay_pause()`): the view stays where it
    /// is whatever the primary does.
    pub paused: bool,
}

impl ReadFrom {
    pub fn of(info: &ReadInfo) -> ReadFrom {
        ReadFrom::new(
            info.in_recovery,
            info.replay_lag_seconds,
            info.replay_paused,
        )
    }

    /// From the server columns of a read (`in_recovery`,
    /// `replay_lag_seconds`, `replay_paused`).
    pub fn new(in_recovery: bool, lag_seconds: Option<i64>, paused: bool) -> ReadFrom {
        ReadFrom {
            server: if in_recovery { "standby" } else { "primary" },
            lag_seconds,
            paused,
        }
    }

    pub fn standby(&self) -> bool {
        self.server == "standby"
    }

    /// `replay lag 45s, replay paused`, `replay lag none (caught up)`.
    pub fn lag_words(&self) -> String {
        let lag = match self.lag_seconds {
            Some(0) => "replay lag none (caught up with what it received)".to_string(),
            Some(seconds) => format!("replay lag {}", human(seconds)),
            None => "replay lag unknown (no WAL received or replayed to compare)".to_string(),
        };
        if self.paused {
            format!("{lag}, replay paused")
        } else {
            lag
        }
    }

    /// The first line of a report read from a standby whose view may be
    /// behind (lag above zero, unknown, or replay paused); none on a
    /// primary and on a caught-up standby.
    pub fn stale_line(&self) -> Option<String> {
        if !self.standby() || (self.lag_seconds == Some(0) && !self.paused) {
            return None;
        }
        let how = match (self.lag_seconds, self.paused) {
            (Some(0), _) => "whose replay is paused".to_string(),
            (Some(seconds), true) => format!("{} behind, its replay paused", human(seconds)),
            (Some(seconds), false) => format!("{} behind", human(seconds)),
            (None, true) => "whose replay is paused and whose lag is unknown".to_string(),
            (None, false) => "whose lag is unknown".to_string(),
        };
        Some(format!(
            "read from a standby {how}; the primary may already have moved on: \
             what follows is as of the standby's replay, not the primary's state"
        ))
    }
}

#[cfg(test)]
#[path = "read_from_tests.rs"]
mod tests;
