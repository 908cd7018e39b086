//! The commands, thin: parse → the shared [`Context`] → db and decide →
//! ui. Every command has the same signature: `run(&Context, &Args)`.

pub mod diagnose;
pub mod doctor;
pub mod fail_safely;
pub mod fleet;
pub mod generate;
pub mod sandbox;
pub mod stuck;
pub mod wait;

use std::time::Duration;

use anyhow::Result;
use postgres::Client;

use crate::cli::{Cli, Command, GlobalArgs};
use crate::db::connect::{self, Settings};
use crate::db::sql::Schema;
use crate::exit::{self, ExitCode, Lost};
use crate::ui::{self, Output};

/// What every command gets: the global options and how to render.
pub struct Context {
    pub global: GlobalArgs,
    pub output: Output,
}

impl Context {
    pub fn new(global: GlobalArgs) -> Context {
        Context {
            output: Output::detect(global.output),
            global,
        }
    }

    /// Where the control plane's tables are (`--schema`).
    pub fn schema(&self) -> &Schema {
        &self.global.schema
    }

    /// The connection settings (libpq rules; see `connect`). Their
    /// warnings (e.g. a password file others can read) are shown here, once,
    /// on stderr: `connect` itself never prints.
    pub fn settings(&self) -> Result<Settings> {
        let settings = Settings::from_options(&self.global.connect_options())?;
        for warning in settings.warnings() {
            ui::note(&format!("warning: {warning}"));
        }
        Ok(settings)
    }

    /// A session with the session settings every command runs under.
    pub fn connect(&self, lock_timeout: Duration) -> Result<Client> {
        self.settings()?.connect(lock_timeout)
    }

    /// A session for a command that takes no row locks on purpose.
    pub fn connect_for_reading(&self) -> Result<Client> {
        self.connect(connect::DEFAULT_LOCK_TIMEOUT)
    }
}

/// Runs one parsed command line and says how the process should exit.
pub fn run(cli: Cli) -> Result<ExitCode> {
    crate::interrupt::install();
    let ctx = Context::new(cli.global);
    let reader = read_only_command(&cli.command);
    let result = match &cli.command {
        Command::Sandbox(args) => sandbox::run(&ctx, args),
        Command::Generate(args) => generate::run(&ctx, args),
        Command::Diagnose(args) => diagnose::run(&ctx, args),
        Command::FailSafely(args) => fail_safely::run(&ctx, args),
        Command::Wait(args) => wait::run(&ctx, args),
        Command::Doctor(args) => doctor::run(&ctx, args),
        Command::Fleet(args) => fleet::run(&ctx, args),
        Command::Stuck(args) => stuck::run(&ctx, args),
    };
    result.map_err(|err| match reader {
        Some((doing, rerun)) => exit::explain_lost(
            err,
            Lost {
                doing: &doing,
                written: ". This command only reads: nothing was written",
                next: &exit::rerun_when_up(&rerun),
            },
        ),
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

/// Prints a result: one JSON document, or the table text.
pub fn print(
    ctx: &Context,
    json: &impl serde::Serialize,
    table: impl FnOnce() -> String,
) -> Result<()> {
    if ctx.output.json() {
        ui::print_json(json)
    } else {
        ui::print(&table())
    }
}
