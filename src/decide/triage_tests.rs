use chrono::{TimeZone, Utc};

use super::*;
use crate::model::stuck::StuckScanInfo;

fn row(n: u128, status: &str, nodes: &[&str], path: BreakGlassPath, stuck: i64) -> StuckDeployment {
    StuckDeployment {
        region: None,
        deployment_id: Uuid::from_u128(n),
        org_id: Some(Uuid::from_u128(0xC0 + n % 2)),
        status: status.into(),
        created_at: Utc.with_ymd_and_hms(2026, 11, 29, 0, 0, 0).unwrap(),
        stuck_for_seconds: stuck,
        last_event_at: None,
        last_event_kind: None,
        nodes: nodes.iter().map(|s| s.to_string()).collect(),
        pools: nodes
            .iter()
            .map(|s| s.split('-').next().unwrap_or("").to_string())
            .collect(),
        dispatched: path == BreakGlassPath::TeardownRequested,
        path,
        responsible: crate::model::stuck::Responsible::Operator,
        next_command: None,
        next_step: String::new(),
    }
}

fn report(rows: Vec<StuckDeployment>) -> StuckReport {
    StuckReport {
        deployments_stuck: rows,
        leases_orphaned: Vec::new(),
        snapshot: StuckScanInfo {
            at: Utc.with_ymd_and_hms(2026, 11, 29, 3, 0, 0).unwrap(),
            stuck_after_seconds: 1800,
            grace_seconds: 60,
            in_recovery: false,
            replay_lag_seconds: None,
            replay_paused: false,
            row_security: Vec::new(),
            row_security_policies: Vec::new(),
            role: String::new(),
        },
        groups: None,
        left_out: None,
        regions: None,
        warnings: Vec::new(),
        clock_skew: Vec::new(),
        cannot_vouch: None,
        cannot_tell: Vec::new(),
        listing: None,
    }
}

fn scan() -> StuckReport {
    use BreakGlassPath::*;
    report(vec![
        row(1, "deploying", &["edge-07"], TeardownRequested, 9000),
        row(2, "queued", &[], OperatorFailed, 8000),
        row(
            3,
            "building",
            &["edge-07", "build-03"],
            TeardownRequested,
            7000,
        ),
        row(4, "deploying", &["edge-07"], TeardownRequested, 6000),
    ])
}

#[test]
fn a_dead_node_is_one_group_with_every_deployment_on_it() {
    let groups = group(&scan().deployments_stuck, GroupBy::Node);
    let keys: Vec<(&str, usize)> = groups.iter().map(|g| (g.key.as_str(), g.count)).collect();
    assert_eq!(keys, [("edge-07", 3), ("(none)", 1), ("build-03", 1)]);
    assert_eq!(groups[0].oldest_stuck_for_seconds, 9000);
    assert_eq!(groups[0].teardown_requested, 3);
    assert_eq!(
        groups[0].next_command.to_string(),
        "pushleft-controller stuck --node edge-07"
    );
    assert_eq!(
        group_command(GroupBy::Pool, "edge pool; reboot").to_string(),
        "pushleft-controller stuck --pool 'edge pool; reboot'"
    );
    let by_path = group(&scan().deployments_stuck, GroupBy::Path);
    assert_eq!(by_path[0].key, "teardown_requested");
    assert_eq!(by_path[0].count, 3);
}

#[test]
fn filters_sort_and_limit_say_what_they_left_out() {
    let t = Triage {
        filter: TriageFilter {
            node: Some("edge-07".into()),
            ..TriageFilter::default()
        },
        sort: SortBy::Status,
        limit: Some(2),
        group_by: Some(GroupBy::Pool),
    };
    let out = triage(scan(), &t);
    let ids: Vec<u128> = out
        .deployments_stuck
        .iter()
        .map(|d| d.deployment_id.as_u128())
        .collect();
    // building before deploying; within deploying, longest stuck first.
    assert_eq!(ids, [3, 1]);
    assert_eq!(out.left_out.map(|l| l.deployments_stuck), Some(1));
    // Groups are of every row that passed the filters, before the limit.
    let groups = out.groups.expect("grouped");
    assert_eq!(groups[0].key, "edge");
    assert_eq!(groups[0].count, 3);
}

#[test]
fn an_org_matches_by_prefix_and_status_exactly() {
    let t = Triage {
        filter: TriageFilter {
            // Dashes and case do not matter.
            org: Some(Uuid::from_u128(0xC1).to_string().to_uppercase()),
            status: Some(DeploymentStatus::Deploying),
            ..TriageFilter::default()
        },
        ..Triage::default()
    };
    let ids: Vec<u128> = triage(scan(), &t)
        .deployments_stuck
        .iter()
        .map(|d| d.deployment_id.as_u128())
        .collect();
    assert_eq!(ids, [1]);
}

#[test]
fn the_none_group_has_its_own_command_that_lists_exactly_it() {
    let groups = group(&scan().deployments_stuck, GroupBy::Node);
    let none = groups
        .iter()
        .find(|g| g.key == NONE)
        .expect("a (none) group");
    assert_eq!(
        none.next_command.to_string(),
        "pushleft-controller stuck --node '(none)'"
    );
    let t = Triage {
        filter: TriageFilter {
            node: Some(NONE.into()),
            ..TriageFilter::default()
        },
        ..Triage::default()
    };
    let out = triage(scan(), &t);
    assert_eq!(out.deployments_stuck.len(), none.count);
    assert!(out.deployments_stuck.iter().all(|d| d.nodes.is_empty()));
}
