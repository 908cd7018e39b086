//! The options every command shares, before or after its name: where
//! and how to connect, and how to show the result (`help connection`,
//! `help output`).

use std::time::Duration;

use clap::Args;

use super::{CONNECTION, OUTPUT};
use crate::db::connect::ConnectOptions;
use crate::db::sql::Schema;
use crate::duration::parse_duration;
use crate::ui::{ColorChoice, OutputFormat};

#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// The control plane's database (URL or key=value) [env:
    /// DATABASE_URL]. Overrides the PG* variables. Never printed.
    // DATABASE_URL is read in `connect_options`, not by clap: a clap `env`
    // makes every usage error show `--database-url <URL>` as if required.
    #[arg(long, global = true, value_name = "URL", help_heading = CONNECTION)]
    pub database_url: Option<String>,

    /// Output format. Default: table, on a terminal and in a pipe alike
    /// (fitted to the width; wide: every column); json only when asked.
    #[arg(
        long,
        short = 'o',
        global = true,
        value_enum,
        value_name = "FORMAT",
        help_heading = OUTPUT
    )]
    pub output: Option<OutputFormat>,

    /// Colour: auto (on a terminal, unless NO_COLOR is set), always, never.
    #[arg(
        long,
        global = true,
        value_enum,
        default_value_t = ColorChoice::Auto,
        value_name = "WHEN",
        help_heading = OUTPUT
    )]
    pub color: ColorChoice,

    /// Tables without their header line.
    #[arg(long, global = true, help_heading = OUTPUT)]
    pub no_headers: bool,

    /// Never page: on a terminal, output taller than the screen goes
    /// through PAGER (default `less -FRX`) unless this is given.
    #[arg(long, global = true, help_heading = OUTPUT)]
    pub no_pager: bool,

    /// Every SQL statement as sent, in order, with its parameters, on
    /// stderr (each line prefixed `sql> `): to hold the tool against the
    /// runbook. Never a password, never a result.
    #[arg(long, global = true, help_heading = OUTPUT)]
    pub show_sql: bool,

    /// The connection service to use: a section of ~/.pg_service.conf
    /// (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service=
    /// would name it; overrides PGSERVICE. Not together with a URL.
    #[arg(long, global = true, value_name = "NAME", help_heading = CONNECTION)]
    pub service: Option<String>,

    #[command(flatten)]
    pub timeouts: SessionTimeouts,

    /// The schema that holds the control plane's tables, as the catalog
    /// spells it. Every statement names its tables with it; the search path
    /// itself is pinned to pg_catalog, pg_temp.
    #[arg(
        long,
        global = true,
        env = "PUSHLEFT_SCHEMA",
        default_value = Schema::DEFAULT,
        value_parser = Schema::parse,
        value_name = "NAME",
        help_heading = CONNECTION
    )]
    pub schema: Schema,
}

impl GlobalArgs {
    /// The flags connecting needs, handed down to `connect`, which does not
    /// know the CLI's types.
    pub fn connect_options(&self) -> ConnectOptions {
        ConnectOptions {
            database_url: self
                .database_url
                .clone()
                .or_else(|| std::env::var("DATABASE_URL").ok().filter(|v| !v.is_empty())),
            service: self.service.clone(),
            statement_timeout: self.timeouts.statement_timeout,
            connect_timeout: self.timeouts.connect_timeout,
            idle_in_transaction_timeout: self.timeouts.idle_in_transaction_timeout,
        }
    }
}

/// The session's timeouts, each a DURATION (`30s`, `2m`) from the line or
/// its PUSHLEFT_ variable: one group among the connection options every
/// command shares.
#[derive(Debug, Clone, Copy, Args)]
#[command(next_help_heading = CONNECTION)]
pub struct SessionTimeouts {
    /// Statement timeout of every query (e.g. 30s).
    #[arg(
        long,
        global = true,
        env = "PUSHLEFT_STATEMENT_TIMEOUT",
        default_value = "30s",
        value_parser = parse_duration, allow_hyphen_values = true,
        value_name = "DURATION"
    )]
    pub statement_timeout: Duration,

    /// How long to wait for a session (TCP, TLS and login) [default:
    /// connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s].
    #[arg(
        long,
        global = true,
        env = "PUSHLEFT_CONNECT_TIMEOUT",
        value_parser = parse_duration, allow_hyphen_values = true,
        value_name = "DURATION"
    )]
    pub connect_timeout: Option<Duration>,

    /// The server ends a session of ours that sits idle inside a
    /// transaction this long (idle_in_transaction_session_timeout).
    #[arg(
        long,
        global = true,
        env = "PUSHLEFT_IDLE_IN_TRANSACTION_TIMEOUT",
        default_value = "60s",
        value_parser = parse_duration, allow_hyphen_values = true,
        value_name = "DURATION"
    )]
    pub idle_in_transaction_timeout: Duration,
}
