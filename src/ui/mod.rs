//! Everything the operator sees: tables, JSON, the prompt, progress and
//! colours, one renderer per command. Results go to stdout, everything for
//! the human (notes, progress, errors) to stderr.

pub mod batch;
pub mod diagnose;
mod diagnose_sections;
pub mod doctor;
pub mod fail_safely;
pub mod fleet;
pub mod history;
pub mod openmetrics;
pub mod output;
pub mod prompt;
pub mod stuck;
pub mod wait;
pub mod watch;

pub use output::{Output, OutputFormat, Paint, note, print, print_json};
