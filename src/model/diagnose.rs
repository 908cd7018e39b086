//! The `diagnose --output json` document (documented in the man page):
//! the snapshot's rows, the verdict and the fingerprint, with the trail
//! written as it is read. Every renderer (the table, the ticket's
//! markdown, JSON) draws from it alone: what `decide` concluded (the
//! verdict, each node's staleness) is carried in it, never judged again.

use std::cell::RefCell;

use serde::Serialize;
use uuid::Uuid;

use super::assessment::Verdict;
use super::read_from::ReadFrom;
use super::{
    Allocation, Deployment, DeploymentSnapshot, Event, Instance, Job, JobResult, NetworkAttachment,
    Node, ReadInfo, ReleaseArtifact, Route, SourceSnapshot,
};

/// What `decide` concluded about a node at the read's instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NodeState {
    /// Its heartbeat is older than the staleness threshold (or it never
    /// had one).
    pub stale: bool,
    /// Nothing will run on it: offline or stale.
    pub dead: bool,
}

/// A node row with what was concluded about it.
#[derive(Debug, Serialize)]
pub struct NodeView<'a> {
    #[serde(flatten)]
    pub node: &'a Node,
    pub stale: bool,
    /// For the screen; JSON has `status` and `stale`, which it follows from.
    #[serde(skip)]
    pub dead: bool,
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
    /// Primary or standby, and how far behind a standby's view may be.
    pub read_from: ReadFrom,
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
    /// The document of `s`, with the verdict on it and what `state` (the
    /// staleness policy, in `decide`) concludes about each node.
    pub fn new(
        s: &'a DeploymentSnapshot,
        verdict: &'a Verdict,
        fingerprint: &'a str,
        state: impl Fn(&Node) -> NodeState,
    ) -> DiagnoseReport<'a> {
        DiagnoseReport {
            region: None,
            deployment: &s.deployment,
            verdict,
            fingerprint,
            snapshot: &s.snapshot,
            read_from: ReadFrom::of(&s.snapshot),
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
                .map(|node| {
                    let NodeState { stale, dead } = state(node);
                    NodeView { node, stale, dead }
                })
                .collect(),
        }
    }

    /// The events read, oldest first (none when the trail is streamed into
    /// JSON: only JSON streams it).
    pub fn event_rows(&self) -> &'a [Event] {
        match self.events {
            Events::Rows(rows) => rows,
            Events::Stream(_) => &[],
        }
    }

    /// The last event read (see [`Self::event_rows`]).
    pub fn last_event(&self) -> Option<&'a Event> {
        self.event_rows().last()
    }

    pub fn node(&self, id: Uuid) -> Option<&NodeView<'a>> {
        self.nodes.iter().find(|n| n.node.id == id)
    }

    /// A node's name, or its id when the row is missing.
    pub fn node_name(&self, id: Uuid) -> String {
        self.node(id)
            .map(|n| n.node.name.clone())
            .unwrap_or_else(|| id.to_string())
    }
}
