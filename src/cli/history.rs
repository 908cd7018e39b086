//! `history`'s arguments: the time window, who, what, which deployment.

use clap::Args;

use super::RegionArgs;
pub use super::when::{WhenArg, parse_when};

#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// The deployment whose actions to show (full id or unique prefix):
    /// the same as --deployment.
    #[arg(value_name = "DEPLOYMENT", conflicts_with = "deployment")]
    pub deployment_id: Option<String>,

    /// Only actions at or after this time: how long ago (12h, 2h30m), or a
    /// time, with its zone (2026-12-01T20:05:00Z, 2026-12-01 20:05Z) or
    /// without one (2026-12-01 20:05, 2026-12-01), then read in the local
    /// time zone: TZ, else the system's.
    #[arg(long, value_parser = parse_when, value_name = "WHEN")]
    pub since: Option<WhenArg>,

    /// Only actions before this time (as --since: how long ago, or a time;
    /// without a zone, local).
    #[arg(long, value_parser = parse_when, value_name = "WHEN")]
    pub until: Option<WhenArg>,

    /// Only actions by this user (OS user, session_user or current_user).
    #[arg(long, value_name = "NAME")]
    pub operator: Option<String>,

    /// Only actions whose reason contains this text (any case).
    #[arg(long, value_name = "TEXT")]
    pub reason_contains: Option<String>,

    /// Only actions on this deployment (full id or unique prefix).
    #[arg(long, value_name = "ID")]
    pub deployment: Option<String>,

    /// Only self-approved actions: a plan applied by its own requester, or
    /// a write with --break-glass-alone.
    #[arg(long)]
    pub self_approved: bool,

    /// Show at most this many, the newest.
    #[arg(long, default_value_t = 100, value_name = "N")]
    pub limit: usize,

    #[command(flatten)]
    pub regions: RegionArgs,
}

impl HistoryArgs {
    /// The deployment asked for, positional or by --deployment (clap
    /// refuses both).
    pub fn deployment(&self) -> Option<&str> {
        self.deployment_id.as_deref().or(self.deployment.as_deref())
    }
}
