//! The agents: the fence refuses a result with a stale lease token, and no
//! agent runs on a node whose heartbeat is stale.

use super::*;

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
