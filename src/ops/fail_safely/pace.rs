//! `--rate`: a batch's writes paced (README, "A big incident"). Each
//! deployment starts at least one interval after the one before, so a big
//! incident does not hand the scheduler forty teardowns at once; the wait
//! is cut into short sleeps, so Ctrl-C ends the batch between two
//! deployments at once (what is done stays done; a rerun replays it).

use std::time::{Duration, Instant};

use crate::model::batch::{Rate, RateKept};

/// How often a wait looks at Ctrl-C.
const SLICE: Duration = Duration::from_millis(50);

/// The pace of one batch's writes.
pub struct Pace {
    rate: Option<Rate>,
    first: Option<Instant>,
    last: Option<Instant>,
    runs: usize,
}

impl Pace {
    /// No pacing (the plan's dry runs: nothing is written).
    pub fn none() -> Pace {
        Pace {
            rate: None,
            first: None,
            last: None,
            runs: 0,
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

    /// Before a deployment: waits until its start is due. False when
    /// Ctrl-C came (then it does not start).
    pub fn wait(&mut self) -> bool {
        if let (Some(rate), Some(last)) = (self.rate, self.last) {
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
        let now = Instant::now();
        self.first.get_or_insert(now);
        self.last = Some(now);
        self.runs += 1;
        true
    }

    /// The pace kept so far (None without a rate, or before any start).
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
