//! `wait` with several deployments on the screen: a bar of how many are
//! done and a line for each as it is done, the dead nodes they wait for
//! by cause ("41 × waiting for dead node edge-07 (silent 3h15m)"), and the
//! report, which prints no line the terminal already shows.

use std::time::Duration;

use indicatif::ProgressBar;

use crate::duration::human;
use crate::model::progress::{Blocked, Progress, ProgressState};
use crate::model::wait::{WaitAll, WaitItem, WaitResult};
use crate::ui::OutputFormat;
use crate::ui::output::{self, Output};
use crate::ui::report::{Line, Report, WITH_MARKDOWN};
use crate::ui::sanitize::visible;
use crate::ui::text::wrapped;

/// What `wait` with several deployments shows while it polls: a bar of
/// how many are done on a terminal, and a line for each as it is done.
pub struct BatchBar {
    bar: Option<ProgressBar>,
}

pub fn batch_bar(terminal: bool, len: usize) -> BatchBar {
    let bar = terminal.then(|| {
        let bar = ProgressBar::new(len as u64);
        let counts = 2 * len.to_string().len() + 1;
        bar.set_style(crate::ui::bar::style(
            output::screen_width(),
            "{pos}/{len} done",
            counts + 5,
            20,
        ));
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    });
    BatchBar { bar }
}

impl BatchBar {
    /// One more deployment is done: its line above the bar. Whether it
    /// was shown on the terminal (then the report does not repeat it).
    pub fn done(&self, line: &str) -> bool {
        self.note(line);
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
        self.bar.is_some()
    }

    /// A line above the bar (on stderr without one).
    pub fn note(&self, line: &str) {
        match &self.bar {
            Some(bar) => {
                for part in line.lines() {
                    bar.println(part);
                }
            }
            None => output::note(line),
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// What became of one deployment, in words.
fn result_text(item: &WaitItem) -> &'static str {
    match item.result {
        WaitResult::Verified => "verified",
        WaitResult::TimedOut => "timed out",
        WaitResult::BlockedOnDeadNode => "blocked on a dead node",
        WaitResult::NothingToWaitFor => "nothing to wait for",
        WaitResult::Failed => "could not be read",
        WaitResult::Interrupted => "interrupted",
    }
}

/// One deployment's line: its id, what became of it, where it stands.
pub fn item_line(item: &WaitItem, width: usize) -> String {
    let stands = match (&item.progress, &item.error) {
        (_, Some(error)) if item.result != WaitResult::NothingToWaitFor => {
            visible(error).into_owned()
        }
        (Some(p), _) => super::summary(p),
        (None, _) => String::new(),
    };
    let head = format!(
        "{}  {} after {}: ",
        item.deployment,
        result_text(item),
        human(item.elapsed_seconds as i64)
    );
    wrapped(&stands, width.saturating_sub(1), &head, "    ")
}

/// The deployments that wait for one dead node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeadNodeCause {
    pub node: String,
    /// `waiting for dead node edge-07 (silent 3h15m)`.
    pub text: String,
    pub count: usize,
}

/// The dead nodes the blocked among `looks` wait for, most waited for
/// first: one cause per node, however many deployments wait for it.
pub fn dead_node_causes(looks: &[&Progress]) -> Vec<DeadNodeCause> {
    let mut causes: Vec<(String, Option<i64>, usize)> = Vec::new();
    let blocked = looks
        .iter()
        .filter(|p| p.state == ProgressState::BlockedOnDeadNode);
    for b in blocked.flat_map(|p| p.dead_nodes()) {
        let Blocked::DeadNode {
            node_name,
            heartbeat_age_seconds,
            ..
        } = b
        else {
            continue;
        };
        match causes.iter_mut().find(|(name, ..)| name == node_name) {
            Some((_, age, count)) => {
                *age = (*age).max(*heartbeat_age_seconds);
                *count += 1;
            }
            None => causes.push((node_name.clone(), *heartbeat_age_seconds, 1)),
        }
    }
    causes.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.0.cmp(&b.0)));
    causes
        .into_iter()
        .map(|(node, age, count)| DeadNodeCause {
            text: format!(
                "waiting for dead node {} ({})",
                visible(&node),
                age.map_or_else(
                    || "never seen".to_string(),
                    |a| format!("silent {}", human(a))
                )
            ),
            node,
            count,
        })
        .collect()
}

/// The warning, once per dead node, while the batch looks.
pub fn dead_node_warning(cause: &DeadNodeCause, width: usize) -> String {
    wrapped(
        &format!(
            "{} × {}: may never complete on its own",
            cause.count, cause.text
        ),
        width.saturating_sub(1),
        "! ",
        "  ",
    )
}

/// The items' last looks that are blocked on a dead node, whatever the
/// result (blocked, or timed out with `--wait-for-node`).
fn blocked_looks(report: &WaitAll) -> Vec<&Progress> {
    report
        .deployments
        .iter()
        .filter(|i| i.result != WaitResult::Verified)
        .filter_map(|i| i.progress.as_ref())
        .filter(|p| p.state == ProgressState::BlockedOnDeadNode)
        .collect()
}

/// By cause: a deployment blocked on a dead node is counted in its
/// cause's line, not given one of its own.
fn by_cause(item: &WaitItem) -> bool {
    item.result != WaitResult::Verified
        && item
            .progress
            .as_ref()
            .is_some_and(|p| p.state == ProgressState::BlockedOnDeadNode)
}

impl Report for WaitAll {
    const FORMATS: &'static [OutputFormat] = WITH_MARKDOWN;

    /// The lines not yet on this terminal, the dead nodes by cause, then
    /// the count and what to do next.
    fn human(&self, out: &Output) -> Vec<Line> {
        let mut text: Vec<String> = self
            .deployments
            .iter()
            .filter(|item| !(by_cause(item) || item.shown && out.interactive))
            .map(|item| item_line(item, out.width))
            .collect();
        let causes = dead_node_causes(&blocked_looks(self));
        for cause in &causes {
            text.push(format!("{} × {}", cause.count, cause.text));
        }
        text.push(format!("{} of {} verified.", self.verified, self.total));
        let next = self
            .deployments
            .iter()
            .filter(|i| i.result == WaitResult::NothingToWaitFor)
            .count();
        let mut lines = vec![Line::Out(text.join("\n"))];
        if next > 0 {
            lines.push(Line::Note(format!(
                "{next} nobody has failed: `pushleft-controller diagnose <id>` each, then fail-safely if a path applies"
            )));
        }
        if let Some(first) = causes.first() {
            lines.push(Line::Note(blocked_next(&first.node, out.width)));
        }
        lines
    }

    fn markdown(&self, _out: &Output) -> Vec<Line> {
        let causes: Vec<String> = dead_node_causes(&blocked_looks(self))
            .iter()
            .map(|c| format!("{} × {}", c.count, c.text))
            .collect();
        vec![Line::Out(super::markdown::all(self, &causes))]
    }
}

/// What to do about deployments blocked on a dead node: what the runbook
/// forbids, what brings the node back, and how to keep waiting.
fn blocked_next(node: &str, width: usize) -> String {
    wrapped(
        &format!(
            "{} Next: bring {} back (its agent returning, or the node rebooted); to keep \
             waiting through a reboot, rerun this wait with --wait-for-node.",
            super::FORBIDDEN,
            visible(node)
        ),
        width,
        "",
        "  ",
    )
}
