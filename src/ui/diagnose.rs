//! `diagnose` on the screen: the verdict first, then one table per runbook
//! section (`diagnose_sections`); or one JSON document, the model's
//! [`DiagnoseReport`].

use serde::Serialize;

use super::OutputFormat;
use super::diagnose_sections as sections;
use super::output::{Output, Paint};
use super::report::{self, Line, Report};
use super::sanitize::visible;
use super::text::{fit_command, wrap};
use crate::decide::{Policy, Severity, Verdict};
use crate::model::diagnose::DiagnoseReport;
use crate::model::{BreakGlassPath, DeploymentSnapshot};

/// A diagnosis to show: the JSON document, and what the screen and the
/// ticket are drawn from (the snapshot as read, the staleness policy).
pub struct Diagnosis<'a> {
    pub document: DiagnoseReport<'a>,
    pub snapshot: &'a DeploymentSnapshot,
    pub policy: &'a Policy,
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
        let table = diagnose_table(out, self.snapshot, d.verdict, d.fingerprint, self.policy);
        region.into_iter().chain([Line::Out(table)]).collect()
    }

    fn markdown(&self, _out: &Output) -> Vec<Line> {
        let d = &self.document;
        vec![Line::Out(super::markdown::diagnose(
            self.snapshot,
            d.verdict,
            d.fingerprint,
        ))]
    }
}

/// The verdict block: headline, why, next step, findings. The first lines
/// an operator reads say what is wrong and what to do; the command to run
/// stands alone on its line, whole.
pub fn verdict_lines(out: &Output, s: &DeploymentSnapshot, verdict: &Verdict) -> Vec<String> {
    let paint = match verdict.path {
        BreakGlassPath::OperatorFailed | BreakGlassPath::TeardownRequested => Paint::Bad,
        BreakGlassPath::None => Paint::Good,
    };
    let width = out.width;
    let mut lines: Vec<String> = wrap(&visible(&verdict.headline), width, "VERDICT ", "  ")
        .iter()
        .map(|l| out.paint(l, paint))
        .collect();
    // For "nothing to do" the headline already says why.
    if !verdict.headline.contains(&verdict.reason) {
        lines.extend(wrap(
            &visible(&verdict.reason),
            width,
            "  why:  ",
            "        ",
        ));
    }
    if let Some(next) = &verdict.next_command {
        lines.push("  next:".to_string());
        lines.push(format!(
            "    {}",
            out.paint(
                &fit_command(&next.to_string(), out.command_room(4)),
                Paint::Bold
            )
        ));
    }
    let about = format!(
        "deployment {} · {} · org {} · read at {}",
        s.deployment.id,
        visible(&s.deployment.status.to_string()),
        crate::model::short_or_null(s.deployment.org_id),
        s.snapshot.at.format("%Y-%m-%d %H:%M:%SZ"),
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

/// The whole table rendering of a diagnosis.
pub fn diagnose_table(
    out: &Output,
    s: &DeploymentSnapshot,
    verdict: &Verdict,
    fingerprint: &str,
    policy: &Policy,
) -> String {
    let mut text = verdict_lines(out, s, verdict).join("\n");
    text.push('\n');
    let view = sections::View { out, s, policy };
    let all = [
        ("Deployment", sections::deployment(&view, verdict.path)),
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
        // A section with nothing to say is left out (attachments only).
        let Some(body) = body else { continue };
        text.push('\n');
        text.push_str(&out.paint(title, Paint::Bold));
        text.push('\n');
        text.push_str(&body);
        text.push('\n');
    }
    text.push_str(&format!("\nfingerprint {fingerprint}"));
    text
}
