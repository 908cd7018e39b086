//! The commands, thin, as cargo's `commands/*.rs`: each `run(&Context,
//! &Args)` parses → calls its op (`crate::ops`, which does the work and
//! returns the report) → emits the report (`Context::emit`). No command
//! uses another's module; what several share is an op.

pub mod approvals;
pub mod diagnose;
pub mod doctor;
pub mod fail_safely;
pub mod fleet;
pub mod generate;
pub mod history;
pub mod sandbox;
pub mod stuck;
pub mod wait;
pub mod watch;

use anyhow::Result;

use crate::cli::{Cli, Command};
use crate::db;
use crate::db::connect::Settings;
use crate::exit::{self, ExitCode};
use crate::model::next::{NextCommand, Subcommand as Sub};
use crate::ops::Context;

/// Runs one parsed command line and says how the process should exit.
pub fn run(cli: Cli) -> Result<ExitCode> {
    crate::interrupt::install(|signal| exit::for_signal(signal).as_i32());
    let ctx = Context::new(cli.global);
    let Some(command) = &cli.command else {
        return Err(exit::usage(format!(
            "give a command: {} (see --help)",
            crate::cli::visible_commands().join(", ")
        )));
    };
    let result = match command {
        Command::Sandbox(args) => sandbox::run(&ctx, args),
        Command::Generate(args) => generate::run(&ctx, args),
        Command::Diagnose(args) => diagnose::run(&ctx, args),
        Command::FailSafely(args) => fail_safely::run(&ctx, args),
        Command::Wait(args) => wait::run(&ctx, args),
        Command::Doctor(args) => doctor::run(&ctx, args),
        Command::Fleet(args) => fleet::run(&ctx, args),
        Command::Stuck(args) => stuck::run(&ctx, args),
        Command::History(args) => history::run(&ctx, args),
        Command::Approvals(args) => approvals::run(&ctx, args),
    };
    result.map_err(|err| explain_read_failure(&ctx, command, err))
}

/// A command that only reads says so when it fails: what it was doing,
/// that nothing was written, and how to rerun it; a permission denied
/// also names the role that lacks it.
fn explain_read_failure(ctx: &Context, command: &Command, err: anyhow::Error) -> anyhow::Error {
    let Some((doing, rerun)) = read_only_command(command) else {
        return err;
    };
    // The reads run as the user they connect as (no --role for reads).
    let user = Settings::from_options(&ctx.global.connect_options())
        .ok()
        .map(|settings| settings.target().user);
    db::errors::explain(
        err,
        &db::errors::Doing::Reading {
            what: &doing,
            rerun: &rerun.to_string(),
            user: user.as_deref(),
        },
    )
}

/// For the commands that only read: what they were doing and how to rerun
/// them (`fail-safely` explains its own errors; `wait` says more of a lost
/// connection itself first).
fn read_only_command(command: &Command) -> Option<(String, NextCommand)> {
    match command {
        Command::Diagnose(args) => Some((
            format!("diagnosing deployment {}", args.deployment),
            NextCommand::diagnose(&args.deployment),
        )),
        Command::Doctor(_) => Some(("running doctor".into(), NextCommand::new(Sub::Doctor))),
        Command::Fleet(_) => Some(("listing the fleet".into(), NextCommand::new(Sub::FleetList))),
        Command::Stuck(_) => Some((
            "scanning for stuck deployments".into(),
            NextCommand::new(Sub::Stuck),
        )),
        Command::History(_) => Some((
            "listing the operators' actions".into(),
            NextCommand::new(Sub::History),
        )),
        Command::Wait(args) => Some((
            "waiting for the deployment".into(),
            match &args.from {
                Some(from) => NextCommand::new(Sub::Wait).option("--from", from.display()),
                None => args
                    .deployments
                    .iter()
                    .fold(NextCommand::new(Sub::Wait), |next, id| next.arg(id)),
            },
        )),
        _ => None,
    }
}
