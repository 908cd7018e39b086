//! `stuck`'s arguments: the alerts' thresholds, the triage (filters,
//! order, groups, a limit), the metrics file, watching, regions.

use std::time::Duration;

use clap::{Args, ValueEnum};

use super::{RegionArgs, WatchArgs};
use crate::duration::parse_duration;

#[derive(Debug, Args)]
pub struct StuckArgs {
    /// In flight with no event for this long counts as stuck.
    #[arg(long = "for", default_value = "30m", value_parser = parse_duration, allow_hyphen_values = true, value_name = "DURATION")]
    pub for_: Duration,

    /// A lease expired longer ago than this counts as orphaned.
    #[arg(long, default_value = "1m", value_parser = parse_duration, allow_hyphen_values = true, value_name = "DURATION", hide_short_help = true)]
    pub grace: Duration,

    /// Exit 10 when an operator can act on something found. That is a stuck
    /// deployment, or an orphaned lease of a deployment a break-glass path
    /// applies to (a lease only the lease reclaimer can release is shown
    /// but does not count). For cron and monitors.
    #[arg(long)]
    pub exit_code: bool,

    /// One line per node, pool, status, path or org: count, oldest, and
    /// the command that lists the group.
    #[arg(long, value_enum, value_name = "WHAT")]
    pub group_by: Option<GroupByArg>,

    /// Only deployments with this status.
    #[arg(long, value_enum, value_name = "STATUS")]
    pub status: Option<DeploymentStatusArg>,

    /// Only deployments of this org (id or a prefix of it).
    #[arg(long, value_name = "ORG", hide_short_help = true)]
    pub org: Option<String>,

    /// Only deployments that wait on this node (by name).
    #[arg(long, value_name = "NODE")]
    pub node: Option<String>,

    /// Only deployments that wait on a node of this pool.
    #[arg(long, value_name = "POOL")]
    pub pool: Option<String>,

    /// Only deployments whose break-glass path is this one.
    #[arg(long, value_enum, value_name = "PATH", hide_short_help = true)]
    pub path: Option<PathArg>,

    /// The order of the rows [default: stuck-for, longest first].
    #[arg(long, value_enum, value_name = "KEY", hide_short_help = true)]
    pub sort: Option<SortArg>,

    /// Show at most this many rows of each list (JSON says how many were
    /// left out).
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,

    /// Write the metrics (OpenMetrics) to FILE, replacing it atomically,
    /// instead of printing: for node_exporter's textfile collector, from
    /// cron. A failed scan still writes pushleft_scan_success 0.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "watch",
        hide_short_help = true
    )]
    pub write: Option<std::path::PathBuf>,

    #[command(flatten)]
    pub watch: WatchArgs,

    #[command(flatten)]
    pub regions: RegionArgs,
}

/// `stuck --group-by`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GroupByArg {
    Node,
    Pool,
    Status,
    Path,
    Org,
}

/// `stuck --sort`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SortArg {
    StuckFor,
    Status,
    Org,
    Node,
}

/// `stuck --path`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
#[value(rename_all = "snake_case")]
pub enum PathArg {
    OperatorFailed,
    TeardownRequested,
    None,
}

/// `stuck --status`: a deployment's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
#[value(rename_all = "snake_case")]
pub enum DeploymentStatusArg {
    Queued,
    Building,
    Deploying,
    Running,
    Failed,
    TeardownQueued,
    Destroyed,
}
