//! `wait` on the screen: a progress bar on a terminal (a line per change
//! otherwise), notes for what may block it, the verification or the
//! timeout.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use super::output;
use crate::decide::Progress;
use crate::duration::human;
use crate::model::short_id;

/// One line: where the deployment stands.
pub fn summary(p: &Progress) -> String {
    format!(
        "{}: status {}, instances removed {}/{}, allocations held {}{}",
        short_id(p.deployment_id),
        p.status,
        p.instances_removed,
        p.instances_total,
        p.allocations_held,
        p.last_event
            .as_deref()
            .map(|e| format!(", last event {e}"))
            .unwrap_or_default()
    )
}

/// What `wait` shows while it polls.
pub struct Watch {
    /// On a terminal (stderr): a bar; otherwise a line per change.
    bar: Option<ProgressBar>,
    last_line: String,
    reported_blocked: Vec<String>,
}

impl Watch {
    pub fn start(terminal: bool) -> Watch {
        let bar = terminal.then(|| {
            let bar = ProgressBar::new(0);
            bar.set_style(
                ProgressStyle::with_template(
                    "{spinner} [{elapsed}] {bar:30} {pos}/{len} instances removed · {msg}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        Watch {
            bar,
            last_line: String::new(),
            reported_blocked: Vec::new(),
        }
    }

    fn println(&self, line: String) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None => output::note(&line),
        }
    }

    /// Shows one look: new blockers once each, then the progress.
    pub fn show(&mut self, p: &Progress) {
        for reason in &p.blocked {
            if !self.reported_blocked.contains(reason) {
                self.println(format!("! may never complete on its own: {reason}"));
                self.reported_blocked.push(reason.clone());
            }
        }
        let line = summary(p);
        match &self.bar {
            Some(bar) => {
                bar.set_length(p.instances_total as u64);
                bar.set_position(p.instances_removed as u64);
                bar.set_message(format!(
                    "{}{}",
                    p.status,
                    p.last_event
                        .as_deref()
                        .map(|e| format!(" · last event {e}"))
                        .unwrap_or_default()
                ));
            }
            None if line != self.last_line => output::note(&line),
            None => {}
        }
        self.last_line = line;
    }

    /// Clears the bar, so nothing half-drawn stays above what follows.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The result on stdout once verified.
pub fn verified_text(p: &Progress, elapsed: Duration) -> String {
    let mut text = format!(
        "Verified after {}: {}",
        human(elapsed.as_secs() as i64),
        summary(p)
    );
    for b in &p.blocked {
        text.push_str(&format!("\n  note: {b}"));
    }
    text
}

/// The error message when the time ran out.
pub fn timed_out_text(p: &Progress, timeout: Duration) -> String {
    let mut message = format!(
        "timed out after {} waiting for deployment {}: {}",
        human(timeout.as_secs() as i64),
        p.deployment_id,
        summary(p)
    );
    for pending in &p.pending {
        message.push_str(&format!("\n  pending: {pending}"));
    }
    for b in &p.blocked {
        message.push_str(&format!("\n  blocked: {b}"));
    }
    message.push_str("\n  next: check the blocked items above, then rerun wait");
    message
}
