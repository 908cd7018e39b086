//! One module per command.

pub mod fleet;
pub mod generate;
pub mod stuck;

use anyhow::Result;

use crate::cli::Command;
use crate::exit::ExitCode;

/// Commands whose issue is not done yet say so instead of pretending.
pub fn not_built_yet(command: &Command) -> Result<ExitCode> {
    let name = match command {
        Command::Diagnose(_) => "diagnose",
        Command::FailSafely(_) => "fail-safely",
        Command::Fleet(_) => "fleet",
        Command::Stuck(_) => "stuck",
        Command::Wait(_) => "wait",
        Command::Doctor(_) => "doctor",
        Command::Sandbox(_) => "sandbox",
        Command::Generate(_) => "generate",
    };
    anyhow::bail!("`{name}` is not built yet in this version of pushleft-controller")
}
