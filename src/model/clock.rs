//! Times the control plane wrote and the database server's clock: ages
//! are measured from the server's `now()` (one instant per read), and a
//! time ahead of it is clock skew, never a negative age.

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::Serialize;
use uuid::Uuid;

use super::ids::short_id;
use crate::duration::human;

/// How far ahead of the server's `now()` a time may be before it is clock
/// skew: clients stamp times with their own clocks, a few seconds off is
/// normal, a minute is not.
pub const CLOCK_SKEW_TOLERANCE: Duration = Duration::from_secs(60);

/// Whole seconds from `then` to `now`, never negative: a time ahead of
/// `now` is an age of 0 (as of the server's clock it happened just now).
pub fn age_seconds(now: DateTime<Utc>, then: DateTime<Utc>) -> i64 {
    (now - then).num_seconds().max(0)
}

/// How many whole seconds `then` is ahead of `now`, when that is more
/// than [`CLOCK_SKEW_TOLERANCE`].
pub fn ahead_seconds(now: DateTime<Utc>, then: DateTime<Utc>) -> Option<i64> {
    let ahead = (then - now).num_seconds();
    let tolerance = i64::try_from(CLOCK_SKEW_TOLERANCE.as_secs()).unwrap_or(i64::MAX);
    (ahead > tolerance).then_some(ahead)
}

/// What carries the time that is ahead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SkewOf {
    /// An event of a deployment's trail (`occurred_at`).
    Event,
    /// A node's heartbeat (`last_seen_at`).
    Heartbeat,
    /// A deployment without events (`created_at`).
    Created,
}

/// A time ahead of the database server's clock by more than the tolerance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClockSkew {
    pub of: SkewOf,
    /// The region (connection service) it was read from, when several
    /// were read at once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    /// The deployment (events and creation; null for a heartbeat).
    pub deployment_id: Option<Uuid>,
    /// The event's sequence (null but for an event).
    pub sequence: Option<i64>,
    /// The node's name (null but for a heartbeat).
    pub node: Option<String>,
    /// The time as stored.
    pub at: DateTime<Utc>,
    /// Whole seconds it is ahead of the server's `now()`.
    pub ahead_seconds: i64,
    /// The sentence the screen shows.
    pub message: String,
}

impl ClockSkew {
    /// The skew of an event (`deployment` names it in a fleet-wide view).
    pub fn event(deployment: Uuid, sequence: i64, at: DateTime<Utc>, ahead: i64) -> ClockSkew {
        ClockSkew::new(
            SkewOf::Event,
            Some(deployment),
            Some(sequence),
            None,
            at,
            ahead,
        )
    }

    pub fn heartbeat(node: &str, at: DateTime<Utc>, ahead: i64) -> ClockSkew {
        ClockSkew::new(SkewOf::Heartbeat, None, None, Some(node), at, ahead)
    }

    pub fn created(deployment: Uuid, at: DateTime<Utc>, ahead: i64) -> ClockSkew {
        ClockSkew::new(SkewOf::Created, Some(deployment), None, None, at, ahead)
    }

    fn new(
        of: SkewOf,
        deployment_id: Option<Uuid>,
        sequence: Option<i64>,
        node: Option<&str>,
        at: DateTime<Utc>,
        ahead_seconds: i64,
    ) -> ClockSkew {
        let what = match (of, deployment_id, sequence, node) {
            (SkewOf::Event, Some(d), Some(n), _) => {
                format!("event {n} of deployment {}", short_id(d))
            }
            (SkewOf::Created, Some(d), _, _) => {
                format!(
                    "the creation of deployment {} (it has no event)",
                    short_id(d)
                )
            }
            (_, _, _, Some(name)) => format!("node {name}'s heartbeat"),
            _ => "a time".to_string(),
        };
        let meaning = match of {
            SkewOf::Heartbeat => {
                "the node looks alive until the server's clock passes it, whatever it does now"
            }
            SkewOf::Event | SkewOf::Created => {
                "until the server's clock passes it, the deployment counts as having made \
                 progress just now (never stuck by it)"
            }
        };
        ClockSkew {
            message: format!(
                "clock skew: {what} is {} in the future of the database server's clock: {meaning}; \
                 check the clock (NTP) of what wrote it",
                human(ahead_seconds)
            ),
            of,
            region: None,
            deployment_id,
            sequence,
            node: node.map(str::to_string),
            at,
            ahead_seconds,
        }
    }
}

#[cfg(test)]
#[path = "clock_tests.rs"]
mod tests;
