//! The commands, thin: parse → the shared [`Context`] → db and decide →
//! ui. Every command has the same signature: `run(&Context, &Args)`.

pub mod approvals;
mod batch_file;
pub mod diagnose;
pub mod doctor;
pub mod fail_safely;
pub mod fleet;
pub mod generate;
pub mod history;
pub mod regions;
pub mod sandbox;
pub mod stuck;
pub mod wait;
pub mod watch;

use std::time::Duration;

use crate::db::session::Session;
use anyhow::Result;

use crate::cli::{Cli, Command, GlobalArgs};
use crate::db;
use crate::db::connect::{self, ConnectOptions, Reached, Settings};
use crate::db::sql::Schema;
use crate::exit::{self, ErrorKind, ExitCode};
use crate::model::next::{NextCommand, Subcommand as Sub};
use crate::ui::{self, Output, report::Report};

/// What every command gets: the global options and how to render.
pub struct Context {
    pub global: GlobalArgs,
    pub output: Output,
}

impl Context {
    pub fn new(global: GlobalArgs) -> Context {
        if global.no_pager {
            ui::pager::disable();
        }
        if global.show_sql {
            db::sql::trace::install(ui::show_sql::show);
        }
        Context {
            output: Output::detect(global.output, global.color, !global.no_headers),
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
        if let Some(service) = &self.global.service
            && service.contains(',')
        {
            return Err(exit::usage(format!(
                "--service {service}: this command acts on exactly one region; name one service \
                 (several are for stuck, fleet list and history)"
            )));
        }
        settings_with(&self.global.connect_options(), "")
    }

    /// A session with the session settings every command runs under. A
    /// failure to connect is of kind `connection_failed`, and says so when
    /// nothing at all was configured.
    pub fn connect(&self, lock_timeout: Duration) -> Result<Session> {
        let settings = self.settings()?;
        settings
            .connect(lock_timeout)
            .map_err(|err| exit::tag(explain_unconfigured(err), ErrorKind::ConnectionFailed))
    }

    /// [`Context::connect`], and the server it really reached (where a
    /// write lands, `db::target`).
    pub fn connect_reporting(&self, lock_timeout: Duration) -> Result<(Session, Reached)> {
        let settings = self.settings()?;
        settings
            .connect_reporting(lock_timeout)
            .map_err(|err| exit::tag(explain_unconfigured(err), ErrorKind::ConnectionFailed))
    }

    /// A session for a command that takes no row locks on purpose: its
    /// transactions wait for a lock (a migration's, say) no longer than the
    /// default lock timeout.
    pub fn connect_for_reading(&self) -> Result<Session> {
        self.connect(connect::DEFAULT_LOCK_TIMEOUT)
    }

    /// Prints a command's result in the format asked for (the one output
    /// path, `ui::report`).
    pub fn emit(&self, report: &impl Report) -> Result<()> {
        ui::report::emit(&self.output, report)
    }

    /// The one region a command acts on, when `--service` names it.
    pub fn region(&self) -> Option<String> {
        self.global.service.clone()
    }

    /// A reading session with one region: the connection service
    /// `region`, and nothing of a database URL.
    pub fn connect_to_region(&self, region: &str) -> Result<Session> {
        let mut options = self.global.connect_options();
        options.database_url = None;
        options.service = Some(region.to_string());
        settings_with(&options, &format!("{region}: "))?
            .connect(connect::DEFAULT_LOCK_TIMEOUT)
            .map_err(|err| exit::tag(err, ErrorKind::ConnectionFailed))
    }
}

/// The libpq variables that say where to connect.
const CONNECTION_VARIABLES: &[&str] = &[
    "DATABASE_URL",
    "PGHOST",
    "PGHOSTADDR",
    "PGPORT",
    "PGUSER",
    "PGDATABASE",
    "PGSERVICE",
];

/// With neither --database-url nor DATABASE_URL nor any PG* variable, the
/// defaults (local socket, the OS user) were tried: say that nothing was
/// configured, which is usually the whole story.
pub fn explain_unconfigured(err: anyhow::Error) -> anyhow::Error {
    let configured = std::env::args().any(|a| a.starts_with("--database-url"))
        || CONNECTION_VARIABLES
            .iter()
            .any(|v| std::env::var_os(v).is_some_and(|x| !x.is_empty()));
    if configured {
        return err;
    }
    err.context(
        "nothing says where the control plane's database is: --database-url, DATABASE_URL \
         and the PG* variables (PGHOST, PGPORT, PGUSER, PGDATABASE, PGSERVICE) are all unset, \
         so the libpq defaults were tried. Set DATABASE_URL (or PGHOST and friends) and check \
         with `pushleft-controller doctor`",
    )
}

/// Settings from `options`, their warnings shown on stderr (each after
/// `label`, which names a region when several are read).
fn settings_with(options: &ConnectOptions, label: &str) -> Result<Settings> {
    let settings = Settings::from_options(options)?;
    for warning in settings.warnings() {
        ui::output::warn(&format!("warning: {label}{warning}"));
    }
    Ok(settings)
}

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
