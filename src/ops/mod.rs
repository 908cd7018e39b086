//! What each command does (README, "The layers"), as cargo's `ops`: a
//! function that takes the parsed arguments (or a request made of them),
//! reads and writes through `db`, judges through `decide`, and returns the
//! command's report, a document of `model`. The command then emits it, so
//! every report is rendered after its read's transaction has ended; the
//! one exception is `diagnose -o json`, whose trail is streamed from
//! inside the snapshot ([`diagnose::stream`]). Ops may call each other;
//! none calls a command.

pub mod approvals;
pub mod assess;
pub mod batch_file;
pub mod context;
pub mod diagnose;
pub mod doctor;
pub mod fail_safely;
pub mod fleet;
pub mod history;
pub mod regions;
pub mod stuck;
pub mod wait;

pub use context::Context;
