//! `decide::blind`: no path, no command and no "stuck" from a read
//! row-level security filters; the same snapshot unfiltered decides as
//! before.

use chrono::Utc;
use uuid::Uuid;

use super::{assess_default, base, codes};
use crate::decide::blind::*;
use crate::decide::{Policy, progress};
use crate::model::NextCommand;
use crate::model::stuck::StuckReport;
use crate::model::stuck::{Responsible, StuckDeployment, StuckScanInfo};
use crate::model::{BreakGlassPath, RowSecurity};

fn hidden(table: &str, policies: &[&str], forced: bool) -> RowSecurity {
    RowSecurity {
        table: table.into(),
        owner: "control".into(),
        forced,
        policies: policies.iter().map(|p| p.to_string()).collect(),
    }
}

fn filtered_by(tables: Vec<RowSecurity>) -> crate::model::DeploymentSnapshot {
    let mut s = base();
    s.snapshot.role = "oncall".into();
    s.snapshot.row_security = tables.iter().map(|t| t.table.clone()).collect();
    s.snapshot.row_security_policies = tables;
    s
}

fn vouch(tables: Vec<RowSecurity>) -> crate::model::blind::CannotVouch {
    cannot_vouch(&filtered_by(tables).snapshot).expect("cannot vouch")
}

#[test]
fn a_read_nothing_filters_decides_as_before() {
    let s = base();
    assert_eq!(cannot_vouch(&s.snapshot), None);
    let v = assess_default(&s);
    assert_eq!(v.path, BreakGlassPath::OperatorFailed);
    assert!(v.decidable && v.stuck && v.cannot_vouch.is_none());
    assert_eq!(
        v.next_command,
        Some(NextCommand::fail_safely(s.deployment.id))
    );
}

#[test]
fn row_security_on_the_events_names_no_path_and_no_command() {
    let s = filtered_by(vec![hidden("deployment_events", &["hide_recent"], false)]);
    let v = assess_default(&s);
    assert_eq!(v.path, BreakGlassPath::None);
    assert!(!v.decidable && !v.stuck, "{v:?}");
    assert_eq!(v.next_command, None);
    assert_eq!(v.stuck_for_seconds, None);
    let b = v.cannot_vouch.as_ref().expect("cannot_vouch");
    assert_eq!(b.reason, "row_security");
    assert_eq!(b.role, "oncall");
    assert!(
        v.headline.starts_with("cannot vouch for a path"),
        "{}",
        v.headline
    );
    for words in ["role oncall", "deployment_events (policies: hide_recent)"] {
        assert!(b.message.contains(words), "{words}: {}", b.message);
    }
    for words in ["owner (control)", "BYPASSRLS", "user= in DATABASE_URL"] {
        assert!(v.reason.contains(words), "{words}: {}", v.reason);
    }
    assert!(!v.reason.contains("fail-safely"), "{}", v.reason);
    let codes = codes(&v);
    assert!(
        codes.contains(&"row_security") && !codes.contains(&"stuck"),
        "{codes:?}"
    );
}

#[test]
fn any_filtered_table_of_the_read_counts() {
    for table in [
        "jobs",
        "application_instances",
        "fleet_nodes",
        "agent_job_results",
    ] {
        let v = assess_default(&filtered_by(vec![hidden(table, &["p"], false)]));
        assert_eq!(v.path, BreakGlassPath::None, "{table}");
        assert!(v.next_command.is_none(), "{table}");
    }
    // Only the names known: still no path.
    let mut s = base();
    s.snapshot.row_security = vec!["jobs".into()];
    assert_eq!(assess_default(&s).path, BreakGlassPath::None);
}

#[test]
fn forced_tables_and_tables_without_policies_are_named_so() {
    let b = vouch(vec![
        hidden("jobs", &[], true),
        hidden("fleet_nodes", &["a", "b"], false),
    ]);
    assert!(
        b.message
            .contains("jobs (no policy: every row hidden, FORCE ROW LEVEL SECURITY)")
    );
    assert!(
        b.message.contains("fleet_nodes (policies: a, b)"),
        "{}",
        b.message
    );
    // The owner of a forced table is filtered too; that of the other is not.
    assert!(b.next_step.contains("owner (control)"), "{}", b.next_step);
    let forced = vouch(vec![hidden("jobs", &["p"], true)]);
    assert!(!forced.next_step.contains("owner"), "{}", forced.next_step);
}

#[test]
fn wait_never_verifies_from_a_filtered_read() {
    let mut s = filtered_by(vec![hidden("application_instances", &["p"], false)]);
    s.deployment.status = "teardown_queued".into();
    s.instances.clear();
    s.allocations.clear();
    s.jobs.clear();
    let p = progress(&s, &Policy::default());
    assert!(!p.verified, "{p:?}");
    assert!(matches!(
        p.blocked.as_slice(),
        [crate::model::progress::Blocked::RowSecurity { .. }]
    ));
    s.snapshot.row_security.clear();
    s.snapshot.row_security_policies.clear();
    assert!(progress(&s, &Policy::default()).verified);
}

fn stuck_row(n: u128) -> StuckDeployment {
    StuckDeployment {
        region: None,
        deployment_id: Uuid::from_u128(n),
        org_id: None,
        status: "queued".into(),
        created_at: Utc::now(),
        stuck_for_seconds: 3600,
        last_event_at: None,
        last_event_kind: None,
        nodes: Vec::new(),
        pools: Vec::new(),
        dispatched: false,
        path: BreakGlassPath::OperatorFailed,
        responsible: Responsible::Operator,
        next_command: Some(NextCommand::fail_safely(Uuid::from_u128(n))),
        next_step: String::new(),
    }
}

fn scan(tables: Vec<RowSecurity>) -> StuckReport {
    StuckReport {
        deployments_stuck: vec![stuck_row(1), stuck_row(2)],
        leases_orphaned: Vec::new(),
        snapshot: StuckScanInfo {
            at: Utc::now(),
            in_recovery: false,
            replay_lag_seconds: None,
            replay_paused: false,
            stuck_after_seconds: 1800,
            grace_seconds: 60,
            row_security: tables.iter().map(|t| t.table.clone()).collect(),
            row_security_policies: tables,
            role: "oncall".into(),
        },
        regions: None,
        groups: None,
        left_out: None,
        warnings: Vec::new(),
        clock_skew: Vec::new(),
        cannot_vouch: None,
        cannot_tell: Vec::new(),
        listing: None,
    }
}

#[test]
fn a_filtered_scan_calls_nothing_stuck_and_offers_no_command() {
    let report = stuck_scan(scan(vec![hidden(
        "deployment_events",
        &["hide_recent"],
        false,
    )]));
    assert!(report.deployments_stuck.is_empty());
    assert_eq!(report.cannot_tell.len(), 2);
    for d in &report.cannot_tell {
        assert_eq!(d.path, BreakGlassPath::None);
        assert_eq!(d.next_command, None);
        assert!(
            d.next_step.starts_with("cannot tell whether it is stuck"),
            "{}",
            d.next_step
        );
    }
    let b = report.cannot_vouch.as_ref().expect("cannot_vouch");
    assert!(b.message.contains("hide_recent"), "{}", b.message);
    // `stuck --exit-code` still alerts: hidden rows never silence it.
    assert!(report.actionable());
    let clear = stuck_scan(scan(Vec::new()));
    assert_eq!(clear.deployments_stuck.len(), 2);
    assert!(clear.cannot_tell.is_empty() && clear.cannot_vouch.is_none());
}
