//! pushleft-controller: the break-glass CLI for stuck deployments.
//!
//! The layers, top to bottom; each imports only from the layers below it
//! (`tests/it/layers.rs` fails when one does not):
//!
//! - [`commands`]: one thin module per command: parse → its op → emit the
//!   report; no command uses another's module.
//! - [`testing`] (hidden): what only the tests and the benchmark use.
//! - [`ops`] (what each command does: a function from the parsed
//!   arguments to the report, through db and decide, and the shared
//!   [`ops::Context`]), [`sandbox`] (the throwaway cluster, scenarios, the
//!   simulated control plane) and [`docs`] (man pages and completions from
//!   the clap definition).
//! - [`cli`]: the command line, all of it: the clap definition, argv to
//!   exit status, usage errors, arguments made into requests.
//! - [`ui`]: tables, JSON, the prompt, progress, colours.
//! - [`db`]: connecting (libpq's rules, TLS), the SQL registry, the read
//!   snapshot, the scans, the guarded transition, the schema checks.
//! - [`decide`]: the break-glass decision and every judgement, pure.
//! - [`model`]: typed rows and status enums.
//! - foundation, usable everywhere: [`exit`], [`db_failure`], [`duration`],
//!   [`interrupt`].
//!
//! The binary (`main.rs`) only hands [`run`] to [`cli::main`].

pub mod cli;
pub mod commands;
pub mod db;
pub mod db_failure;
pub mod decide;
pub mod docs;
pub mod duration;
pub mod exit;
pub mod interrupt;
pub mod model;
pub mod ops;
pub mod sandbox;
#[doc(hidden)]
pub mod testing;
pub mod ui;

pub use commands::run;
