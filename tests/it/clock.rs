//! The scenarios are written relative to now() at the moment the template
//! database was loaded; a test that runs minutes later sees every age grown
//! by that much (build-01's "4 seconds" heartbeat turns stale, d0000007's
//! lease expires). `rebase_to_now` shifts every timestamp forward by the
//! elapsed time so that the scenario's literal ages hold again.

use postgres::Client;

/// d0000001 was created 47 minutes before the scenarios were loaded.
const ANCHOR: &str = "SELECT now() - (created_at + interval '47 minutes') FROM deployments
     WHERE id = 'd0000001-0000-4000-8000-000000000001'";

pub fn rebase_to_now(client: &mut Client) {
    let mut tx = client.transaction().expect("a transaction");
    tx.batch_execute(&format!(
        "CREATE TEMP TABLE drift ON COMMIT DROP AS {ANCHOR};
         ALTER TABLE deployment_events DISABLE TRIGGER USER;
         ALTER TABLE agent_job_results DISABLE TRIGGER USER;
         UPDATE fleet_nodes SET last_seen_at = last_seen_at + (TABLE drift);
         UPDATE deployments SET created_at = created_at + (TABLE drift),
                                updated_at = updated_at + (TABLE drift);
         UPDATE deployment_events SET occurred_at = occurred_at + (TABLE drift);
         UPDATE jobs SET available_at = available_at + (TABLE drift),
                         lease_expires_at = lease_expires_at + (TABLE drift),
                         created_at = created_at + (TABLE drift),
                         updated_at = updated_at + (TABLE drift);
         UPDATE agent_job_results SET reported_at = reported_at + (TABLE drift);
         UPDATE source_snapshots SET verified_at = verified_at + (TABLE drift);
         UPDATE fleet_allocations SET created_at = created_at + (TABLE drift),
                                      released_at = released_at + (TABLE drift);
         UPDATE network_attachments SET created_at = created_at + (TABLE drift);
         ALTER TABLE deployment_events ENABLE TRIGGER USER;
         ALTER TABLE agent_job_results ENABLE TRIGGER USER;"
    ))
    .expect("shifting the scenario timestamps to now");
    tx.commit().expect("committing the shift");
}
