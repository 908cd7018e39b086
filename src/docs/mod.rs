//! The documentation the tool ships besides `--help`: its man pages.
//!
//! The prose of the pages is roff in `man/src/` (one file per section,
//! loaded with `include_str!`), the rest comes from the clap definition;
//! `generate` (hidden) writes the pages into `man/`, and a test fails when
//! the committed ones are stale.

pub mod json;
pub mod manpages;
