//! `diagnose` on the screen: the verdict first, then one table per runbook
//! section (`sections`); for a ticket, the markdown (`markdown`); or one
//! JSON document. All three draw from the model's [`DiagnoseReport`] alone:
//! what `decide` concluded is in it, and nothing here judges again.

mod markdown;
mod sections;

use serde::Serialize;

use super::OutputFormat;
use super::output::{Output, Paint};
use super::report::{self, Line, Report};
use super::sanitize::visible;
use super::text::{command_lines, width_of, wrap};
use crate::model::BreakGlassPath;
use crate::model::assessment::{Severity, Verdict};
use crate::model::diagnose::DiagnoseReport;
use sections::Body;

/// A diagnosis to show: its document, which the screen, the ticket and
/// JSON are all drawn from.
pub struct Diagnosis<'a> {
    pub document: DiagnoseReport<'a>,
}

impl Serialize for Diagnosis<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.document.serialize(serializer)
    }
}

impl Report for Diagnosis<'_> {
    const FORMATS: &'static [OutputFormat] = report::WITH_MARKDOWN;

    /// The region first, when one was named, then the verdict and the
    /// sections.
    fn human(&self, out: &Output) -> Vec<Line> {
        let d = &self.document;
        let region = d
            .region
            .as_ref()
            .map(|region| Line::Note(format!("region {region} (connection service)")));
        let table = diagnose_table(out, d);
        region.into_iter().chain([Line::Out(table)]).collect()
    }

    /// The verdict and the next command once more, at the end of a
    /// report taller than the screen that no pager shows from its top.
    fn recap(&self, out: &Output) -> Vec<Line> {
        let verdict = self.document.verdict;
        let mut lines = vec![String::new()];
        lines.extend(headline_lines(out, verdict));
        lines.extend(next_lines(out, verdict));
        vec![Line::Out(lines.join("\n"))]
    }

    fn markdown(&self, _out: &Output) -> Vec<Line> {
        vec![Line::Out(markdown::diagnose(&self.document))]
    }
}

/// The verdict block: headline, why, next step, findings. The first lines
/// an operator reads say what is wrong and what to do; the command to run
/// stands alone on its line, whole.
pub fn verdict_lines(out: &Output, d: &DiagnoseReport) -> Vec<String> {
    let (width, verdict) = (out.width, d.verdict);
    // A standby's stale view comes before the verdict drawn from it.
    let mut lines: Vec<String> = d
        .read_from
        .stale_line()
        .map(|line| wrap(&line, width, "! ", "  "))
        .unwrap_or_default()
        .iter()
        .map(|l| out.paint(l, Paint::Warn))
        .collect();
    lines.extend(headline_lines(out, verdict));
    // For "nothing to do" the headline already says why.
    if !verdict.headline.contains(&verdict.reason) {
        lines.extend(wrap(
            &visible(&verdict.reason),
            width,
            "  why:  ",
            "        ",
        ));
    }
    lines.extend(next_lines(out, verdict));
    let about = format!(
        "deployment {} · {} · org {} · read at {}",
        d.deployment.id,
        visible(&d.deployment.status.to_string()),
        crate::model::short_or_null(d.deployment.org_id),
        d.snapshot.at.format("%Y-%m-%d %H:%M:%SZ"),
    );
    lines.extend(wrap(&about, width, "  ", "    "));
    for finding in &verdict.findings {
        let (mark, paint) = match finding.severity {
            Severity::Problem => ("✗", Paint::Bad),
            Severity::Warning => ("!", Paint::Warn),
            Severity::Info => ("·", Paint::Dim),
        };
        let wrapped = wrap(&visible(&finding.message), width, "  # ", "    ");
        for (i, line) in wrapped.into_iter().enumerate() {
            lines.push(if i == 0 {
                format!("  {} {}", out.paint(mark, paint), &line[4..])
            } else {
                line
            });
        }
    }
    lines
}

/// `VERDICT …`, painted by its path.
fn headline_lines(out: &Output, verdict: &Verdict) -> Vec<String> {
    let paint = match verdict.path {
        BreakGlassPath::OperatorFailed | BreakGlassPath::TeardownRequested => Paint::Bad,
        BreakGlassPath::None if !verdict.decidable || !verdict.blocked_on_nodes.is_empty() => {
            Paint::Warn
        }
        BreakGlassPath::None => Paint::Good,
    };
    wrap(&visible(&verdict.headline), out.width, "VERDICT ", "  ")
        .iter()
        .map(|l| out.paint(l, paint))
        .collect()
}

/// `next:` and the command, whole (continued with `\` on a screen too
/// narrow for it).
fn next_lines(out: &Output, verdict: &Verdict) -> Vec<String> {
    let Some(next) = &verdict.next_command else {
        return Vec::new();
    };
    let mut lines = vec!["  next:".to_string()];
    for line in command_lines(&next.to_string(), out.command_room(4)) {
        lines.push(format!("    {}", out.paint(&line, Paint::Bold)));
    }
    lines
}

/// The sections with nothing in them, in one line or a few
/// (`no reservations · no routes · no network attachments`).
fn empty_lines(empty: &[&str], width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for item in empty {
        match lines.last_mut() {
            Some(line) if width_of(line) + 3 + width_of(item) <= width => {
                line.push_str(" · ");
                line.push_str(item);
            }
            _ => lines.push((*item).to_string()),
        }
    }
    lines
}

/// The whole table rendering of a diagnosis.
pub fn diagnose_table(out: &Output, d: &DiagnoseReport) -> String {
    let mut text = verdict_lines(out, d).join("\n");
    text.push('\n');
    let mut tables = String::new();
    let mut empty = Vec::new();
    let view = sections::View { out, s: d };
    let all = [
        ("Deployment", sections::deployment(&view, d.verdict.path)),
        ("Events", sections::events(&view)),
        ("Jobs", sections::jobs(&view)),
        ("Agent results", sections::results(&view)),
        ("Source", sections::sources(&view)),
        ("Artifacts", sections::artifacts(&view)),
        ("Instances", sections::instances(&view)),
        ("Reservations", sections::reservations(&view)),
        ("Routes", sections::routes(&view)),
        ("Network attachments", sections::network_attachments(&view)),
        ("Nodes involved", sections::nodes(&view)),
    ];
    for (title, body) in all {
        let body = match body {
            Body::Table(body) => body,
            Body::Empty(what) => {
                empty.push(what);
                continue;
            }
        };
        tables.push('\n');
        tables.push_str(&out.paint(title, Paint::Bold));
        tables.push('\n');
        tables.push_str(&body);
        tables.push('\n');
    }
    // What is not there is part of the answer: right below the verdict.
    if !empty.is_empty() {
        text.push('\n');
        let lines: Vec<String> = empty_lines(&empty, out.width)
            .iter()
            .map(|line| out.paint(line, Paint::Dim))
            .collect();
        text.push_str(&lines.join("\n"));
        text.push('\n');
    }
    text.push_str(&tables);
    text.push_str(&format!("\nfingerprint {}", d.fingerprint));
    text
}
