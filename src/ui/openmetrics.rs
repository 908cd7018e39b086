//! `stuck -o openmetrics`: the scan as the OpenMetrics text format, for the
//! monitoring that pages people (node_exporter's textfile collector reads
//! it; every metric is a gauge, so the Prometheus text parser reads it too).
//! Every series an alert may watch is present, zero included: an absent
//! series cannot fire. A failed scan keeps what the last successful one
//! wrote (README, "Monitoring"), so an alert on it cannot go quiet because
//! the database cannot be read; `pushleft_scan_success 0` says the values
//! are old.
//!
//! The metrics are a report like any other ([`Metrics`]): `-o openmetrics`
//! prints them through `report::emit`, and `--write FILE` stores the same
//! text through `report::write_metrics`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::OutputFormat;
use super::output::Output;
use super::report::{Line, Report};
use crate::model::fleet::FleetList;
use crate::model::stuck::StuckReport;

/// What one run of the scan produced, or why it failed.
#[derive(Serialize)]
#[serde(tag = "scan", rename_all = "snake_case")]
pub enum Scan<'a> {
    Done {
        report: &'a StuckReport,
        fleet: &'a FleetList,
    },
    /// The scan failed; `previous` is the metrics file it replaces, whose
    /// series are kept.
    Failed {
        #[serde(skip)]
        previous: Option<&'a str>,
    },
}

/// The metrics of one scan: `at` is when it ran, `last_success` when one
/// last succeeded (this one, or an earlier one when this failed). Its one
/// format is the metrics text (as JSON it is never asked for: `stuck
/// --output json` prints the scan's own document).
#[derive(Serialize)]
pub struct Metrics<'a> {
    pub scan: Scan<'a>,
    pub at: DateTime<Utc>,
    pub last_success: Option<DateTime<Utc>>,
}

impl Report for Metrics<'_> {
    const FORMATS: &'static [OutputFormat] = &[OutputFormat::Openmetrics];

    /// The metrics are their own view.
    fn human(&self, _out: &Output) -> Vec<Line> {
        vec![Line::Out(self.text())]
    }

    fn openmetrics(&self) -> Option<String> {
        Some(self.text())
    }
}

impl Metrics<'_> {
    fn text(&self) -> String {
        render(&self.scan, self.at, self.last_success)
    }
}

/// The families a scan's success or failure writes anew every time.
const SCAN_FAMILIES: &[&str] = &[
    "pushleft_scan_success",
    "pushleft_scan_timestamp_seconds",
    "pushleft_last_success_timestamp_seconds",
];

/// The metrics text: `at` is when the scan ran, `last_success` when one
/// last succeeded (this one, or an earlier one when this failed).
fn render(scan: &Scan, at: DateTime<Utc>, last_success: Option<DateTime<Utc>>) -> String {
    let mut out = String::new();
    match scan {
        Scan::Done { report, fleet } => {
            stuck_series(&mut out, report);
            node_series(&mut out, fleet);
        }
        Scan::Failed { previous } => out.push_str(&kept_series(previous.unwrap_or(""))),
    }
    let ok = matches!(scan, Scan::Done { .. });
    gauge(
        &mut out,
        "pushleft_scan_success",
        None,
        "1 when this scan of the control plane's database succeeded, 0 when it failed.",
        &[(String::new(), if ok { 1 } else { 0 })],
    );
    gauge_f(
        &mut out,
        "pushleft_scan_timestamp_seconds",
        "When this scan ran (Unix time).",
        seconds(at),
    );
    if let Some(success) = last_success {
        gauge_f(
            &mut out,
            "pushleft_last_success_timestamp_seconds",
            "When a scan last succeeded (Unix time).",
            seconds(success),
        );
    }
    out.push_str("# EOF\n");
    out
}

fn seconds(at: DateTime<Utc>) -> f64 {
    at.timestamp_millis() as f64 / 1000.0
}

fn stuck_series(out: &mut String, report: &StuckReport) {
    let mut stuck: BTreeMap<(String, String), i64> = BTreeMap::new();
    for status in ["queued", "building", "deploying"] {
        for path in ["operator_failed", "teardown_requested"] {
            stuck.insert((status.to_string(), path.to_string()), 0);
        }
    }
    // Those a filtered read cannot tell about count too, under path
    // "none" (as decide::blind concluded): hidden rows never silence the
    // alert.
    for d in report.deployments_stuck.iter().chain(&report.cannot_tell) {
        *stuck
            .entry((d.status.to_string(), d.path.as_str().to_string()))
            .or_default() += 1;
    }
    let series: Vec<(String, i64)> = stuck
        .into_iter()
        .map(|((status, path), n)| {
            (
                format!("status=\"{}\",path=\"{}\"", label(&status), label(&path)),
                n,
            )
        })
        .collect();
    gauge(
        out,
        "pushleft_deployments_stuck",
        None,
        "Deployments in flight with no event for the stuck threshold (the deployment_stuck alert), by status and break-glass path.",
        &series,
    );
    let mut leases: BTreeMap<String, i64> = ["build", "deploy", "teardown"]
        .iter()
        .map(|k| (k.to_string(), 0))
        .collect();
    for l in &report.leases_orphaned {
        *leases.entry(l.kind.to_string()).or_default() += 1;
    }
    let series: Vec<(String, i64)> = leases
        .into_iter()
        .map(|(kind, n)| (format!("kind=\"{}\"", label(&kind)), n))
        .collect();
    gauge(
        out,
        "pushleft_leases_orphaned",
        None,
        "Job leases that expired more than the grace ago and were not reclaimed (the job_lease_orphaned alert), by job kind.",
        &series,
    );
    let oldest = |ages: &mut dyn Iterator<Item = i64>| ages.max().unwrap_or(0).max(0);
    gauge(
        out,
        "pushleft_oldest_stuck_seconds",
        Some("seconds"),
        "How long the longest stuck deployment has had no event (0 when none is stuck).",
        &[(
            String::new(),
            oldest(
                &mut report
                    .deployments_stuck
                    .iter()
                    .chain(&report.cannot_tell)
                    .map(|d| d.stuck_for_seconds),
            ),
        )],
    );
    gauge(
        out,
        "pushleft_oldest_orphaned_lease_seconds",
        Some("seconds"),
        "How long ago the oldest orphaned lease expired (0 when none).",
        &[(
            String::new(),
            oldest(&mut report.leases_orphaned.iter().map(|l| l.expired_for_seconds)),
        )],
    );
}

fn node_series(out: &mut String, fleet: &FleetList) {
    let mut nodes: BTreeMap<(String, bool), i64> = BTreeMap::new();
    for status in ["online", "draining", "offline"] {
        for stale in [false, true] {
            nodes.insert((status.to_string(), stale), 0);
        }
    }
    for n in &fleet.nodes {
        *nodes
            .entry((n.node.status.to_string(), n.stale))
            .or_default() += 1;
    }
    let series: Vec<(String, i64)> = nodes
        .into_iter()
        .map(|((status, stale), n)| {
            (
                format!("status=\"{}\",stale=\"{stale}\"", label(&status)),
                n,
            )
        })
        .collect();
    gauge(
        out,
        "pushleft_nodes",
        None,
        "Fleet nodes by status and by whether their heartbeat is stale.",
        &series,
    );
}

/// A label value, escaped as the format requires.
fn label(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

fn header(out: &mut String, name: &str, unit: Option<&str>, help: &str) {
    let _ = writeln!(out, "# TYPE {name} gauge");
    if let Some(unit) = unit {
        let _ = writeln!(out, "# UNIT {name} {unit}");
    }
    let _ = writeln!(
        out,
        "# HELP {name} {}",
        help.replace('\\', "\\\\").replace('\n', "\\n")
    );
}

fn gauge(out: &mut String, name: &str, unit: Option<&str>, help: &str, series: &[(String, i64)]) {
    header(out, name, unit, help);
    for (labels, value) in series {
        if labels.is_empty() {
            let _ = writeln!(out, "{name} {value}");
        } else {
            let _ = writeln!(out, "{name}{{{labels}}} {value}");
        }
    }
}

fn gauge_f(out: &mut String, name: &str, help: &str, value: f64) {
    header(out, name, Some("seconds"), help);
    let _ = writeln!(out, "{name} {value:.3}");
}

/// The families of a previous metrics file other than the scan's own
/// (`SCAN_FAMILIES`), as they were written: what a failed scan keeps.
fn kept_series(previous: &str) -> String {
    let mut kept = String::new();
    let mut keep = false;
    for line in previous.lines() {
        if line == "# EOF" {
            break;
        }
        if let Some(name) = line.strip_prefix("# TYPE ") {
            let family = name.split_whitespace().next().unwrap_or("");
            keep = family.starts_with("pushleft_") && !SCAN_FAMILIES.contains(&family);
        }
        if keep {
            kept.push_str(line);
            kept.push('\n');
        }
    }
    kept
}

/// The last success a previous metrics file recorded, if any (so a failed
/// scan does not forget when the last good one was).
pub fn last_success_in(previous: &str) -> Option<DateTime<Utc>> {
    previous.lines().find_map(|line| {
        let value = line.strip_prefix("pushleft_last_success_timestamp_seconds ")?;
        let seconds: f64 = value.trim().parse().ok()?;
        DateTime::from_timestamp_millis((seconds * 1000.0).round() as i64)
    })
}

#[cfg(test)]
#[path = "openmetrics_tests.rs"]
mod tests;
