//! The typed rows the tool reads and every status enum, with no I/O: the
//! vocabulary every other layer speaks.

pub mod clock;
pub mod deployment;
pub mod fleet;
pub mod history;
pub mod ids;
pub mod path;
pub mod region;
pub mod status;
pub mod stuck;
pub mod timestamp;
pub mod warning;

pub use deployment::{
    Allocation, Deployment, DeploymentSnapshot, Event, Instance, Job, JobResult, NetworkAttachment,
    Node, ReadInfo, ReleaseArtifact, Route, SourceSnapshot,
};
pub use ids::{short_id, short_or_null};
pub use path::BreakGlassPath;
pub use status::{
    AllocationStatus, DeploymentStatus, InstanceStatus, JobKind, JobStatus, NodeStatus,
    ResultOutcome, RouteStatus,
};
pub use warning::Warning;
