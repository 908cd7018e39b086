//! `--rate`: a batch's writes paced (README, "A big incident"). Each
//! deployment starts at least one interval after the one before, so a big
//! incident does not hand the scheduler forty teardowns at once; the wait
//! is cut into short sleeps, so Ctrl-C ends the batch between two
//! deployments at once (what is done stays done; a rerun replays it).
//!
//! Only writes are paced: a deployment that replays (an earlier run
//! already wrote it) hands the scheduler nothing, so it neither waits nor
//! counts as a start. One the plan knows to be a replay does not wait at
//! all; one found to be a replay only in its transaction (`--yes`, no plan
//! shown) waits at most for the write before it, and the next write is
//! still paced from that write.

use std::time::{Duration, Instant};

use crate::model::batch::{Rate, RateKept};

/// How often a wait looks at Ctrl-C.
const SLICE: Duration = Duration::from_millis(50);

/// The pace of one batch's writes.
pub struct Pace {
    rate: Option<Rate>,
    /// The first and the last start of a write, and how many there were.
    first: Option<Instant>,
    last: Option<Instant>,
    runs: usize,
    /// The start of the deployment running now, until it is known
    /// whether it wrote.
    started: Option<Instant>,
}

impl Pace {
    /// No pacing (the plan's dry runs: nothing is written).
    pub fn none() -> Pace {
        Pace {
            rate: None,
            first: None,
            last: None,
            runs: 0,
            started: None,
        }
    }

    pub fn at(rate: Rate) -> Pace {
        Pace {
            rate: Some(rate),
            ..Pace::none()
        }
    }

    /// At `rate`, unless `dry_run` (nothing written: nothing to pace).
    pub fn unless(dry_run: bool, rate: Rate) -> Pace {
        if dry_run {
            Pace::none()
        } else {
            Pace::at(rate)
        }
    }

    /// Before a deployment: waits until its start is due, unless it is
    /// expected to replay (then it is not due for anything). False when
    /// Ctrl-C came (then it does not start). [`Pace::ran`] says after it
    /// whether it wrote.
    pub fn wait(&mut self, replay_expected: bool) -> bool {
        if let (Some(rate), Some(last), false) = (self.rate, self.last, replay_expected) {
            let due = last + rate.interval();
            while Instant::now() < due {
                if crate::interrupt::interrupted() {
                    return false;
                }
                std::thread::sleep(SLICE.min(due.saturating_duration_since(Instant::now())));
            }
        }
        if crate::interrupt::interrupted() {
            return false;
        }
        self.started = Some(Instant::now());
        true
    }

    /// After a deployment: a write counts as a start (the next write is
    /// paced from it); a replay, or a run that failed before writing,
    /// does not.
    pub fn ran(&mut self, wrote: bool) {
        if let (Some(start), true) = (self.started.take(), wrote) {
            self.first.get_or_insert(start);
            self.last = Some(start);
            self.runs += 1;
        }
    }

    /// The pace kept so far (None without a rate, or before any write).
    pub fn kept(&self) -> Option<RateKept> {
        let (rate, first, last) = (self.rate?, self.first?, self.last?);
        let span = last.duration_since(first).as_secs_f64();
        Some(RateKept {
            limit_per_second: rate.per_second,
            kept_per_second: (self.runs > 1 && span > 0.0)
                .then(|| ((self.runs - 1) as f64 / span * 100.0).round() / 100.0),
            elapsed_seconds: (first.elapsed().as_secs_f64() * 100.0).round() / 100.0,
            runs: self.runs,
        })
    }
}

#[cfg(test)]
#[path = "pace_tests.rs"]
mod tests;
