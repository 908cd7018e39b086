//! A fingerprint of the state the decision depends on, so a script can
//! insist that nothing changed between `diagnose` and `fail-safely`.

use sha2::{Digest, Sha256};

use crate::model::DeploymentSnapshot;

/// The deployment's status, its last event, and every job, result and
/// instance field that counts for "dispatched". Heartbeats and ages are left
/// out: they change every second without changing the decision.
pub fn fingerprint(s: &DeploymentSnapshot) -> String {
    let mut h = Sha256::new();
    let mut put = |field: &str| {
        h.update(field.as_bytes());
        h.update([0u8]);
    };
    put("v1");
    put(&s.deployment.id.to_string());
    put(s.deployment.status.as_str());
    put(&s.events_total.to_string());
    put(&s.last_event().map(|e| e.sequence).unwrap_or(0).to_string());
    for job in &s.jobs {
        put(&job.id.to_string());
        put(job.kind.as_str());
        put(job.status.as_str());
        put(&job
            .target_node_id
            .map(|n| n.to_string())
            .unwrap_or_default());
        put(&job.has_lease_token.to_string());
        put(&job
            .lease_expires_at
            .map(|t| t.to_rfc3339())
            .unwrap_or_default());
        put(&job.attempt.to_string());
    }
    let mut results: Vec<String> = s.results.iter().map(|r| r.id.to_string()).collect();
    results.sort();
    for r in results {
        put(&r);
    }
    for i in &s.instances {
        put(&i.id.to_string());
        put(i.status.as_str());
        put(&i.active_node_id.map(|n| n.to_string()).unwrap_or_default());
        put(&i.generation.to_string());
    }
    let digest = h.finalize();
    hex::encode(&digest[..8])
}
