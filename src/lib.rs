//! pushleft-controller: the break-glass CLI for stuck deployments.
//!
//! The binary (`main.rs`) is a thin shell around [`run`]; everything lives
//! here so the tests can call library functions directly.

pub mod cli;
pub mod cluster;
pub mod commands;
pub mod connect;
pub mod duration;
pub mod exit;
pub mod interrupt;
pub mod json_docs;
pub mod manpages;
pub mod output;
pub mod plans;
pub mod render;
pub mod resolve;
pub mod sandbox;
pub mod schema;
pub mod schema_check;
pub mod simulate;
pub mod snapshot;
pub mod verdict;

use anyhow::Result;

use crate::cli::{Cli, Command};
use crate::exit::ExitCode;
use crate::output::Output;

/// Runs one parsed command line and says how the process should exit.
pub fn run(cli: Cli) -> Result<ExitCode> {
    interrupt::install();
    let output = Output::detect(cli.global.output);
    match cli.command {
        Command::Sandbox(args) => sandbox::run(&args, &output),
        Command::Generate(args) => commands::generate::run(&args),
        Command::Diagnose(args) => commands::diagnose::run(&args, &cli.global, &output),
        Command::FailSafely(args) => commands::fail_safely::run(&args, &cli.global, &output),
        Command::Wait(args) => commands::wait::run(&args, &cli.global, &output),
        Command::Doctor(args) => commands::doctor::run(&args, &cli.global, &output),
        Command::Fleet(ref command) => commands::fleet::run(&cli.global, command, &output),
        Command::Stuck(ref args) => commands::stuck::run(&cli.global, args, &output),
    }
}
