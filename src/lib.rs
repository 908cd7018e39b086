//! pushleft-controller: the break-glass CLI for stuck deployments.
//!
//! The binary (`main.rs`) is a thin shell around [`run`]; everything lives
//! here so the tests can call library functions directly.

pub mod cli;
pub mod cluster;
pub mod commands;
pub mod connect;
pub mod docs;
pub mod duration;
pub mod exit;
pub mod interrupt;
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
    let reader = read_only_command(&cli.command);
    let result = match cli.command {
        Command::Sandbox(args) => sandbox::run(&args, &output),
        Command::Generate(args) => commands::generate::run(&args),
        Command::Diagnose(args) => commands::diagnose::run(&args, &cli.global, &output),
        Command::FailSafely(args) => commands::fail_safely::run(&args, &cli.global, &output),
        Command::Wait(args) => commands::wait::run(&args, &cli.global, &output),
        Command::Doctor(args) => commands::doctor::run(&args, &cli.global, &output),
        Command::Fleet(ref command) => commands::fleet::run(&cli.global, command, &output),
        Command::Stuck(ref args) => commands::stuck::run(&cli.global, args, &output),
    };
    result.map_err(|err| match reader {
        Some((doing, rerun)) => explain_lost_connection(err, &doing, &rerun),
        None => err,
    })
}

/// For the commands that only read: what they were doing and how to rerun
/// them (`fail-safely` and `wait` explain a lost connection themselves).
fn read_only_command(command: &Command) -> Option<(String, String)> {
    let tool = "pushleft-controller";
    match command {
        Command::Diagnose(args) => Some((
            format!("diagnosing deployment {}", args.deployment),
            format!("{tool} diagnose {}", args.deployment),
        )),
        Command::Doctor(_) => Some(("running doctor".into(), format!("{tool} doctor"))),
        Command::Fleet(_) => Some(("listing the fleet".into(), format!("{tool} fleet list"))),
        Command::Stuck(_) => Some((
            "scanning for stuck deployments".into(),
            format!("{tool} stuck"),
        )),
        _ => None,
    }
}

/// A read-only command lost its session: nothing can have been written.
fn explain_lost_connection(err: anyhow::Error, doing: &str, rerun: &str) -> anyhow::Error {
    let explained = err.chain().any(|cause| cause.is::<exit::Failure>());
    if explained || !exit::is_connection_lost(&err) {
        return err;
    }
    exit::connection_lost(format!(
        "lost the connection to the database while {doing} ({}). This command only reads: \
         nothing was written. Next step: check that the database is up (`pushleft-controller \
         doctor`), then rerun `{rerun}`",
        exit::lost_connection_cause(&err)
    ))
}
