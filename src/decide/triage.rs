//! Triage of a fleet-wide scan for a big incident: which stuck deployments
//! and orphaned leases to show (filters), in which order, how many, and
//! grouped by what they have in common. Pure: the scan is read once.

use std::collections::BTreeMap;

use uuid::Uuid;

use crate::model::next::{NextCommand, Subcommand};
use crate::model::stuck::{LeftOut, OrphanedLease, StuckDeployment, StuckGroup, StuckReport};
use crate::model::{BreakGlassPath, DeploymentStatus};

/// What the stuck deployments are grouped by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupBy {
    Node,
    Pool,
    Status,
    Path,
    Org,
}

/// The order of the rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SortBy {
    /// Longest stuck (or longest expired) first: the scan's own order.
    #[default]
    StuckFor,
    Status,
    Org,
    Node,
}

/// Which rows to keep. `None` is no filter; an org matches by id prefix.
#[derive(Debug, Clone, Default)]
pub struct TriageFilter {
    pub status: Option<DeploymentStatus>,
    pub org: Option<String>,
    pub node: Option<String>,
    pub pool: Option<String>,
    pub path: Option<BreakGlassPath>,
}

/// Everything `stuck` was asked to do with the scan.
#[derive(Debug, Clone, Default)]
pub struct Triage {
    pub filter: TriageFilter,
    pub sort: SortBy,
    pub limit: Option<usize>,
    pub group_by: Option<GroupBy>,
}

/// An org id matches a prefix of its hex digits (dashes optional); an
/// unknown (NULL) one matches no prefix.
fn org_matches(org: Option<Uuid>, prefix: &str) -> bool {
    let Some(org) = org else {
        return false;
    };
    let wanted: String = prefix
        .chars()
        .filter(|c| *c != '-')
        .flat_map(char::to_lowercase)
        .collect();
    org.simple().to_string().starts_with(&wanted)
}

/// The group of deployments that wait on no node (or pool), and the
/// filter value that lists exactly them (`stuck --node '(none)'`).
pub const NONE: &str = "(none)";
/// The group of deployments whose org is unknown (NULL), and the filter
/// value that lists exactly them.
pub const UNKNOWN: &str = "(unknown)";

/// `wanted` among `names`: a name, or [`NONE`] for no name at all.
fn names_match(names: &[String], wanted: &str) -> bool {
    if wanted == NONE {
        names.is_empty()
    } else {
        names.iter().any(|n| n == wanted)
    }
}

/// An org filter: a prefix, or [`UNKNOWN`] for a NULL org.
fn org_filter_matches(org: Option<Uuid>, wanted: &str) -> bool {
    if wanted == UNKNOWN {
        org.is_none()
    } else {
        org_matches(org, wanted)
    }
}

impl TriageFilter {
    fn keeps_deployment(&self, d: &StuckDeployment) -> bool {
        self.status.as_ref().is_none_or(|s| *s == d.status)
            && self
                .org
                .as_deref()
                .is_none_or(|o| org_filter_matches(d.org_id, o))
            && self
                .node
                .as_deref()
                .is_none_or(|n| names_match(&d.nodes, n))
            && self
                .pool
                .as_deref()
                .is_none_or(|p| names_match(&d.pools, p))
            && self.path.is_none_or(|p| p == d.path)
    }

    fn keeps_lease(&self, l: &OrphanedLease) -> bool {
        let one = |name: &Option<String>| name.iter().cloned().collect::<Vec<_>>();
        self.status
            .as_ref()
            .is_none_or(|s| *s == l.deployment_status)
            && self
                .org
                .as_deref()
                .is_none_or(|o| org_filter_matches(l.org_id, o))
            && self
                .node
                .as_deref()
                .is_none_or(|n| names_match(&one(&l.node_name), n))
            && self
                .pool
                .as_deref()
                .is_none_or(|p| names_match(&one(&l.node_pool), p))
            && self.path.is_none_or(|p| p == l.path)
    }
}

fn first_node(nodes: &[String]) -> &str {
    nodes.first().map(String::as_str).unwrap_or("")
}

fn sort(report: &mut StuckReport, by: SortBy) {
    // Stable sorts: within a key, the scan's longest-stuck-first order.
    let deployments = &mut report.deployments_stuck;
    let leases = &mut report.leases_orphaned;
    match by {
        SortBy::StuckFor => {}
        SortBy::Status => {
            deployments.sort_by(|a, b| a.status.as_str().cmp(b.status.as_str()));
            leases.sort_by(|a, b| {
                a.deployment_status
                    .as_str()
                    .cmp(b.deployment_status.as_str())
            });
        }
        SortBy::Org => {
            deployments.sort_by_key(|d| d.org_id);
            leases.sort_by_key(|l| l.org_id);
        }
        SortBy::Node => {
            deployments.sort_by(|a, b| first_node(&a.nodes).cmp(first_node(&b.nodes)));
            leases.sort_by(|a, b| a.node_name.cmp(&b.node_name));
        }
    }
}

/// The keys a deployment is grouped under: every node (or pool) it waits
/// on, so a deployment spread over two dead nodes counts for both.
fn keys(d: &StuckDeployment, by: GroupBy) -> Vec<String> {
    let or_none = |values: &[String]| {
        if values.is_empty() {
            vec![NONE.to_string()]
        } else {
            values.to_vec()
        }
    };
    match by {
        GroupBy::Node => or_none(&d.nodes),
        GroupBy::Pool => or_none(&d.pools),
        GroupBy::Status => vec![d.status.to_string()],
        GroupBy::Path => vec![d.path.as_str().to_string()],
        GroupBy::Org => vec![
            d.org_id
                .map_or_else(|| UNKNOWN.to_string(), |o| o.to_string()),
        ],
    }
}

/// The command that lists a group's deployments.
fn group_command(by: GroupBy, key: &str) -> NextCommand {
    let flag = match by {
        GroupBy::Node => "--node",
        GroupBy::Pool => "--pool",
        GroupBy::Status => "--status",
        GroupBy::Path => "--path",
        GroupBy::Org => "--org",
    };
    // `(none)` and `(unknown)` are filter values too: each group's
    // command lists exactly that group.
    NextCommand::new(Subcommand::Stuck).option(flag, key)
}

/// The `stuck` command that lists what passed `filter` (and the scan's
/// threshold, when it is not the default): the head of the one batch
/// command for many rows (README, "A big incident").
fn listing_command(filter: &TriageFilter, stuck_after_seconds: u64) -> NextCommand {
    let mut command = NextCommand::new(Subcommand::Stuck);
    if stuck_after_seconds != super::policy::STUCK_AFTER.as_secs() {
        // Exact, as `--for` reads it back: never rounded.
        let s = stuck_after_seconds;
        let exact = match (s % 3600, s % 60) {
            (0, _) => format!("{}h", s / 3600),
            (_, 0) => format!("{}m", s / 60),
            _ => format!("{s}s"),
        };
        command = command.option("--for", exact);
    }
    let options = [
        ("--status", filter.status.as_ref().map(|s| s.to_string())),
        ("--org", filter.org.clone()),
        ("--node", filter.node.clone()),
        ("--pool", filter.pool.clone()),
        ("--path", filter.path.map(|p| p.as_str().to_string())),
    ];
    for (flag, value) in options {
        if let Some(value) = value {
            command = command.option(flag, value);
        }
    }
    command
}

/// The stuck deployments by `by`: largest group first, then the one stuck
/// longest.
pub fn group(deployments: &[StuckDeployment], by: GroupBy) -> Vec<StuckGroup> {
    let mut groups: BTreeMap<String, StuckGroup> = BTreeMap::new();
    for d in deployments {
        for key in keys(d, by) {
            let group = groups.entry(key.clone()).or_insert_with(|| StuckGroup {
                next_command: group_command(by, &key),
                key,
                count: 0,
                oldest_stuck_for_seconds: 0,
                operator_failed: 0,
                teardown_requested: 0,
                deployment_ids: Vec::new(),
            });
            group.count += 1;
            group.oldest_stuck_for_seconds =
                group.oldest_stuck_for_seconds.max(d.stuck_for_seconds);
            match d.path {
                BreakGlassPath::OperatorFailed => group.operator_failed += 1,
                BreakGlassPath::TeardownRequested => group.teardown_requested += 1,
                BreakGlassPath::None => {}
            }
            group.deployment_ids.push(d.deployment_id);
        }
    }
    let mut groups: Vec<StuckGroup> = groups.into_values().collect();
    groups.sort_by(|a, b| {
        b.count
            .cmp(&a.count)
            .then(b.oldest_stuck_for_seconds.cmp(&a.oldest_stuck_for_seconds))
    });
    groups
}

/// Applies the filters, the order, the groups (of every row that passed
/// the filters) and then the limit.
pub fn triage(mut report: StuckReport, triage: &Triage) -> StuckReport {
    let filter = &triage.filter;
    report
        .deployments_stuck
        .retain(|d| filter.keeps_deployment(d));
    report.leases_orphaned.retain(|l| filter.keeps_lease(l));
    sort(&mut report, triage.sort);
    report.groups = triage
        .group_by
        .map(|by| group(&report.deployments_stuck, by));
    report.listing = Some(listing_command(filter, report.snapshot.stuck_after_seconds));
    apply_limit(report, triage.limit)
}

/// [`triage`], and whether what passed the filters holds anything an
/// operator can act on — also rows the limit then hides (the rule of
/// `stuck --exit-code`, README "Output and exit codes": a monitor for one
/// pool pages for that pool; a lease only the reclaimer can release is
/// reported, not counted).
pub fn triage_for_action(report: StuckReport, triage: &Triage) -> (StuckReport, bool) {
    let unlimited = Triage {
        limit: None,
        ..triage.clone()
    };
    let full = self::triage(report, &unlimited);
    let actionable = full.actionable();
    (apply_limit(full, triage.limit), actionable)
}

/// Keeps the first `limit` rows of each list (and groups) and says how
/// many were left out; no limit, no change.
pub fn apply_limit(mut report: StuckReport, limit: Option<usize>) -> StuckReport {
    if let Some(limit) = limit {
        let left_out = LeftOut {
            deployments_stuck: report.deployments_stuck.len().saturating_sub(limit),
            leases_orphaned: report.leases_orphaned.len().saturating_sub(limit),
        };
        report.deployments_stuck.truncate(limit);
        report.leases_orphaned.truncate(limit);
        if let Some(groups) = &mut report.groups {
            groups.truncate(limit);
        }
        report.left_out = Some(left_out);
    }
    report
}

#[cfg(test)]
#[path = "triage_tests.rs"]
mod tests;
