//! Never name a path from a read that may not have seen every row
//! (pushleft-controller(1), READS ROW-LEVEL SECURITY FILTERS). Where row-level security
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
         PGUSER), then run the command again"
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
