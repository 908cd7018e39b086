//! The command line, all of it (README, "The layers"): the clap derive
//! definition, the process from argv to its exit status (`entry`), what
//! the raw line asks beyond the derive (`line`), each command's formats
//! (`formats`), the usage errors (`usage`), and the one place the
//! arguments become requests (`requests`). Nothing else in the tool knows
//! clap (`tests/it/layers.rs` holds it). Completions and man pages are
//! generated from this (see `commands::generate`).

use clap::{Parser, Subcommand};

mod approvals;
mod args;
mod command;
pub mod complete;
mod entry;
mod formats;
mod global;
mod history;
mod line;
mod requests;
mod stuck;
mod usage;
mod values;
mod when;

pub use approvals::{ApprovalsCommand, ApprovalsInstallArgs};
pub use args::*;
pub use command::{TOPICS, command};
pub use entry::{Run, main};
pub use global::{GlobalArgs, SessionTimeouts};
pub use history::{HistoryArgs, WhenArg, parse_when};
pub use stuck::{DeploymentStatusArg, GroupByArg, PathArg, SortArg, StuckArgs};

pub use crate::ui::{ColorChoice, OutputFormat};

/// The heading of the options every command shares for connecting.
const CONNECTION: &str = "Connection options";
/// The heading of the options every command shares for its output.
const OUTPUT: &str = "Output options";

/// The top level's `-h`: one example, so that the whole of it (the
/// commands, one line each) fits a 24-line terminal; `--help` has
/// [`AFTER_HELP`].
const SHORT_AFTER_HELP: &str = "\
Examples:
  pushleft-controller stuck   # more examples and the exit status: --help";

/// The top level's `--help`: the exit status and the examples.
const AFTER_HELP: &str = "\
Exit status:
  0 done, 1 unexpected error, 2 usage or bad input, 3 not found,
  4 refused (precondition, guard, nothing to do, no terminal to confirm),
  5 conflict, lock timeout or changed fingerprint (re-diagnose and retry),
  6 wait timed out, 10 stuck --exit-code found something,
  130 interrupted (Ctrl-C), 143 SIGTERM, 129 SIGHUP.

Examples:
  pushleft-controller doctor
  pushleft-controller stuck
  pushleft-controller diagnose d0000002
  pushleft-controller fail-safely d0000002 --reason \"INC-4712 lease\" --dry-run
  DATABASE_URL='postgresql://ops@db1/control' pushleft-controller stuck -o json";

/// `help connection`: how a connection is made (the options follow).
pub const CONNECTING_HELP: &str = "\
Where to connect: --database-url, else DATABASE_URL (or --service NAME); what
it leaves out comes from the service file, then the libpq variables (PGHOST,
PGPORT, PGUSER, PGDATABASE, PGSSLMODE, PGSERVICE, ...) and ~/.pgpass, as with
psql (libpq 15). Check where it lands with `pushleft-controller doctor`.
These options go with any command, before or after its name.";

/// `help output`: the formats and streams (the options follow).
pub const OUTPUT_HELP: &str = "\
The result goes to stdout: a table fitted to the screen (COLUMNS, else the
terminal's width, else 80), the same on a terminal and in a pipe (plain
there: no colour); JSON only with -o json. Each command's -o lists the
formats it has (markdown for a ticket, openmetrics for stuck). Messages,
progress and --show-sql go to stderr. These options go with any command,
before or after its name.";

/// The version line: the package's version, the commit it was built from
/// and the build date (`src/build.rs`; "unknown" without git).
pub const VERSION_LINE: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("PUSHLEFT_COMMIT"),
    ", built ",
    env!("PUSHLEFT_BUILD_DATE"),
    ")"
);

/// `--version -o json`: the version, the commit and the build date.
#[derive(Debug, serde::Serialize)]
pub struct VersionDocument {
    pub version: &'static str,
    pub commit: &'static str,
    pub date: &'static str,
}

pub const VERSION: VersionDocument = VersionDocument {
    version: env!("CARGO_PKG_VERSION"),
    commit: env!("PUSHLEFT_COMMIT"),
    date: env!("PUSHLEFT_BUILD_DATE"),
};

/// The break-glass CLI for stuck deployments of the control plane.
///
/// Diagnoses a stuck deployment from one consistent read-only snapshot,
/// decides the safe break-glass path under row locks, applies exactly the
/// allowed state change in a checked transaction, and records who did it and
/// why.
#[derive(Debug, Parser)]
#[command(
    name = "pushleft-controller",
    version = VERSION_LINE,
    after_help = SHORT_AFTER_HELP,
    after_long_help = AFTER_HELP,
    disable_version_flag = true,
    max_term_width = 100,
    subcommand_required = false,
    arg_required_else_help = true
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,

    /// None only with options and no command (a usage error that lists
    /// the visible commands, never the hidden `generate`).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The names of the commands `--help` lists (not the hidden ones).
pub fn visible_commands() -> Vec<String> {
    use clap::CommandFactory;
    Cli::command()
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| c.get_name().to_string())
        .collect()
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
  pushleft-controller diagnose d0000008 --events 100
  pushleft-controller diagnose d0000002 --full-text > d0000002-full.txt")]
    Diagnose(DiagnoseArgs),

    /// Apply the runbook's break-glass state change, decided under row locks.
    ///
    /// Locks the deployment, its jobs and instances, decides the path from
    /// what it reads under those locks (operator_failed or
    /// teardown_requested), applies exactly that change and appends one
    /// event with the reason and who did it, and proves before COMMIT that
    /// nothing else changed and that the database holds what was written.
    /// Refuses a deployment that is not stuck (unless
    /// --even-if-not-stuck), a database whose written tables carry a
    /// trigger or rule it cannot vouch for, protecting triggers that do not
    /// refuse, and missing foreign keys. Asks before writing on a terminal;
    /// needs --yes without one. A rerun with the same reason replays, it
    /// does not write twice. Every write names its target (server, port,
    /// database, user, region, primary or standby). --plan-out writes the
    /// decision to a file for review instead, and --apply applies such a
    /// plan, only on the cluster and database it was made on.
    #[command(
        name = "fail-safely",
        after_help = "Examples:
  pushleft-controller fail-safely d0000001 --reason \"INC-4711 queued\" --dry-run
  pushleft-controller stuck --node edge-07 --output json > batch.json
  pushleft-controller fail-safely --from batch.json --reason \"INC-4713 edge-07\"
  pushleft-controller fail-safely --apply plan.json  # made with --plan-out"
    )]
    FailSafely(FailSafelyArgs),

    /// Plans recorded by the server and the two-person policy.
    ///
    /// `approvals install` creates the tool's own schema on this database:
    /// plans recorded and applied from the server's copy, and a policy
    /// the database keeps (see README, "Two-person break-glass").
    #[command(
        subcommand,
        after_help = "Examples:
  pushleft-controller approvals install
  pushleft-controller approvals install --require-approval --enforce"
    )]
    Approvals(ApprovalsCommand),

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
  pushleft-controller stuck --exit-code || page-oncall
  pushleft-controller stuck --group-by node
  pushleft-controller stuck --node edge-07 --limit 20
  pushleft-controller stuck --output openmetrics
  pushleft-controller stuck --write /var/lib/node_exporter/pushleft.prom")]
    Stuck(StuckArgs),

    /// Follow a deployment until the runbook's Verification holds.
    ///
    /// Polls until the deployment is failed, or teardown_queued with every
    /// instance removed, showing progress on a terminal. Exits 6 when
    /// --timeout passes first, 7 at once when everything left waits for a
    /// dead node. Read-only.
    #[command(after_help = "Examples:
  pushleft-controller wait d0000002
  pushleft-controller wait d0000002 --timeout 30m --output json
  pushleft-controller wait d0000003 --wait-for-node --timeout 20m")]
    Wait(WaitArgs),

    /// What operators did: every break-glass action with its audit.
    ///
    /// Every operator_failed and teardown_requested event, newest first,
    /// with who wrote it (OS user, session_user, current_user, host, tool
    /// version), the reason, the idempotency key and the deployment's status
    /// now: the review after an incident. Read-only.
    #[command(after_help = "Examples:
  pushleft-controller history
  pushleft-controller history --since 12h --reason-contains INC-4711
  pushleft-controller history --operator alice --output json
  pushleft-controller history d0000002 --since 2h30m
  pushleft-controller history --since '2026-12-01 20:05'  # local time (TZ)")]
    History(HistoryArgs),

    /// A throwaway local PostgreSQL with the reference schema and incident
    /// scenarios.
    ///
    /// Starts a private server in a temporary directory, loads the
    /// reference schema and the incident scenarios, and opens a shell (or
    /// runs CMD) with DATABASE_URL and PG* pointing at it; the shell's
    /// prompt starts "(pushleft sandbox)" (bash, zsh and fish after their
    /// own start-up files; PS1 for any other shell). When the shell or CMD
    /// ends, the server and its files are gone.
    #[command(after_help = "Examples:
  pushleft-controller sandbox                 # a shell pointed at the sandbox
  pushleft-controller sandbox -- pushleft-controller diagnose d0000001
  pushleft-controller sandbox -- psql -c 'select status from deployments'
  pushleft-controller sandbox --keep          # leave it running
  pushleft-controller sandbox --simulate      # the control plane runs too")]
    Sandbox(SandboxArgs),

    /// Check the connection, the server and the schema this tool expects.
    ///
    /// One line per check, ok, warn or fail: the connection target (never
    /// the password) and TLS, the server version, primary or standby (with
    /// replay lag), session_user and current_user, whether --role can be
    /// assumed, read and write privileges, every table and column the tool
    /// reads, the foreign keys fail-safely's locking rests on, the triggers
    /// that protect the audit trail (and that they really refuse), any
    /// trigger or rule on the written tables fail-safely cannot vouch for,
    /// and the session settings in force. Runs in a read-only transaction
    /// that is rolled back: it never writes. Exits 4 when any check fails.
    #[command(after_help = "Examples:
  pushleft-controller doctor
  pushleft-controller doctor --role deploy_owner
  PGSSLMODE=verify-full PGHOST=db1 pushleft-controller doctor
  pushleft-controller doctor -o json | jq '.checks[] | select(.status != \"ok\")'")]
    Doctor(DoctorArgs),

    /// Write shell completions and man pages (for packagers and CI).
    #[command(hide = true)]
    Generate(GenerateArgs),
}
