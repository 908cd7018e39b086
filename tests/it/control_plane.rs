//! The reference control plane (sql/control_plane.sql) against real
//! PostgreSQL and the scenarios: the fence, scheduler admission, the
//! gateway, the reaper, the teardown driver and the agents' liveness rule.

use postgres::Client;
use pushleft_controller::db::sql;
use uuid::Uuid;

use crate::clock::rebase_to_now;
use crate::support::{TestDb, scenario};

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

#[test]
fn control_plane_refuses_a_result_with_a_stale_lease_token() {
    let (_db, mut client) = control_plane_db();
    // A token that is not the job's, and the right token from another node.
    assert!(!report(&mut client, D2_BUILD, BUILD_03, Uuid::new_v4()));
    assert!(!report(&mut client, D2_BUILD, BUILD_01, id(D2_TOKEN)));
    assert_eq!(results_of(&mut client, D2_BUILD), 0);
    assert_eq!(
        text(
            &mut client,
            &format!("SELECT status FROM jobs WHERE id = '{D2_BUILD}'")
        ),
        "leased"
    );

    // d0000001's build job: scheduled, leased, fails once and is leased
    // again; the first lease's token is stale from then on.
    let scheduled: bool = client
        .query_one(
            "SELECT control_plane.schedule_job($1, $2)",
            &[&id(D1_BUILD), &id(BUILD_01)],
        )
        .unwrap()
        .get(0);
    assert!(scheduled);
    let first = lease(&mut client, D1_BUILD, BUILD_01).expect("the first lease");
    let failed: bool = client
        .query_one(
            "SELECT control_plane.report_result($1, $2, $3, 'failed', '{\"error\": \"oom\"}')",
            &[&id(D1_BUILD), &id(BUILD_01), &first],
        )
        .unwrap()
        .get(0);
    assert!(failed, "the current token's result is accepted");
    let second = lease(&mut client, D1_BUILD, BUILD_01).expect("a second lease");
    assert_ne!(first, second);
    assert!(
        !report(&mut client, D1_BUILD, BUILD_01, first),
        "the first lease's token is stale"
    );
    let row = client
        .query_one(
            "SELECT status, lease_token, attempt, payload ->> 'last_error' FROM jobs WHERE id = $1",
            &[&id(D1_BUILD)],
        )
        .unwrap();
    assert_eq!(row.get::<_, String>(0), "leased");
    assert_eq!(row.get::<_, Option<Uuid>>(1), Some(second));
    assert_eq!(row.get::<_, i32>(2), 2);
    assert_eq!(row.get::<_, Option<String>>(3).as_deref(), Some("oom"));
    assert_eq!(
        results_of(&mut client, D1_BUILD),
        1,
        "only the accepted result"
    );
    assert!(report(&mut client, D1_BUILD, BUILD_01, second));
    assert!(
        !report(&mut client, D1_BUILD, BUILD_01, second),
        "a finished job takes no second result"
    );
    assert_eq!(results_of(&mut client, D1_BUILD), 2);
    assert_eq!(
        text(
            &mut client,
            &format!("SELECT status FROM jobs WHERE id = '{D1_BUILD}'")
        ),
        "succeeded"
    );
}

#[test]
fn control_plane_never_schedules_or_leases_for_failed_or_teardown_deployments() {
    let (_db, mut client) = control_plane_db();
    client
        .batch_execute(
            "INSERT INTO deployments (id, org_id, status) VALUES
                ('d00000b1-0000-4000-8000-0000000000b1', gen_random_uuid(), 'teardown_queued'),
                ('d00000b2-0000-4000-8000-0000000000b2', gen_random_uuid(), 'queued');
             INSERT INTO jobs (id, deployment_id, kind, status) VALUES
                ('b00000b1-0000-4000-8000-0000000000b1', 'd00000b1-0000-4000-8000-0000000000b1', 'deploy', 'queued'),
                ('b00000b2-0000-4000-8000-0000000000b2', 'd00000b2-0000-4000-8000-0000000000b2', 'build', 'queued');",
        )
        .unwrap();
    set_status(&mut client, &scenario(1), "failed");
    for job in [D1_BUILD, "b00000b1-0000-4000-8000-0000000000b1"] {
        let targeted: bool = client
            .query_one(
                "SELECT control_plane.schedule_job($1, $2)",
                &[&id(job), &id(BUILD_01)],
            )
            .unwrap()
            .get(0);
        assert!(!targeted, "{job}");
    }
    for _ in 0..3 {
        client
            .query_one("SELECT control_plane.tick()", &[])
            .unwrap();
    }
    let untargeted = |client: &mut Client, job: &str| {
        client
            .query_one("SELECT target_node_id FROM jobs WHERE id = $1", &[&id(job)])
            .unwrap()
            .get::<_, Option<Uuid>>(0)
            .is_none()
    };
    assert!(untargeted(&mut client, D1_BUILD), "failed: never targeted");
    assert!(
        untargeted(&mut client, "b00000b1-0000-4000-8000-0000000000b1"),
        "teardown_queued: never targeted"
    );
    // The same tick did schedule and run the live deployment's job.
    let status = text(
        &mut client,
        "SELECT status FROM jobs WHERE id = 'b00000b2-0000-4000-8000-0000000000b2'",
    );
    assert_eq!(
        status, "succeeded",
        "the scheduler works for live deployments"
    );

    // The gateway: a job targeted before the deployment failed gets no lease.
    client
        .execute(
            "UPDATE jobs SET target_node_id = $2 WHERE id = $1",
            &[&id(D1_BUILD), &id(BUILD_01)],
        )
        .unwrap();
    assert_eq!(lease(&mut client, D1_BUILD, BUILD_01), None, "failed");
    set_status(&mut client, &scenario(1), "teardown_queued");
    assert_eq!(
        lease(&mut client, D1_BUILD, BUILD_01),
        None,
        "teardown_queued"
    );
    set_status(&mut client, &scenario(1), "queued");
    assert!(
        lease(&mut client, D1_BUILD, BUILD_01).is_some(),
        "live again"
    );
}

#[test]
fn control_plane_reaper_respects_network_attachments() {
    let (_db, mut client) = control_plane_db();
    let d4 = scenario(4);
    let reap = |client: &mut Client| -> i32 {
        client
            .query_one(
                "SELECT control_plane.reap_unstarted_application($1)",
                &[&id(&d4)],
            )
            .unwrap()
            .get(0)
    };
    let reserved = |client: &mut Client| {
        scalar_i64(
            client,
            "SELECT count(*) FROM fleet_allocations
              WHERE id IN ('c2000041-0000-4000-8000-000000000041', 'c2000042-0000-4000-8000-000000000042')
                AND status = 'reserved' AND released_at IS NULL",
        )
    };
    // Queued: not the reaper's business, attachment or not.
    assert_eq!(reap(&mut client), 0);
    set_status(&mut client, &d4, "failed");
    assert_eq!(
        reap(&mut client),
        0,
        "the network attachment blocks the reaper"
    );
    client
        .query_one("SELECT control_plane.tick(false)", &[])
        .unwrap();
    assert_eq!(reserved(&mut client), 2, "tick's reaper is blocked too");

    client
        .execute(
            "DELETE FROM network_attachments WHERE deployment_id = $1",
            &[&id(&d4)],
        )
        .unwrap();
    assert_eq!(reap(&mut client), 2);
    assert_eq!(reserved(&mut client), 0);
    assert_eq!(
        scalar_i64(
            &mut client,
            "SELECT count(*) FROM fleet_allocations
              WHERE resource_id IN (SELECT id FROM application_instances
                                    WHERE deployment_id = 'd0000004-0000-4000-8000-000000000004')
                AND status = 'released' AND released_at IS NOT NULL",
        ),
        2
    );
    assert_eq!(reap(&mut client), 0, "nothing left to release");
    // Active allocations are never the reaper's: d0000005 failed keeps them.
    set_status(&mut client, &scenario(5), "failed");
    let released: i32 = client
        .query_one(
            "SELECT control_plane.reap_unstarted_application($1)",
            &[&id(&scenario(5))],
        )
        .unwrap()
        .get(0);
    assert_eq!(released, 0);
}

#[test]
fn control_plane_teardown_step_by_step_ends_destroyed() {
    let (db, mut client) = control_plane_db();
    let d5 = scenario(5);
    request_teardown(&mut client, &d5);
    let drive = |client: &mut Client| -> String {
        client
            .query_one("SELECT control_plane.drive_teardown($1)", &[&id(&d5)])
            .unwrap()
            .get(0)
    };
    assert_eq!(drive(&mut client), "teardown_queued");
    assert_eq!(drive(&mut client), "teardown_queued");
    let jobs = client
        .query(
            "SELECT j.id, j.target_node_id, i.active_node_id, j.status
               FROM jobs j JOIN application_instances i ON i.id = (j.payload ->> 'instance_id')::uuid
              WHERE j.deployment_id = $1 AND j.kind = 'teardown'
              ORDER BY i.id",
            &[&id(&d5)],
        )
        .unwrap();
    assert_eq!(
        jobs.len(),
        2,
        "one teardown job per instance, even when driven twice"
    );
    for job in &jobs {
        assert_eq!(
            job.get::<_, Uuid>(1),
            job.get::<_, Uuid>(2),
            "targeted at the instance's node"
        );
        assert_eq!(job.get::<_, String>(3), "queued");
    }
    let first: Uuid = jobs[0].get(0);
    let second: Uuid = jobs[1].get(0);
    assert_eq!(jobs[0].get::<_, Uuid>(1), id(EDGE_01));
    assert_eq!(jobs[1].get::<_, Uuid>(1), id(EDGE_06));

    let slots = |db: &TestDb, node: &str| -> (i64, i64) {
        let doc = db
            .run(&["fleet", "list", "--output", "json"])
            .assert_code(0)
            .json();
        let n = doc["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["name"] == node)
            .unwrap()
            .clone();
        (
            n["slots_used"].as_i64().unwrap(),
            n["instances"].as_i64().unwrap(),
        )
    };
    assert_eq!(slots(&db, "edge-01"), (2, 1));

    let token = lease(&mut client, &first.to_string(), EDGE_01).expect("a lease on edge-01");
    assert!(report(&mut client, &first.to_string(), EDGE_01, token));
    assert_eq!(
        text(
            &mut client,
            "SELECT status FROM application_instances WHERE id = 'c1000051-0000-4000-8000-000000000051'"
        ),
        "removed"
    );
    assert_eq!(
        text(
            &mut client,
            "SELECT status || ' ' || (released_at IS NOT NULL) FROM fleet_allocations
              WHERE id = 'c2000051-0000-4000-8000-000000000051'"
        ),
        "released true"
    );
    assert_eq!(slots(&db, "edge-01"), (1, 0), "capacity drops on edge-01");
    assert_eq!(drive(&mut client), "teardown_queued", "one instance left");

    let token = lease(&mut client, &second.to_string(), EDGE_06).expect("a lease on edge-06");
    assert!(report(&mut client, &second.to_string(), EDGE_06, token));
    assert_eq!(slots(&db, "edge-06"), (0, 0));
    assert_eq!(drive(&mut client), "destroyed");
    assert_eq!(drive(&mut client), "destroyed", "idempotent");

    let events = client
        .query(
            "SELECT sequence, kind FROM deployment_events WHERE deployment_id = $1 ORDER BY sequence",
            &[&id(&d5)],
        )
        .unwrap();
    let trail: Vec<(i64, String)> = events.iter().map(|r| (r.get(0), r.get(1))).collect();
    assert_eq!(
        trail[7..],
        [
            (8, "teardown_requested".to_string()),
            (9, "teardown_jobs_queued".to_string()),
            (10, "destroyed".to_string())
        ]
    );
    assert_eq!(
        scalar_i64(
            &mut client,
            "SELECT count(*) FROM fleet_allocations a JOIN application_instances i ON i.id = a.resource_id
              WHERE i.deployment_id = 'd0000005-0000-4000-8000-000000000005' AND a.status <> 'released'"
        ),
        0
    );
}

#[test]
fn control_plane_agents_never_run_on_a_stale_node() {
    let (_db, mut client) = control_plane_db();
    // d0000003's instance is on edge-07 (offline, silent for 3h).
    request_teardown(&mut client, &scenario(3));
    for _ in 0..3 {
        client
            .query_one("SELECT control_plane.tick(false)", &[])
            .unwrap();
    }
    let row = client
        .query_one(
            "SELECT count(*), min(status), min(attempt), bool_and(target_node_id = $2)
               FROM jobs WHERE deployment_id = $1 AND kind = 'teardown'",
            &[&id(&scenario(3)), &id(EDGE_07)],
        )
        .unwrap();
    assert_eq!(row.get::<_, i64>(0), 1, "one teardown job, for edge-07");
    assert_eq!(row.get::<_, String>(1), "queued", "it waits for edge-07");
    assert_eq!(row.get::<_, i32>(2), 0, "never leased");
    assert_eq!(row.get::<_, Option<bool>>(3), Some(true));
    assert_eq!(
        text(
            &mut client,
            "SELECT status FROM deployments WHERE id = 'd0000003-0000-4000-8000-000000000003'"
        ),
        "teardown_queued"
    );
    // d0000008's deploy job waits on edge-05 (stale 6m), while the same
    // ticks finished d0000007's teardown on edge-02 (fresh).
    assert_eq!(
        text(
            &mut client,
            "SELECT status || '/' || attempt FROM jobs WHERE id = 'b0000082-0000-4000-8000-000000000082'"
        ),
        "queued/2"
    );
    assert_eq!(
        text(
            &mut client,
            "SELECT status FROM deployments WHERE id = 'd0000007-0000-4000-8000-000000000007'"
        ),
        "destroyed"
    );
    // A stale lease holder does not finish either: d0000002's build on build-03.
    assert_eq!(
        text(
            &mut client,
            &format!("SELECT status FROM jobs WHERE id = '{D2_BUILD}'")
        ),
        "leased"
    );

    // edge-07 comes back: its agent runs the teardown on the next round.
    client
        .execute("SELECT control_plane.heartbeat($1)", &[&id(EDGE_07)])
        .unwrap();
    client
        .query_one("SELECT control_plane.tick(false)", &[])
        .unwrap();
    assert_eq!(
        text(
            &mut client,
            "SELECT status FROM deployments WHERE id = 'd0000003-0000-4000-8000-000000000003'"
        ),
        "destroyed"
    );
}

/// The scheduler takes the deployment row FOR SHARE before it targets a
/// job: while fail-safely holds the row FOR UPDATE, the scheduler waits, and
/// then sees the decision (failed) and targets nothing.
#[test]
fn control_plane_scheduler_waits_for_a_locked_deployment_and_sees_its_new_status() {
    let (db, mut operator) = control_plane_db();
    let mut tx = operator.transaction().unwrap();
    tx.execute(
        "SELECT 1 FROM deployments WHERE id = $1 FOR UPDATE",
        &[&id(&scenario(1))],
    )
    .unwrap();
    tx.execute(
        "UPDATE deployments SET status = 'failed' WHERE id = $1",
        &[&id(&scenario(1))],
    )
    .unwrap();
    let mut scheduler = db.client();
    let started = std::time::Instant::now();
    let waiter = std::thread::spawn(move || {
        let targeted: bool = scheduler
            .query_one(
                "SELECT control_plane.schedule_job($1, $2)",
                &[&id(D1_BUILD), &id(BUILD_01)],
            )
            .unwrap()
            .get(0);
        (targeted, started.elapsed())
    });
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert!(
        !waiter.is_finished(),
        "the scheduler must wait for the row lock"
    );
    tx.commit().unwrap();
    let (targeted, waited) = waiter.join().unwrap();
    assert!(!targeted, "after the wait it sees `failed`");
    assert!(waited >= std::time::Duration::from_millis(500));
    let target: Option<Uuid> = operator
        .query_one(
            "SELECT target_node_id FROM jobs WHERE id = $1",
            &[&id(D1_BUILD)],
        )
        .unwrap()
        .get(0);
    assert_eq!(target, None);
}
