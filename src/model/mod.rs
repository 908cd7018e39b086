//! The typed rows the tool reads and every status enum, with no I/O: the
//! vocabulary every other layer speaks.

pub mod approvals;
pub mod assessment;
pub mod batch;
pub mod blind;
pub mod clock;
pub mod connection;
pub mod cut;
pub mod deployment;
pub mod diagnose;
pub mod doctor;
pub mod failure;
pub mod fleet;
pub mod history;
pub mod ids;
pub mod next;
pub mod outcome;
pub mod path;
pub mod plan;
pub mod progress;
pub mod read_from;
pub mod region;
pub mod replication;
pub mod status;
pub mod stuck;
pub mod target;
pub mod text;
pub mod timestamp;
pub mod wait;
pub mod warning;

pub use deployment::{
    Allocation, Deployment, DeploymentSnapshot, Event, Instance, Job, JobResult, NetworkAttachment,
    Node, ReadInfo, ReleaseArtifact, Route, RowSecurity, SourceSnapshot,
};
pub use ids::{short_id, short_or_null};
pub use next::NextCommand;
pub use path::BreakGlassPath;
pub use status::{
    AllocationStatus, DeploymentStatus, InstanceStatus, JobKind, JobStatus, NodeStatus,
    ResultOutcome, RouteStatus,
};
pub use warning::Warning;
