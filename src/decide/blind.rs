//! Never name a path from a read that may not have seen every row
//! (README, "Reads row-level security filters"). Where row-level security
//! applies to the reading role on a table the decision reads, a policy may
//! hide the newest event (a busy deployment looks quiet), a targeted job
//! (a dispatched one looks undispatched) or an instance: the verdict names
//! no path and no `fail-safely`, says which tables, policies and role, and
//! how to read as a role that sees everything. Pure: over what was read.

use super::assessment::{Findings, Severity};
use crate::model::blind::CannotVouch;
use crate::model::stuck::StuckReport;
use crate::model::{BreakGlassPath, ReadInfo, RowSecurity};

/// Why a read cannot vouch for a decision, if it cannot.
pub fn cannot_vouch(info: &ReadInfo) -> Option<CannotVouch> {
    filtered(&info.role, &info.row_security, &info.row_security_policies)
}

/// [`cannot_vouch`] from the role, the tables' names and their details.
fn filtered(role: &str, names: &[String], detail: &[RowSecurity]) -> Option<CannotVouch> {
    if names.is_empty() && detail.is_empty() {
        return None;
    }
    let mut tables = detail.to_vec();
    // A name without its detail: no owner, no policies known.
    for name in names {
        if !tables.iter().any(|t| &t.table == name) {
            tables.push(RowSecurity {
                table: name.clone(),
                owner: String::new(),
                forced: false,
                policies: Vec::new(),
            });
        }
    }
    let message = format!(
        "row-level security applies to role {} on {}: rows the decision rests on may be hidden \
         from this read (the newest event, a dispatched job, an instance), so it cannot vouch \
         for any path",
        role,
        tables
            .iter()
            .map(table_words)
            .collect::<Vec<_>>()
            .join("; ")
    );
    Some(CannotVouch {
        reason: "row_security",
        role: role.to_string(),
        next_step: way_out(&tables),
        tables,
        message,
    })
}

/// The verdict's headline and reason when it cannot vouch: the reason
/// carries the way out, so every report that shows it shows that too.
pub fn headline(b: &CannotVouch) -> (String, String) {
    let tables: Vec<&str> = b.tables.iter().map(|t| t.table.as_str()).collect();
    (
        format!(
            "cannot vouch for a path: row-level security applies to role {} on {}, so rows may \
             be hidden from this read",
            b.role,
            tables.join(", ")
        ),
        format!("{}. Next step: {}", b.message, b.next_step),
    )
}

/// The findings from a read that cannot vouch: it cannot say "stuck" or
/// "not stuck yet" (a hidden newest event changes that), and says that
/// every other finding is of the rows this role sees.
pub fn findings(b: &CannotVouch, found: &mut Findings) {
    found.drop_code("stuck");
    found.drop_code("in_flight");
    found.add(
        "row_security",
        Severity::Problem,
        format!(
            "cannot tell whether it is stuck, and the findings below are of the rows role {} \
             sees: row-level security applies to it on {}",
            b.role,
            b.tables
                .iter()
                .map(table_words)
                .collect::<Vec<_>>()
                .join("; ")
        ),
    );
}

/// `jobs (policies: hide_targeted)`, `jobs (no policy: every row hidden)`.
fn table_words(t: &RowSecurity) -> String {
    let policies = if t.policies.is_empty() {
        "no policy: every row hidden".to_string()
    } else {
        format!("policies: {}", t.policies.join(", "))
    };
    let forced = if t.forced {
        ", FORCE ROW LEVEL SECURITY"
    } else {
        ""
    };
    format!("{} ({policies}{forced})", t.table)
}

/// How to read so that nothing is hidden: as the owner (unless forced), a
/// superuser or BYPASSRLS role, or a role no policy filters.
fn way_out(tables: &[RowSecurity]) -> String {
    let mut owners: Vec<&str> = tables
        .iter()
        .filter(|t| !t.forced && !t.owner.is_empty())
        .map(|t| t.owner.as_str())
        .collect();
    owners.sort_unstable();
    owners.dedup();
    let owner = match owners.as_slice() {
        [] => String::new(),
        [one] => format!("the tables' owner ({one}), "),
        many => format!("the tables' owners ({}), ", many.join(", ")),
    };
    format!(
        "read again as a role row-level security does not filter: {owner}a superuser or a role \
         with BYPASSRLS, or one no policy restricts (connect as it: user= in DATABASE_URL or \
         PGUSER), then diagnose again"
    )
}

/// `stuck` from a read that cannot vouch: no deployment is called stuck
/// (those that look stuck to this role are listed as `cannot_tell`), and
/// no row carries a path or a `fail-safely` command.
pub fn stuck_scan(mut report: StuckReport) -> StuckReport {
    let scan = &report.snapshot;
    let Some(blind) = filtered(&scan.role, &scan.row_security, &scan.row_security_policies) else {
        return report;
    };
    let step = format!("cannot tell whether it is stuck: {}", blind.next_step);
    let mut moved = std::mem::take(&mut report.deployments_stuck);
    for d in &mut moved {
        d.path = BreakGlassPath::None;
        d.next_command = None;
        d.next_step = step.clone();
    }
    report.cannot_tell.append(&mut moved);
    for l in &mut report.leases_orphaned {
        l.path = BreakGlassPath::None;
        l.next_command = None;
        l.next_step = format!("no path can be vouched for: {}", blind.next_step);
    }
    report.cannot_vouch = Some(blind);
    report
}

#[cfg(test)]
mod tests {
    use chrono::Utc;
    use uuid::Uuid;

    use super::*;
    use crate::decide::tests::{assess_default, base};
    use crate::decide::{Policy, progress};
    use crate::model::NextCommand;
    use crate::model::stuck::{Responsible, StuckDeployment, StuckScanInfo};

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
        let codes = crate::decide::tests::codes(&v);
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
        let b = filtered(
            "ops",
            &[],
            &[
                hidden("jobs", &[], true),
                hidden("fleet_nodes", &["a", "b"], false),
            ],
        )
        .expect("filtered");
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
        let forced = filtered("ops", &[], &[hidden("jobs", &["p"], true)]).expect("filtered");
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
}
