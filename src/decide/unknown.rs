//! Fail closed on the unknown: the values of a snapshot the model cannot
//! take as they are — a status or kind this tool does not know, or a NULL
//! where the reference schema says NOT NULL (the read notes those in
//! `DeploymentSnapshot::nulls`). Each is a finding; any of them in a row
//! the decision rests on makes the verdict undecidable (path `none`), and
//! `fail-safely` refuses.

use crate::model::warning::Status;
use crate::model::{DeploymentSnapshot, Warning};

use super::assessment::{Findings, Severity};

/// One odd value and what it keeps the decision from knowing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Odd {
    pub warning: Warning,
    /// Counts for the decision (every row read but the older events).
    pub blocks: bool,
}

impl Odd {
    /// One sentence: where the value is, what it is, and what cannot be
    /// told because of it.
    pub fn sentence(&self) -> String {
        let w = &self.warning;
        let what = match &w.value {
            None => format!(
                "{}.{} is NULL in row {}, where the reference schema says NOT NULL",
                w.table, w.column, w.row
            ),
            Some(value) => format!(
                "{} row {} has {} `{}`, which pushleft-controller does not know",
                w.table,
                w.row,
                w.column,
                value.escape_debug()
            ),
        };
        format!("{what}; {}", consequence(&w.table))
    }
}

/// What a table's odd value keeps the decision from knowing.
fn consequence(table: &str) -> &'static str {
    match table {
        "deployments" => "it cannot tell whether the deployment is in flight",
        "jobs" => "it cannot tell whether it was dispatched",
        "agent_job_results" => "it cannot tell what the agent reported",
        "application_instances" => "it cannot tell whether the instance runs on a node",
        "fleet_allocations" => "it cannot tell whether the capacity is held",
        "fleet_nodes" => "it cannot tell whether the node is alive",
        "deployment_events" => "it cannot tell when the deployment last made progress",
        "network_attachments" => "it cannot tell whether the reaper can release its reservations",
        _ => "it cannot tell what the row means",
    }
}

fn status_of(found: &mut Vec<Odd>, table: &str, row: String, column: &str, status: &impl Status) {
    // NULLs are in the read's own list already.
    if status.is_null() {
        return;
    }
    if let Some(warning) = Warning::of_status(table, column, &row, status) {
        found.push(Odd {
            warning,
            blocks: true,
        });
    }
}

/// Every odd value of the snapshot, in the order of its sections.
pub fn odd_values(s: &DeploymentSnapshot) -> Vec<Odd> {
    let mut found = Vec::new();
    let d = &s.deployment;
    status_of(
        &mut found,
        "deployments",
        d.id.to_string(),
        "status",
        &d.status,
    );
    for job in &s.jobs {
        status_of(&mut found, "jobs", job.id.to_string(), "kind", &job.kind);
        status_of(
            &mut found,
            "jobs",
            job.id.to_string(),
            "status",
            &job.status,
        );
    }
    for r in &s.results {
        status_of(
            &mut found,
            "agent_job_results",
            r.id.to_string(),
            "outcome",
            &r.outcome,
        );
    }
    for i in &s.instances {
        let id = i.id.to_string();
        status_of(&mut found, "application_instances", id, "status", &i.status);
    }
    for a in &s.allocations {
        status_of(
            &mut found,
            "fleet_allocations",
            a.id.to_string(),
            "status",
            &a.status,
        );
    }
    for r in &s.routes {
        let id = format!("{}/{}", r.hostname, r.route_generation);
        status_of(
            &mut found,
            "ingress_analytics_routes",
            id,
            "status",
            &r.status,
        );
    }
    for n in &s.nodes {
        status_of(
            &mut found,
            "fleet_nodes",
            n.id.to_string(),
            "status",
            &n.status,
        );
    }
    // Of the events, only the last counts for the decision.
    let last = s.last_event().map(|e| e.id.to_string());
    found.extend(s.nulls.iter().map(|w| Odd {
        warning: w.clone(),
        blocks: w.table != "deployment_events" || Some(&w.row) == last.as_ref(),
    }));
    found
}

/// The findings: one per odd value (the deployment's own unknown status
/// already has its `unknown_status`).
pub fn findings(odd: &[Odd], found: &mut Findings) {
    for o in odd {
        let w = &o.warning;
        if w.table == "deployments" && w.column == "status" && w.value.is_some() {
            continue;
        }
        let (code, severity) = match (&w.value, o.blocks) {
            (None, true) => ("null_value", Severity::Problem),
            (None, false) => ("null_value", Severity::Warning),
            (Some(_), _) => ("unknown_value", Severity::Problem),
        };
        let tail = if o.blocks {
            ", so it decides nothing"
        } else {
            " (an older event: the decision does not rest on it)"
        };
        found.add(code, severity, format!("{}{tail}", o.sentence()));
    }
}

/// Why the decision cannot be made, if it cannot: every blocking value.
pub fn undecidable(odd: &[Odd]) -> Option<String> {
    let blocking: Vec<String> = odd.iter().filter(|o| o.blocks).map(Odd::sentence).collect();
    if blocking.is_empty() {
        None
    } else {
        Some(format!("{}, so it decides nothing", blocking.join("; ")))
    }
}
