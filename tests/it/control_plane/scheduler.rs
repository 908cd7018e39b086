//! Scheduler admission and the gateway: nothing is scheduled or leased for
//! a failed or torn-down deployment, and the scheduler waits for a locked
//! deployment and then sees its new status.

use super::*;

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
