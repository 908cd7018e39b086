//! The arguments of each command (the clap definition, continued from
//! `cli/mod.rs`).

use std::time::Duration;

use clap::{Args, Subcommand, ValueEnum};

use crate::decide::input::reason_pattern;
use crate::duration::parse_duration;
use crate::model::batch::Rate;

#[derive(Debug, Args)]
pub struct DiagnoseArgs {
    /// Deployment id: a UUID or a unique prefix (4+ hex digits).
    pub deployment: String,

    /// How many of the latest events the table shows (JSON has them all).
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub events: usize,

    /// Write the whole of every job's last error, agent result's output and
    /// event's payload, which every other output shows cut past 4096
    /// characters: plain text, each value under a `==>` head, its lines
    /// indented and made safe for a terminal; streamed from one snapshot,
    /// never held whole.
    #[arg(long)]
    pub full_text: bool,

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
#[command(group(clap::ArgGroup::new("batch_source").args(["from", "apply"])))]
pub struct FailSafelyArgs {
    /// Deployment id: a UUID or a unique prefix (4+ hex digits).
    #[arg(
        required_unless_present_any = ["from", "apply"],
        conflicts_with_all = ["from", "apply"]
    )]
    pub deployment: Option<String>,

    /// A batch: the deployment ids in FILE (- for stdin). One per line, or
    /// the JSON of `stuck -o json`. One plan, one confirmation (type the
    /// number of deployments), then each in its own guarded transaction.
    #[arg(long, value_name = "FILE")]
    pub from: Option<std::path::PathBuf>,

    /// With --from: go on after a deployment is refused or fails.
    #[arg(long, requires = "from", hide_short_help = true)]
    pub keep_going: bool,

    /// With --from or --apply: refuse a batch (a plan) of more deployments
    /// than this.
    #[arg(
        long,
        default_value_t = 50,
        value_name = "N",
        requires = "batch_source",
        hide_short_help = true
    )]
    pub max: usize,

    /// The ticket and the reason, stored verbatim in the event.
    #[arg(long, value_name = "TEXT", required_unless_present = "apply")]
    pub reason: Option<String>,

    /// Write a plan to FILE for review; nothing is written to the database.
    /// It decides under the locks exactly as a dry run does and writes the
    /// plan (JSON) for the ticket, then `--apply FILE` by someone else.
    /// FILE must not exist: a plan under review is never overwritten
    /// (see --force).
    #[arg(long, value_name = "FILE", conflicts_with = "dry_run")]
    pub plan_out: Option<std::path::PathBuf>,

    /// With --plan-out: replace FILE if it exists (atomically: a reader
    /// sees the old plan or the new one).
    #[arg(long, requires = "plan_out", hide_short_help = true)]
    pub force: bool,

    /// With --plan-out: how long the plan may be applied.
    #[arg(
        hide_short_help = true,
        long,
        default_value = "1h",
        value_parser = parse_duration,
        value_name = "DURATION",
        requires = "plan_out"
    )]
    pub plan_ttl: Duration,

    /// Apply the plan in FILE (made with --plan-out). Only on the cluster
    /// and database it was made on, before it expires, each deployment held
    /// to the plan's path and fingerprint.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = [
            "from", "reason", "plan_out", "dry_run", "expect_path", "expect_fingerprint",
            "idempotency_key", "role", "even_if_not_stuck"
        ]
    )]
    pub apply: Option<std::path::PathBuf>,

    /// Start at most N deployments a second (N/s, N/m). With --from or
    /// --apply, So a big incident does not stampede the scheduler.
    #[arg(long, default_value = "5/s", value_parser = Rate::parse, value_name = "RATE")]
    pub rate: Rate,

    /// The two-person rule (PUSHLEFT_REQUIRE_APPROVAL=1): refuse to write
    /// without --apply of a plan made by someone else (another OS user or
    /// another session_user).
    #[arg(
        hide_short_help = true,
        long,
        env = "PUSHLEFT_REQUIRE_APPROVAL",
        value_parser = clap::builder::BoolishValueParser::new(),
        action = clap::ArgAction::SetTrue
    )]
    pub require_approval: bool,

    /// Write with nobody else to approve; the audit marks it self_approved.
    /// Under the two-person rule, the way to write alone; history shows
    /// it.
    #[arg(long, hide_short_help = true)]
    pub break_glass_alone: bool,

    /// Decide and check everything, then roll back and print the plan.
    #[arg(long)]
    pub dry_run: bool,

    /// Do not ask for confirmation (required without a terminal).
    #[arg(long, short = 'y')]
    pub yes: bool,

    /// Refuse unless the path decided is this one. Decided under the locks.
    #[arg(long, value_enum, value_name = "PATH")]
    pub expect_path: Option<ExpectedPath>,

    /// Refuse unless the state still has this fingerprint (from diagnose).
    #[arg(long, value_name = "FINGERPRINT")]
    pub expect_fingerprint: Option<String>,

    /// Replay key; default: derived from the deployment and the reason.
    #[arg(long, value_name = "KEY", hide_short_help = true)]
    pub idempotency_key: Option<String>,

    /// Run the transaction as this role (SET LOCAL ROLE), e.g. the owner.
    #[arg(long, value_name = "NAME", hide_short_help = true)]
    pub role: Option<String>,

    /// How long to wait for another transaction's row locks.
    #[arg(
        long,
        env = "PUSHLEFT_LOCK_TIMEOUT",
        hide_short_help = true,
        default_value = "5s",
        value_parser = parse_duration, allow_hyphen_values = true,
        value_name = "DURATION"
    )]
    pub lock_timeout: Duration,

    /// Act on a deployment that is not stuck. Not stuck by the alerts'
    /// definitions (e.g. running and healthy); the audit records it.
    #[arg(long, hide_short_help = true)]
    pub even_if_not_stuck: bool,

    /// A regular expression every --reason must match (a team's shape for
    /// reasons, e.g. '^[A-Z]+-[0-9]+ ').
    #[arg(
        long,
        env = "PUSHLEFT_REASON_PATTERN",
        hide_short_help = true,
        value_parser = reason_pattern,
        value_name = "REGEX"
    )]
    pub reason_pattern: Option<regex::Regex>,

    #[command(flatten)]
    pub guard: GuardArgs,

    #[command(flatten)]
    pub staleness: StalenessArgs,
}

/// What the guard vouches for beyond the reference schema: shared by
/// fail-safely and doctor.
#[derive(Debug, Clone, Args)]
pub struct GuardArgs {
    /// Triggers and rules on deployments and deployment_events that this
    /// team vouches for, comma-separated: NAME, or TABLE.NAME for one table.
    /// Any other refuses fail-safely.
    #[arg(
        long,
        env = "PUSHLEFT_ALLOWED_TRIGGERS",
        hide_short_help = true,
        value_delimiter = ',',
        value_name = "NAMES"
    )]
    pub allowed_triggers: Vec<String>,
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

/// `--all-services`: shared by the fleet-wide views (`--service a,b`
/// names some regions; this takes them all).
#[derive(Debug, Clone, Copy, Args)]
pub struct RegionArgs {
    /// Read every region: each service the service files define
    /// (PGSERVICEFILE or ~/.pg_service.conf, then pg_service.conf), in
    /// parallel; a region column says where each row comes from.
    #[arg(long, hide_short_help = true)]
    pub all_services: bool,
}

/// `--watch` and `--count`: shared by the views that refresh.
#[derive(Debug, Clone, Copy, Args)]
pub struct WatchArgs {
    /// Refresh every INTERVAL (default 5s). In place on a terminal, with
    /// changes highlighted; one document per refresh on a pipe (JSON lines
    /// with --output json). On a terminal q leaves it (exit 0) and Ctrl-C
    /// too (exit 130), neither an error; the last view stays on the screen.
    #[arg(long, value_name = "INTERVAL", num_args = 0..=1, default_missing_value = "5s", value_parser = parse_duration)]
    pub watch: Option<Duration>,

    /// With --watch: stop after N refreshes.
    #[arg(long, value_name = "N", requires = "watch", hide_short_help = true)]
    pub count: Option<u64>,
}

/// When a node counts as stale: shared by every command that judges nodes.
#[derive(Debug, Clone, Copy, Args)]
pub struct StalenessArgs {
    /// A node whose heartbeat is older than this is stale.
    #[arg(long, default_value = "2m", value_parser = parse_duration, allow_hyphen_values = true, value_name = "DURATION", hide_short_help = true)]
    pub stale_after: Duration,
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
    pub watch: WatchArgs,

    #[command(flatten)]
    pub regions: RegionArgs,

    #[command(flatten)]
    pub staleness: StalenessArgs,
}

#[derive(Debug, Args)]
pub struct WaitArgs {
    /// Deployment ids: UUIDs or unique prefixes (4+ hex digits). Several
    /// are followed together, one line each.
    #[arg(
        required_unless_present = "from",
        conflicts_with = "from",
        value_name = "DEPLOYMENT"
    )]
    pub deployments: Vec<String>,

    /// The ids in FILE (- for stdin): one per line, or the JSON of `stuck
    /// -o json` or of `fail-safely --from FILE -o json` (what it wrote).
    #[arg(long, value_name = "FILE")]
    pub from: Option<std::path::PathBuf>,

    /// Give up after this long (exit 6).
    #[arg(long, default_value = "10m", value_parser = parse_duration, allow_hyphen_values = true, value_name = "DURATION")]
    pub timeout: Duration,

    /// How often to look (at least 100ms: every look is a transaction).
    #[arg(long, default_value = "2s", value_parser = parse_interval, allow_hyphen_values = true, value_name = "DURATION")]
    pub interval: Duration,

    /// Keep waiting when everything left waits for a dead node (during
    /// its reboot), until --timeout; without it, wait exits at once (exit 7).
    #[arg(long)]
    pub wait_for_node: bool,

    #[command(flatten)]
    pub staleness: StalenessArgs,
}

/// The shortest `wait --interval`: each look is a read-only transaction of
/// a dozen queries; more often would load the control plane for nothing.
pub const MIN_INTERVAL: Duration = Duration::from_millis(100);

fn parse_interval(text: &str) -> Result<Duration, String> {
    let interval = parse_duration(text)?;
    if interval < MIN_INTERVAL {
        return Err(format!(
            "`{text}` is too often: every look is a transaction; give at least 100ms"
        ));
    }
    Ok(interval)
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

    /// Also load a big incident: edge-07 died and stranded 40 more
    /// deployments (for `stuck --group-by node` and `fail-safely --from`).
    #[arg(long)]
    pub big_incident: bool,

    /// The command to run against the sandbox (default: $SHELL).
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<String>,
}

#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Also check that this role can be assumed (as fail-safely --role).
    #[arg(long, value_name = "NAME")]
    pub role: Option<String>,

    #[command(flatten)]
    pub guard: GuardArgs,
}

#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Where completions/ and man/ are written.
    #[arg(long, default_value = ".", value_name = "DIR")]
    pub out_dir: std::path::PathBuf,
}
