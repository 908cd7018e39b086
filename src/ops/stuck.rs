//! `stuck`: the fleet-wide scan the alerts describe, `deployment_stuck` and
//! `job_lease_orphaned`, with the triage a big incident needs (filters,
//! order, groups, a limit), over one database or several regions; and the
//! same scan as metrics. Reports, never acts.

use anyhow::Result;
use chrono::{DateTime, Utc};

use super::Context;
use super::regions::{Regional, Regions};
use crate::cli::StuckArgs;
use crate::db::fleet::{self, FleetFilter};
use crate::db::session::Session;
use crate::db::stuck;
use crate::decide::Policy;
use crate::decide::blind;
use crate::decide::regions::merge_stuck;
use crate::decide::triage::{self, Triage};
use crate::model::fleet::FleetList;
use crate::model::region::RegionStatus;
use crate::model::stuck::{StuckReport, StuckScanInfo};
use crate::ui;
use crate::ui::openmetrics::{Metrics, Scan};

/// What the scan found: the triaged report, whether anything in it calls
/// for action (`--exit-code`, counted before `--limit`), and each region's
/// status (empty for one database).
pub struct Scanned {
    pub report: StuckReport,
    pub actionable: bool,
    pub statuses: Vec<RegionStatus>,
}

/// The scan of the one database or of every region asked for, merged and
/// triaged.
pub fn scan_all(ctx: &Context, args: &StuckArgs) -> Result<Scanned> {
    let Regional { value, statuses } = Regions::requested(ctx, args.regions.all_services)?.read(
        ctx,
        &|session| scan(ctx, session, args),
        merge_stuck,
    )?;
    let scanned = value.unwrap_or_else(|| nothing_read(args, statuses.clone()));
    let (report, actionable) = triage::triage_for_action(scanned, &args.triage());
    Ok(Scanned {
        report,
        actionable,
        statuses,
    })
}

/// One refresh of `--watch`: the triaged scan of one session.
pub fn scan_triaged(ctx: &Context, session: &mut Session, args: &StuckArgs) -> Result<StuckReport> {
    Ok(triage::triage(scan(ctx, session, args)?, &args.triage()))
}

/// Regions were asked for and none answered: an empty report that says so.
fn nothing_read(args: &StuckArgs, statuses: Vec<RegionStatus>) -> StuckReport {
    StuckReport {
        deployments_stuck: Vec::new(),
        leases_orphaned: Vec::new(),
        snapshot: StuckScanInfo {
            at: chrono::Utc::now(),
            stuck_after_seconds: args.for_.as_secs(),
            grace_seconds: args.grace.as_secs(),
            in_recovery: false,
            replay_lag_seconds: None,
            replay_paused: false,
            row_security: Vec::new(),
            row_security_policies: Vec::new(),
            role: String::new(),
        },
        groups: None,
        left_out: None,
        regions: Some(statuses),
        warnings: Vec::new(),
        clock_skew: Vec::new(),
        cannot_vouch: None,
        cannot_tell: Vec::new(),
        listing: None,
    }
}

/// One database's scan, warning when row-level security may hide rows
/// from it, with what its reads could not see.
fn scan(ctx: &Context, client: &mut Session, args: &StuckArgs) -> Result<StuckReport> {
    let report = stuck::scan(client, ctx.schema(), args.thresholds())?;
    ui::warn_row_security(&report.snapshot.row_security, "the scan");
    Ok(blind::stuck_scan(report))
}

/// The scan and the fleet for the metrics (`-o openmetrics`, `--write
/// FILE`), or why the scan failed.
pub struct Measured {
    pub at: DateTime<Utc>,
    pub result: Result<(StuckReport, FleetList)>,
    /// The metrics file this run replaces (`--write`): a failed scan keeps
    /// its series and its last success.
    pub previous: Option<String>,
}

impl Measured {
    /// The metrics report of this run, for `emit` or the file.
    pub fn metrics(&self) -> Metrics<'_> {
        match &self.result {
            Ok((report, fleet)) => Metrics {
                scan: Scan::Done { report, fleet },
                at: self.at,
                last_success: Some(self.at),
            },
            Err(_) => Metrics {
                scan: Scan::Failed {
                    previous: self.previous.as_deref(),
                },
                at: self.at,
                last_success: self
                    .previous
                    .as_deref()
                    .and_then(ui::openmetrics::last_success_in),
            },
        }
    }
}

/// `-o openmetrics` / `--write FILE`: the scan and the fleet as metrics.
/// The filters apply; `--limit` and `--group-by` do not (metrics count
/// everything). A failed scan still produces metrics (`scan_success 0`,
/// the last success carried over from the file), and its error.
pub fn measure(ctx: &Context, args: &StuckArgs) -> Measured {
    let at = Utc::now();
    let read = || -> Result<(StuckReport, FleetList)> {
        let mut client = ctx.connect_for_reading()?;
        let triage = Triage {
            limit: None,
            group_by: None,
            ..args.triage()
        };
        let report = triage::triage(scan(ctx, &mut client, args)?, &triage);
        let all_nodes = FleetFilter::default();
        let fleet = fleet::list(
            &mut client,
            ctx.schema(),
            &all_nodes,
            Policy::default().stale_after,
        )?;
        Ok((report, fleet))
    };
    Measured {
        at,
        result: read(),
        previous: args
            .write
            .as_ref()
            .and_then(|path| std::fs::read_to_string(path).ok()),
    }
}
