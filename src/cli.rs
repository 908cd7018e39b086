//! The command-line interface, as a clap derive definition. Completions and
//! man pages are generated from this (see `commands::generate`).

use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::db::connect::ConnectOptions;
use crate::decide::Policy;
use crate::duration::parse_duration;
pub use crate::ui::OutputFormat;

const AFTER_HELP: &str = "\
Exit status:
  0 done, 1 unexpected error, 2 usage or bad input, 3 not found,
  4 refused (precondition, guard, nothing to do, no terminal to confirm),
  5 conflict, lock timeout or changed fingerprint (re-diagnose and retry),
  6 wait timed out, 10 stuck --exit-code found something, 130 interrupted.

Connecting: --database-url, else DATABASE_URL (or --service NAME); what it
leaves out comes from the service file, then the libpq variables (PGHOST,
PGPORT, PGUSER, PGDATABASE, PGSSLMODE, PGSERVICE, ...) and ~/.pgpass, as
with psql (libpq 15). Check where it lands with `pushleft-controller doctor`.

Examples:
  pushleft-controller doctor
  pushleft-controller stuck
  pushleft-controller diagnose d0000002
  pushleft-controller fail-safely d0000002 --reason \"INC-4712 orphaned build lease\" --dry-run
  DATABASE_URL='postgresql://ops@db1/control?sslmode=verify-full' pushleft-controller stuck -o json";

/// The break-glass CLI for stuck deployments of the control plane.
///
/// Diagnoses a stuck deployment from one consistent read-only snapshot,
/// decides the safe break-glass path under row locks, applies exactly the
/// allowed state change in a checked transaction, and records who did it and
/// why.
#[derive(Debug, Parser)]
#[command(
    name = "pushleft-controller",
    version,
    propagate_version = true,
    after_help = AFTER_HELP,
    max_term_width = 100
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// The control plane's database (URL or key=value). Overrides the PG*
    /// variables. Never printed.
    #[arg(
        long,
        global = true,
        env = "DATABASE_URL",
        hide_env_values = true,
        value_name = "URL"
    )]
    pub database_url: Option<String>,

    /// The connection service to use: a section of ~/.pg_service.conf
    /// (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service=
    /// would name it; overrides PGSERVICE. Not together with a URL.
    #[arg(long, global = true, value_name = "NAME")]
    pub service: Option<String>,

    /// Output format. Default: table on a terminal, json otherwise.
    #[arg(long, short = 'o', global = true, value_enum, value_name = "FORMAT")]
    pub output: Option<OutputFormat>,

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

impl GlobalArgs {
    /// The flags connecting needs, handed down to `connect`, which does not
    /// know the CLI's types.
    pub fn connect_options(&self) -> ConnectOptions {
        ConnectOptions {
            database_url: self.database_url.clone(),
            service: self.service.clone(),
            statement_timeout: self.statement_timeout,
            connect_timeout: self.connect_timeout,
            idle_in_transaction_timeout: self.idle_in_transaction_timeout,
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Every runbook query in one read-only snapshot, plus a verdict.
    ///
    /// Reads the deployment, its events, jobs, agent results, source
    /// snapshots, artifacts, instances, allocations, routes and nodes in one
    /// REPEATABLE READ READ ONLY transaction, so every section shows the same
    /// instant, and says which break-glass path applies and why. Works on a
    /// standby. Never shows the `log` of payloads. Writes nothing.
    #[command(after_help = "Examples:
  pushleft-controller diagnose d0000002
  pushleft-controller diagnose 5f3a9c1e-... --output json | jq .verdict
  pushleft-controller diagnose d0000008 --events 100")]
    Diagnose(DiagnoseArgs),

    /// Apply the runbook's break-glass state change, decided under row locks.
    ///
    /// Locks the deployment, its jobs and instances, decides the path from
    /// what it reads under those locks (operator_failed or
    /// teardown_requested), applies exactly that change and appends one
    /// event with the reason and who did it, and proves before COMMIT that
    /// nothing else changed. Asks before writing on a terminal; needs --yes
    /// without one. A rerun with the same reason replays, it does not write
    /// twice.
    #[command(
        name = "fail-safely",
        after_help = "Examples:
  pushleft-controller fail-safely d0000001 --reason \"INC-4711 stuck queued since 02:10\" --dry-run
  pushleft-controller fail-safely d0000001 --reason \"INC-4711 stuck queued since 02:10\"
  pushleft-controller fail-safely d0000002 --reason \"INC-4712 orphaned build lease\" \\
      --yes --expect-path teardown_requested --expect-fingerprint 3f2a... --output json"
    )]
    FailSafely(FailSafelyArgs),

    /// The fleet's nodes and their capacity.
    ///
    /// Shows how capacity changes after a teardown and which nodes are
    /// stale, offline, draining or unschedulable. Read-only.
    #[command(
        subcommand,
        after_help = "Examples:
  pushleft-controller fleet list
  pushleft-controller fleet list --status offline --output json"
    )]
    Fleet(FleetCommand),

    /// Fleet-wide scan: stuck deployments and orphaned leases.
    ///
    /// The two alerts of the runbook as one query each: deployments in
    /// flight with no new event for --for (deployment_stuck), and leases
    /// that expired more than --grace ago and were not reclaimed
    /// (job_lease_orphaned). Reports, never acts. Read-only.
    #[command(after_help = "Examples:
  pushleft-controller stuck
  pushleft-controller stuck --for 1h --output json
  pushleft-controller stuck --exit-code || page-oncall")]
    Stuck(StuckArgs),

    /// Follow a deployment until the runbook's Verification holds.
    ///
    /// Polls until the deployment is failed, or teardown_queued with every
    /// instance removed, showing progress on a terminal. Exits 6 when
    /// --timeout passes first. Read-only.
    #[command(after_help = "Examples:
  pushleft-controller wait d0000002
  pushleft-controller wait d0000002 --timeout 30m --output json")]
    Wait(WaitArgs),

    /// A throwaway local PostgreSQL with the reference schema and incident
    /// scenarios.
    ///
    /// Starts a private server in a temporary directory, loads the
    /// reference schema and the incident scenarios, and opens a shell (or
    /// runs CMD) with DATABASE_URL and PG* pointing at it. When the shell
    /// or CMD ends, the server and its files are gone.
    #[command(after_help = "Examples:
  pushleft-controller sandbox                      # a shell pointed at the sandbox
  pushleft-controller sandbox -- pushleft-controller diagnose d0000001
  pushleft-controller sandbox -- psql -c 'select status, count(*) from deployments group by 1'
  pushleft-controller sandbox --keep               # leave it running, print how to stop it
  pushleft-controller sandbox --simulate           # the control plane runs: watch teardowns complete")]
    Sandbox(SandboxArgs),

    /// Check the connection, the server and the schema this tool expects.
    ///
    /// One line per check, ok, warn or fail: the connection target (never
    /// the password) and TLS, the server version, primary or standby (with
    /// replay lag), session_user and current_user, whether --role can be
    /// assumed, read and write privileges, every table and column the tool
    /// reads, the triggers that protect the audit trail, and the session
    /// settings in force. Runs in a read-only transaction that is rolled
    /// back: it never writes. Exits 4 when any check fails.
    #[command(after_help = "Examples:
  pushleft-controller doctor
  pushleft-controller doctor --role deploy_owner
  PGSSLMODE=verify-full PGSSLROOTCERT=~/ca.pem PGHOST=db1 pushleft-controller doctor
  pushleft-controller doctor --output json | jq '.checks[] | select(.status != \"ok\")'")]
    Doctor(DoctorArgs),

    /// Write shell completions and man pages (for packagers and CI).
    #[command(hide = true)]
    Generate(GenerateArgs),
}

#[derive(Debug, Args)]
pub struct DiagnoseArgs {
    /// Deployment id: a full UUID or a unique prefix of at least 4 hex digits.
    pub deployment: String,

    /// How many of the latest events the table shows (JSON has them all).
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub events: usize,

    #[command(flatten)]
    pub staleness: StalenessArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
#[value(rename_all = "snake_case")]
pub enum ExpectedPath {
    OperatorFailed,
    TeardownRequested,
}

#[derive(Debug, Args)]
pub struct FailSafelyArgs {
    /// Deployment id: a full UUID or a unique prefix of at least 4 hex digits.
    pub deployment: String,

    /// The ticket and the reason, stored verbatim in the event.
    #[arg(long, value_name = "TEXT")]
    pub reason: String,

    /// Decide and check everything, then roll back and print the plan.
    #[arg(long)]
    pub dry_run: bool,

    /// Do not ask for confirmation (required without a terminal).
    #[arg(long, short = 'y')]
    pub yes: bool,

    /// Refuse unless the path decided under the locks is this one.
    #[arg(long, value_enum, value_name = "PATH")]
    pub expect_path: Option<ExpectedPath>,

    /// Refuse unless the state still has this fingerprint (from diagnose).
    #[arg(long, value_name = "FINGERPRINT")]
    pub expect_fingerprint: Option<String>,

    /// Replay key; default: derived from the deployment and the reason.
    #[arg(long, value_name = "KEY")]
    pub idempotency_key: Option<String>,

    /// Run the transaction as this role (SET LOCAL ROLE), e.g. the owner.
    #[arg(long, value_name = "NAME")]
    pub role: Option<String>,

    /// How long to wait for another transaction's row locks.
    #[arg(
        long,
        env = "PUSHLEFT_LOCK_TIMEOUT",
        default_value = "5s",
        value_parser = parse_duration, allow_hyphen_values = true,
        value_name = "DURATION"
    )]
    pub lock_timeout: Duration,

    #[command(flatten)]
    pub staleness: StalenessArgs,
}

#[derive(Debug, Subcommand)]
pub enum FleetCommand {
    /// Every node: pool, status, heartbeat age, slots used.
    ///
    /// One row per node with its pool, status, schedulable flag, heartbeat
    /// age (stale after --stale-after), slots and the slots and instances in
    /// use. Read-only.
    #[command(after_help = "Examples:
  pushleft-controller fleet list
  pushleft-controller fleet list --pool edge --stale")]
    List(FleetListArgs),
}

/// When a node counts as stale: shared by every command that judges nodes.
#[derive(Debug, Clone, Copy, Args)]
pub struct StalenessArgs {
    /// A node whose heartbeat is older than this is stale.
    #[arg(long, default_value = "2m", value_parser = parse_duration, allow_hyphen_values = true, value_name = "DURATION")]
    pub stale_after: Duration,
}

impl StalenessArgs {
    pub fn policy(&self) -> Policy {
        Policy {
            stale_after: self.stale_after,
        }
    }
}

/// `fleet list --status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum NodeStatusFilter {
    Online,
    Draining,
    Offline,
}

#[derive(Debug, Args)]
pub struct FleetListArgs {
    /// Only nodes of this pool.
    #[arg(long, value_name = "POOL")]
    pub pool: Option<String>,

    /// Only nodes with this status.
    #[arg(long, value_enum, value_name = "STATUS")]
    pub status: Option<NodeStatusFilter>,

    /// Only nodes whose heartbeat is stale.
    #[arg(long)]
    pub stale: bool,

    #[command(flatten)]
    pub staleness: StalenessArgs,
}

#[derive(Debug, Args)]
pub struct StuckArgs {
    /// In flight with no event for this long counts as stuck.
    #[arg(long = "for", default_value = "30m", value_parser = parse_duration, allow_hyphen_values = true, value_name = "DURATION")]
    pub for_: Duration,

    /// A lease expired longer ago than this counts as orphaned.
    #[arg(long, default_value = "1m", value_parser = parse_duration, allow_hyphen_values = true, value_name = "DURATION")]
    pub grace: Duration,

    /// Exit 10 when anything is stuck or orphaned (for cron and monitors).
    #[arg(long)]
    pub exit_code: bool,
}

#[derive(Debug, Args)]
pub struct WaitArgs {
    /// Deployment id: a full UUID or a unique prefix of at least 4 hex digits.
    pub deployment: String,

    /// Give up after this long (exit 6).
    #[arg(long, default_value = "10m", value_parser = parse_duration, allow_hyphen_values = true, value_name = "DURATION")]
    pub timeout: Duration,

    /// How often to look.
    #[arg(long, default_value = "2s", value_parser = parse_duration, allow_hyphen_values = true, value_name = "DURATION")]
    pub interval: Duration,

    #[command(flatten)]
    pub staleness: StalenessArgs,
}

#[derive(Debug, Args)]
pub struct SandboxArgs {
    /// Leave the sandbox running when this command ends, and print how to
    /// stop it.
    #[arg(long)]
    pub keep: bool,

    /// Run the reference control plane in the background while the command
    /// runs: live nodes heartbeat, agents on them run their jobs, teardowns
    /// complete (or wait for a dead node), failed deployments are reaped.
    #[arg(long, conflicts_with = "keep")]
    pub simulate: bool,

    /// The command to run against the sandbox (default: $SHELL).
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<String>,
}

#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Also check that this role can be assumed (as fail-safely --role).
    #[arg(long, value_name = "NAME")]
    pub role: Option<String>,
}

#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Where completions/ and man/ are written.
    #[arg(long, default_value = ".", value_name = "DIR")]
    pub out_dir: std::path::PathBuf,
}
