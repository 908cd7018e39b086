//! Everything the operator sees: tables, JSON, the prompt, progress and
//! colours, one renderer per command. Results go to stdout, everything for
//! the human (notes, progress, errors) to stderr. Every string from the
//! database passes the one sanitizer ([`sanitize`]) before a terminal sees
//! it; tables and prose fit the screen ([`table`], [`text`]).

pub mod approval;
pub mod approvals;
pub mod bar;
pub mod batch;
pub mod cut;
pub mod diagnose;
pub mod doctor;
pub mod fail_safely;
pub mod failure;
pub mod fleet;
pub mod full_text;
pub mod history;
pub mod keys;
mod layout;
pub mod markdown;
pub mod openmetrics;
pub mod output;
pub mod pager;
pub mod plan;
pub mod prompt;
pub mod report;
pub mod sanitize;
pub mod show_sql;
pub mod stuck;
pub mod table;
pub mod target;
pub mod text;
pub mod wait;
pub mod watch;

pub use output::{
    ColorChoice, Output, OutputFormat, Paint, note, print, print_json, warn_row_security,
};
