//! "Dispatched", made exact: which jobs and instances count, and why.

use crate::duration::ago;
pub use crate::model::assessment::Evidence;
use crate::model::{DeploymentSnapshot, short_id};

use super::seconds_between;

/// Which jobs and instances count as dispatched, and why (README, "The
/// break-glass decision": a job with a target node, a lease or any agent
/// result; an instance with an active node).
pub fn dispatch_evidence(s: &DeploymentSnapshot) -> Vec<Evidence> {
    let now = s.snapshot.at;
    let mut evidence = Vec::new();
    for job in &s.jobs {
        let mut reasons = Vec::new();
        if let Some(node) = job.target_node_id {
            reasons.push(format!("targeted at {}", s.node_name(node)));
        }
        if job.has_lease_token || job.lease_expires_at.is_some() {
            reasons.push(match job.lease_expires_at {
                Some(at) if at <= now => {
                    format!("leased (expired {})", ago(seconds_between(now, at)))
                }
                Some(at) => format!("leased (expires {})", ago(seconds_between(now, at))),
                None => "leased".to_string(),
            });
        }
        let results = s.results.iter().filter(|r| r.job_id == job.id).count();
        if results > 0 {
            reasons.push(format!(
                "{results} agent result{}",
                if results == 1 { "" } else { "s" }
            ));
        }
        if !reasons.is_empty() {
            evidence.push(Evidence {
                kind: "job",
                id: job.id,
                detail: format!(
                    "{} job {}: {}",
                    job.kind,
                    short_id(job.id),
                    reasons.join("; ")
                ),
            });
        }
    }
    for instance in &s.instances {
        if let Some(node) = instance.active_node_id {
            evidence.push(Evidence {
                kind: "instance",
                id: instance.id,
                detail: format!(
                    "instance {} ({}, {}) active on {}",
                    short_id(instance.id),
                    instance.role_name,
                    instance.status,
                    s.node_name(node)
                ),
            });
        }
    }
    evidence
}
