//! Several regions' reports read as one: which region each row is from,
//! in which order the rows come and which region's instant stands.

use crate::model::Warning;
use crate::model::fleet::FleetList;
use crate::model::history::History;
use crate::model::region::RegionStatus;
use crate::model::stuck::StuckReport;

/// A warning's sentence says which region's row it is about.
fn tag_warnings(region: &str, warnings: &mut [Warning]) {
    for w in warnings {
        w.message = format!("region {region}: {}", w.message);
    }
}

/// The reports of several regions as one: every row names its region;
/// the instant and thresholds are those of the first region that answered.
pub fn merge_stuck(
    parts: Vec<(String, StuckReport)>,
    regions: Vec<RegionStatus>,
) -> Option<StuckReport> {
    let mut parts = parts.into_iter();
    let (region, mut merged) = parts.next()?;
    let tag = |region: &str, report: &mut StuckReport| {
        for d in report
            .deployments_stuck
            .iter_mut()
            .chain(report.cannot_tell.iter_mut())
        {
            d.region = Some(region.to_string());
        }
        for k in &mut report.clock_skew {
            k.region = Some(region.to_string());
        }
        for l in &mut report.leases_orphaned {
            l.region = Some(region.to_string());
        }
        tag_warnings(region, &mut report.warnings);
    };
    tag(&region, &mut merged);
    for (region, mut report) in parts {
        tag(&region, &mut report);
        merged
            .deployments_stuck
            .append(&mut report.deployments_stuck);
        merged.leases_orphaned.append(&mut report.leases_orphaned);
        merged.warnings.append(&mut report.warnings);
        merged.clock_skew.append(&mut report.clock_skew);
        merged.cannot_tell.append(&mut report.cannot_tell);
        if merged.cannot_vouch.is_none() {
            merged.cannot_vouch = report.cannot_vouch.take();
        }
    }
    merged
        .deployments_stuck
        .sort_by_key(|d| std::cmp::Reverse(d.stuck_for_seconds));
    merged
        .leases_orphaned
        .sort_by_key(|l| std::cmp::Reverse(l.expired_for_seconds));
    merged.regions = Some(regions);
    Some(merged)
}

/// The fleets of several regions as one list, by region.
pub fn merge_fleet(
    parts: Vec<(String, FleetList)>,
    regions: Vec<RegionStatus>,
) -> Option<FleetList> {
    let mut parts = parts.into_iter();
    let (region, mut merged) = parts.next()?;
    for node in &mut merged.nodes {
        node.region = Some(region.clone());
    }
    tag_warnings(&region, &mut merged.warnings);
    for k in &mut merged.clock_skew {
        k.region = Some(region.clone());
    }
    for (region, mut list) in parts {
        tag_warnings(&region, &mut list.warnings);
        merged.warnings.append(&mut list.warnings);
        merged
            .clock_skew
            .extend(list.clock_skew.into_iter().map(|mut k| {
                k.region = Some(region.clone());
                k
            }));
        merged.nodes.extend(list.nodes.into_iter().map(|mut node| {
            node.region = Some(region.clone());
            node
        }));
    }
    merged.regions = Some(regions);
    Some(merged)
}

/// The operators' actions of several regions, newest first, at most
/// `limit` (`truncated` when any region had more).
pub fn merge_history(
    parts: Vec<(String, History)>,
    regions: Vec<RegionStatus>,
    limit: usize,
) -> Option<History> {
    let mut parts = parts.into_iter();
    let (region, mut merged) = parts.next()?;
    for a in &mut merged.actions {
        a.region = Some(region.clone());
    }
    tag_warnings(&region, &mut merged.warnings);
    for (region, mut history) in parts {
        merged.snapshot.truncated |= history.snapshot.truncated;
        tag_warnings(&region, &mut history.warnings);
        merged.warnings.append(&mut history.warnings);
        merged
            .actions
            .extend(history.actions.into_iter().map(|mut a| {
                a.region = Some(region.clone());
                a
            }));
    }
    merged
        .actions
        .sort_by_key(|a| std::cmp::Reverse(a.occurred_at));
    if merged.actions.len() > limit {
        merged.actions.truncate(limit);
        merged.snapshot.truncated = true;
    }
    merged.regions = Some(regions);
    Some(merged)
}
