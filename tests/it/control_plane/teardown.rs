//! The reaper and the teardown driver: network attachments keep the reaper
//! off their reservations, and a teardown goes step by step to destroyed.

use super::*;

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
