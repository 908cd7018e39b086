//! `wait` on the screen: a progress bar on a terminal (a line per change
//! otherwise), notes for what may block it, the verification or the
//! timeout. `decide` says what is pending or blocked as enums; the words
//! are here.

use std::time::Duration;

use indicatif::ProgressBar;

use super::OutputFormat;
use super::output::{self, Output};
use super::report::{Line, Report};
use super::sanitize::visible;
use super::text::stamp;
use crate::duration::{ago, human};
use crate::model::progress::{Blocked, Pending, Progress};
use crate::model::wait::WaitReport;
use crate::model::{NextCommand, short_id};

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// What is still outstanding, in words.
pub fn pending_text(p: &Pending) -> String {
    match p {
        Pending::NotFailed { status } => {
            format!("status is {status}: neither failed nor teardown_queued (did fail-safely run?)")
        }
        Pending::ReservationsHeld { count } => format!(
            "{count} reservation{} not yet released by the reaper",
            plural(*count)
        ),
        Pending::InstanceLive {
            instance_id,
            role_name,
            status,
        } => format!(
            "instance {} ({}) is {status}",
            short_id(*instance_id),
            visible(role_name)
        ),
        Pending::AllocationsHeld { count } => {
            format!("{count} allocation{} still held", plural(*count))
        }
    }
}

/// Why it may never complete on its own, in words.
pub fn blocked_text(b: &Blocked) -> String {
    match b {
        Blocked::DeadNode {
            node_name,
            last_seen_at,
            heartbeat_age_seconds,
            ..
        } => format!(
            "waiting for node {}, {}",
            visible(node_name),
            match (heartbeat_age_seconds, last_seen_at) {
                (Some(age), Some(at)) => format!("last seen {} ({})", ago(*age), stamp(*at)),
                _ => "never seen".to_string(),
            }
        ),
        Blocked::NetworkAttachment {
            segments,
            reservations,
        } => format!(
            "{reservations} reservation{} kept: a network attachment exists in segment {}; the reaper will not release them",
            plural(*reservations),
            visible(&segments.join(", "))
        ),
        Blocked::RowSecurity {
            message, next_step, ..
        } => format!(
            "{}; verification cannot be vouched for. Next step: {}",
            visible(message),
            visible(next_step)
        ),
    }
}

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
            .as_ref()
            .map(|e| format!(
                ", last event #{} {} {}",
                e.sequence,
                visible(&e.kind),
                e.age_seconds
                    .map_or_else(|| "at an unknown time".to_string(), ago)
            ))
            .unwrap_or_default()
    )
}

/// The room for the status after the bar: `teardown_queued`, the longest.
const STATUS: usize = 15;

/// What `wait` shows while it polls.
pub struct Watch {
    /// On a terminal (stderr): a bar; otherwise a line per change.
    bar: Option<ProgressBar>,
    last_line: String,
    /// What was reported already, by what it is about (not by its age).
    reported_blocked: Vec<String>,
    width: usize,
}

impl Watch {
    pub fn start(terminal: bool, width: usize) -> Watch {
        let bar = terminal.then(|| {
            let bar = ProgressBar::new(0);
            // Room for `1/1 instances removed · ` and a status.
            bar.set_style(super::bar::style(
                width,
                "{pos}/{len} instances removed · {msg}",
                5 + 21 + STATUS,
                20,
            ));
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        Watch {
            bar,
            last_line: String::new(),
            reported_blocked: Vec::new(),
            width,
        }
    }

    fn println(&self, line: String) {
        // One screen line at a time: the bar redraws itself below each, and
        // a text of several lines printed above it at once leaves the bar
        // drawn on the end of its last line. Narrower than the screen by
        // one column: a line that fills the last one leaves the cursor
        // waiting to wrap, and the bar's redraw lands on that line.
        for line in super::text::wrap(&line, self.width.saturating_sub(1), "", "    ") {
            match &self.bar {
                Some(bar) => bar.println(line),
                None => output::note(&line),
            }
        }
    }

    /// Shows one look: new blockers once each, then the progress.
    pub fn show(&mut self, p: &Progress) {
        for reason in &p.blocked {
            let key = match reason {
                Blocked::DeadNode { node_id, .. } => node_id.to_string(),
                Blocked::NetworkAttachment { segments, .. } => segments.join(","),
                Blocked::RowSecurity { tables, .. } => tables.join(","),
            };
            if !self.reported_blocked.contains(&key) {
                self.println(format!(
                    "! may never complete on its own: {}",
                    blocked_text(reason)
                ));
                self.reported_blocked.push(key);
            }
        }
        let line = summary(p);
        match &self.bar {
            Some(bar) => {
                bar.set_length(p.instances_total as u64);
                bar.set_position(p.instances_removed as u64);
                // A status is whole; one the tool does not know (free
                // text) is cut to the room the bar left for it.
                bar.set_message(
                    super::text::cut_at_word(&p.status.to_string(), STATUS).into_owned(),
                );
            }
            None if line != self.last_line => self.println(line.clone()),
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
pub fn verified_text(p: &Progress, elapsed: Duration, width: usize) -> String {
    let mut text = super::text::wrapped(
        &format!(
            "Verified after {}: {}",
            human(elapsed.as_secs() as i64),
            summary(p)
        ),
        width,
        "",
        "  ",
    );
    for b in &p.blocked {
        text.push('\n');
        text.push_str(&super::text::wrapped(
            &blocked_text(b),
            width,
            "  note: ",
            "    ",
        ));
    }
    text
}

/// The error message when the time ran out (main wraps it to the screen).
pub fn timed_out_text(p: &Progress, timeout: Duration) -> String {
    let mut message = format!(
        "timed out after {} waiting for deployment {}: {}",
        human(timeout.as_secs() as i64),
        p.deployment_id,
        summary(p)
    );
    for pending in &p.pending {
        message.push_str(&format!("\n  pending: {}", pending_text(pending)));
    }
    for b in &p.blocked {
        message.push_str(&format!("\n  blocked: {}", blocked_text(b)));
    }
    let id = short_id(p.deployment_id);
    message.push_str(&if p.blocked.is_empty() {
        format!(
            "\n  next: rerun `{}` with a longer --timeout, or diagnose it",
            NextCommand::wait(id)
        )
    } else {
        format!(
            "\n  next: resolve the blocked items above, then rerun `{}`",
            NextCommand::wait(id)
        )
    });
    message
}

/// The refusal when nobody failed the deployment.
pub fn nothing_to_wait_for_text(p: &Progress) -> String {
    let id = short_id(p.deployment_id);
    format!(
        "deployment {} is {}: nobody has failed it (fail-safely did not run, or did not take effect), so there is nothing to wait for. Next step: `{}`, then fail-safely if a path applies",
        p.deployment_id,
        p.status,
        NextCommand::diagnose(id)
    )
}

/// The error when everything left waits for dead nodes (exit 7): the
/// node, how long it has been silent, what the runbook forbids and what
/// brings it back.
pub fn blocked_on_node_text(p: &Progress) -> String {
    let id = short_id(p.deployment_id);
    let nodes: Vec<String> = p.dead_nodes().into_iter().filter_map(dead_node).collect();
    let names = p
        .dead_nodes()
        .into_iter()
        .filter_map(|b| match b {
            Blocked::DeadNode { node_name, .. } => Some(visible(node_name).into_owned()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "deployment {} is blocked on {}: {}; its teardown completes only once {names} returns, \
         so waiting longer changes nothing until then.\n  \
         {FORBIDDEN}\n  \
         next: bring {names} back (its agent returning, or the node rebooted), then rerun `{}`; \
         to keep waiting through a reboot: `{}`",
        p.deployment_id,
        if nodes.len() == 1 {
            "a dead node"
        } else {
            "dead nodes"
        },
        nodes.join("; "),
        NextCommand::wait(&id),
        NextCommand::wait(&id)
            .arg("--wait-for-node")
            .option("--timeout", "30m"),
    )
}

/// What the runbook forbids while a teardown waits for a dead node, as the
/// README says it ("The break-glass decision"; the tool's first lines).
pub const FORBIDDEN: &str = "Do not release instances or allocations by hand: the runbook \
     forbids it, and pushleft-controller never touches jobs, leases, instances or allocations \
     by hand.";

/// `node edge-07, silent 3h15m (last seen …)` for a dead node.
pub fn dead_node(b: &Blocked) -> Option<String> {
    match b {
        Blocked::DeadNode {
            node_name,
            last_seen_at,
            heartbeat_age_seconds,
            ..
        } => Some(format!(
            "node {}, {}",
            visible(node_name),
            match (heartbeat_age_seconds, last_seen_at) {
                (Some(age), Some(at)) =>
                    format!("silent {} (last seen {})", human(*age), stamp(*at)),
                _ => "never seen".to_string(),
            }
        )),
        _ => None,
    }
}

impl Report for WaitReport<'_> {
    const FORMATS: &'static [OutputFormat] = super::report::WITH_MARKDOWN;

    /// A timeout says so as an error on stderr; JSON carries it in the
    /// document.
    fn human(&self, out: &Output) -> Vec<Line> {
        if self.error.is_some() {
            return Vec::new();
        }
        vec![Line::Out(verified_text(
            self.progress,
            self.elapsed,
            out.width,
        ))]
    }

    fn markdown(&self, _out: &Output) -> Vec<Line> {
        vec![Line::Out(markdown::one(self))]
    }
}

mod batch;
mod markdown;
pub use batch::{BatchBar, batch_bar, dead_node_causes, dead_node_warning, item_line};
