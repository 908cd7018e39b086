//! `diagnose` on the screen: the verdict first, then one table per runbook
//! section (`diagnose_sections`); or one JSON document.

use std::cell::RefCell;

use serde::Serialize;

use super::diagnose_sections as sections;
use super::output::{Output, Paint};
use super::sanitize::visible;
use super::text::{fit_command, wrap};
use crate::decide::{Policy, Severity, Verdict};
use crate::model::{
    Allocation, BreakGlassPath, Deployment, DeploymentSnapshot, Event, Instance, Job, JobResult,
    NetworkAttachment, Node, ReadInfo, ReleaseArtifact, Route, SourceSnapshot,
};

/// A node row with its `stale` flag, for JSON.
#[derive(Debug, Serialize)]
pub struct NodeView<'a> {
    #[serde(flatten)]
    pub node: &'a Node,
    pub stale: bool,
}

/// The trail in a document: the events read, or a stream of them written
/// as they arrive (a million events are never held in memory).
pub enum Events<'a> {
    Rows(&'a [Event]),
    Stream(RefCell<&'a mut dyn Iterator<Item = anyhow::Result<Event>>>),
}

impl std::fmt::Debug for Events<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Events::Rows(rows) => write!(f, "{} events", rows.len()),
            Events::Stream(_) => f.write_str("a stream of events"),
        }
    }
}

impl Serialize for Events<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error, SerializeSeq};
        match self {
            Events::Rows(rows) => rows.serialize(serializer),
            Events::Stream(stream) => {
                let mut stream = stream.borrow_mut();
                let mut seq = serializer.serialize_seq(None)?;
                for event in &mut **stream {
                    let event = event.map_err(|err| S::Error::custom(format!("{err:#}")))?;
                    seq.serialize_element(&event)?;
                }
                seq.end()
            }
        }
    }
}

/// The `diagnose --output json` document (documented in the man page).
#[derive(Debug, Serialize)]
pub struct DiagnoseReport<'a> {
    /// The region (connection service) it was read from, when one was
    /// named with --service.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    pub deployment: &'a Deployment,
    pub verdict: &'a Verdict,
    pub fingerprint: &'a str,
    pub snapshot: &'a ReadInfo,
    pub events: Events<'a>,
    pub events_total: i64,
    pub jobs: &'a [Job],
    pub results: &'a [JobResult],
    pub source_snapshots: &'a [SourceSnapshot],
    pub release_artifacts: &'a [ReleaseArtifact],
    pub instances: &'a [Instance],
    pub allocations: &'a [Allocation],
    pub routes: &'a [Route],
    pub network_attachments: &'a [NetworkAttachment],
    pub nodes: Vec<NodeView<'a>>,
}

impl<'a> DiagnoseReport<'a> {
    pub fn new(
        s: &'a DeploymentSnapshot,
        verdict: &'a Verdict,
        fingerprint: &'a str,
        policy: &Policy,
    ) -> DiagnoseReport<'a> {
        DiagnoseReport {
            region: None,
            deployment: &s.deployment,
            verdict,
            fingerprint,
            snapshot: &s.snapshot,
            events: Events::Rows(&s.events),
            events_total: s.events_total,
            jobs: &s.jobs,
            results: &s.results,
            source_snapshots: &s.source_snapshots,
            release_artifacts: &s.release_artifacts,
            instances: &s.instances,
            allocations: &s.allocations,
            routes: &s.routes,
            network_attachments: &s.network_attachments,
            nodes: s
                .nodes
                .iter()
                .map(|node| NodeView {
                    node,
                    stale: policy.is_stale(node, s.snapshot.at),
                })
                .collect(),
        }
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
