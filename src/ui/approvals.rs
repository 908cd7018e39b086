//! What `approvals install` did, in words (README, "Two-person
//! break-glass").

use super::output::Output;
use super::report::{Line, Report};
use super::sanitize::visible;
use super::text::wrapped;
use crate::model::approvals::{InstallReport, Policy};

impl Report for InstallReport {
    fn human(&self, out: &Output) -> Vec<Line> {
        let mut lines = vec![Line::Out(format!(
            "{} schema {}, owned by {} (the only role that may change or delete a record)",
            if self.created { "created" } else { "completed" },
            self.schema,
            visible(&self.owner)
        ))];
        lines.push(Line::Out(format!(
            "policy: {}",
            change(self.policy_before.map(Policy::words), &self.policy.words())
        )));
        let enforcing = |on: bool| {
            if on {
                format!(
                    "the trigger on {} refuses operator events without a plan",
                    self.events_table
                )
            } else {
                format!(
                    "no trigger on {} (psql writes are not refused)",
                    self.events_table
                )
            }
        };
        let before = (self.policy_before.is_some() || self.enforcing_before)
            .then(|| enforcing(self.enforcing_before));
        lines.push(Line::Out(format!(
            "enforce: {}",
            change(before, &enforcing(self.enforcing))
        )));
        lines.push(Line::Note(
            "next: plans made with --plan-out are recorded here, and --apply applies only the \
             server's copy; `pushleft-controller doctor` shows the policy"
                .to_string(),
        ));
        // Sentences wrap at their blanks, never inside a word or a name.
        lines
            .into_iter()
            .map(|line| match line {
                Line::Out(text) => Line::Out(wrapped(&text, out.width, "", "  ")),
                Line::Note(text) => Line::Note(wrapped(&text, out.width, "", "  ")),
            })
            .collect()
    }
}

/// `now`, or `was → now` when it changed, or `now (unchanged)`.
fn change(before: Option<String>, now: &str) -> String {
    match before {
        None => now.to_string(),
        Some(was) if was == now => format!("{now} (unchanged)"),
        Some(was) => format!("{was} → {now}"),
    }
}
