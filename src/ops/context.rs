//! What every command and every op shares (README, "The layers"): the
//! global options, how to render, and how to connect. It lives in `ops`,
//! below the commands, so both layers use it and neither reaches up.

use std::time::Duration;

use anyhow::Result;

use crate::cli::GlobalArgs;
use crate::db;
use crate::db::connect::{self, ConnectOptions, Reached, Settings};
use crate::db::session::Session;
use crate::db::sql::Schema;
use crate::exit::{self, ErrorKind};
use crate::ui::{self, Output, report::Report};

/// What every command and op gets: the global options and how to render.
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
        settings.connect(lock_timeout).map_err(|err| {
            exit::tag(
                explain_unconfigured(err, self.global.database_url.is_some()),
                ErrorKind::ConnectionFailed,
            )
        })
    }

    /// [`Context::connect`], and the server it really reached (where a
    /// write lands, `db::target`).
    pub fn connect_reporting(&self, lock_timeout: Duration) -> Result<(Session, Reached)> {
        let settings = self.settings()?;
        settings.connect_reporting(lock_timeout).map_err(|err| {
            exit::tag(
                explain_unconfigured(err, self.global.database_url.is_some()),
                ErrorKind::ConnectionFailed,
            )
        })
    }

    /// A session for a command that takes no row locks on purpose: its
    /// transactions wait for a lock (a migration's, say) no longer than the
    /// default lock timeout.
    pub fn connect_for_reading(&self) -> Result<Session> {
        self.connect(connect::DEFAULT_LOCK_TIMEOUT)
    }

    /// Prints a command's result in the format asked for (the one output
    /// path, `ui::report`). Commands call it with the report an op
    /// returned, once the op's transactions have ended: a pager may stay
    /// open as long as the operator reads (`diagnose -o json` alone
    /// streams from inside its snapshot, `ops::diagnose::stream`).
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

/// With neither --database-url (`url_given`: the parsed line, never argv
/// read again here) nor DATABASE_URL nor any PG* variable, the
/// defaults (local socket, the OS user) were tried: say that nothing was
/// configured, which is usually the whole story.
pub fn explain_unconfigured(err: anyhow::Error, url_given: bool) -> anyhow::Error {
    let configured = url_given
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
