//! One module per command.

pub mod diagnose;
pub mod doctor;
pub mod fail_safely;
pub mod fleet;
pub mod generate;
pub mod stuck;
pub mod wait;
