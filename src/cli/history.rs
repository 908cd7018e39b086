//! `history`'s arguments: the time window, who, what, which deployment.

use std::time::Duration;

use clap::Args;

use super::RegionArgs;
use crate::duration::parse_duration;

/// A point in time: a moment, or how long ago.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WhenArg {
    At(chrono::DateTime<chrono::Utc>),
    Ago(Duration),
}

/// `2026-11-29T03:12:00Z` (RFC 3339), `2026-11-29 03:12Z`, `2026-11-29`
/// (midnight UTC), or a duration meaning that long ago (`12h`).
pub fn parse_when(text: &str) -> Result<WhenArg, String> {
    use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
    let text = text.trim();
    if let Ok(at) = DateTime::parse_from_rfc3339(text) {
        return Ok(WhenArg::At(at.with_timezone(&Utc)));
    }
    if let Some(minutes) = text.strip_suffix('Z')
        && let Ok(at) = NaiveDateTime::parse_from_str(minutes, "%Y-%m-%d %H:%M")
    {
        return Ok(WhenArg::At(at.and_utc()));
    }
    if let Ok(day) = NaiveDate::parse_from_str(text, "%Y-%m-%d")
        && let Some(midnight) = day.and_hms_opt(0, 0, 0)
    {
        return Ok(WhenArg::At(midnight.and_utc()));
    }
    parse_duration(text).map(WhenArg::Ago).map_err(|_| {
        "expected a time (2026-11-29T03:12:00Z, 2026-11-29 03:12Z, 2026-11-29) or how long ago (12h)"
            .to_string()
    })
}

#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// Only actions at or after this time (a time, or how long ago: 12h).
    #[arg(long, value_parser = parse_when, value_name = "WHEN")]
    pub since: Option<WhenArg>,

    /// Only actions before this time (a time, or how long ago).
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
