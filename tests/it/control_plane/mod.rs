//! The reference control plane (sql/control_plane.sql) against real
//! PostgreSQL and the scenarios: the fence, scheduler admission, the
//! gateway, the reaper, the teardown driver and the agents' liveness rule.

use postgres::Client;
use pushleft_controller::db::sql;
use uuid::Uuid;

use crate::clock::rebase_to_now;
use crate::support::{TestDb, scenario};

mod agents;
mod scheduler;
mod teardown;

const BUILD_01: &str = "a0000001-0000-4000-8000-000000000001";
const BUILD_03: &str = "a0000003-0000-4000-8000-000000000003";
const EDGE_01: &str = "a0000006-0000-4000-8000-000000000006";
const EDGE_06: &str = "a0000011-0000-4000-8000-000000000011";
const EDGE_07: &str = "a0000012-0000-4000-8000-000000000012";
/// d0000001's build job: queued, never targeted.
const D1_BUILD: &str = "b0000001-0000-4000-8000-000000000001";
/// d0000002's build job: leased on build-03 with token f0000002..., expired.
const D2_BUILD: &str = "b0000002-0000-4000-8000-000000000002";
const D2_TOKEN: &str = "f0000002-0000-4000-8000-000000000002";

fn id(text: &str) -> Uuid {
    Uuid::parse_str(text).expect("a uuid literal")
}

/// Scenarios, shifted to now, plus the control plane.
pub fn control_plane_db() -> (TestDb, Client) {
    let db = TestDb::scenarios();
    let mut client = db.client();
    rebase_to_now(&mut client);
    client
        .batch_execute(sql::scripts::CONTROL_PLANE.text)
        .expect("loading sql/control_plane.sql");
    (db, client)
}

fn scalar_i64(client: &mut Client, sql: &str) -> i64 {
    client.query_one(sql, &[]).expect(sql).get(0)
}

fn text(client: &mut Client, sql: &str) -> String {
    client.query_one(sql, &[]).expect(sql).get(0)
}

/// fail-safely's teardown_requested, as the runbook writes it.
fn request_teardown(client: &mut Client, deployment: &str) {
    client
        .batch_execute(&format!(
            "BEGIN;
             UPDATE deployments SET status = 'teardown_queued', updated_at = now()
              WHERE id = '{deployment}' AND status NOT IN ('teardown_queued', 'destroyed');
             INSERT INTO deployment_events (sequence, id, org_id, deployment_id, kind, payload)
             SELECT coalesce(max(sequence), 0) + 1, gen_random_uuid(),
                    (SELECT org_id FROM deployments WHERE id = '{deployment}'), '{deployment}',
                    'teardown_requested', '{{\"operator\": true, \"reason\": \"test\"}}'
               FROM deployment_events WHERE deployment_id = '{deployment}';
             COMMIT;"
        ))
        .unwrap();
}

fn set_status(client: &mut Client, deployment: &str, status: &str) {
    client
        .execute(
            "UPDATE deployments SET status = $2 WHERE id = $1",
            &[&id(deployment), &status],
        )
        .unwrap();
}

fn report(client: &mut Client, job: &str, node: &str, token: Uuid) -> bool {
    client
        .query_one(
            "SELECT control_plane.report_result($1, $2, $3, 'succeeded', '{}')",
            &[&id(job), &id(node), &token],
        )
        .unwrap()
        .get(0)
}

fn lease(client: &mut Client, job: &str, node: &str) -> Option<Uuid> {
    client
        .query_one(
            "SELECT control_plane.lease_job($1, $2, interval '30 seconds')",
            &[&id(job), &id(node)],
        )
        .unwrap()
        .get(0)
}

fn results_of(client: &mut Client, job: &str) -> i64 {
    scalar_i64(
        client,
        &format!("SELECT count(*) FROM agent_job_results WHERE job_id = '{job}'"),
    )
}
