use super::*;

const DEPLOYMENTS: i64 = 100;
const EVENTS: i64 = 200;
const EVENTS_P2: i64 = 202;
const JOBS: i64 = 300;
const PG_CLASS: i64 = 1259;

fn set() -> WriteSet {
    WriteSet {
        deployments_name: "public.deployments".into(),
        events_name: "public.deployment_events".into(),
        deployments: [DEPLOYMENTS].into(),
        events: [EVENTS, 201, EVENTS_P2].into(),
        toast: [900].into(),
        all: [
            DEPLOYMENTS,
            EVENTS,
            201,
            EVENTS_P2,
            900,
            101,
            901,
            APPLICATIONS,
        ]
        .into(),
        applications: [APPLICATIONS].into(),
        applications_expected: 0,
    }
}

const APPLICATIONS: i64 = 400;

#[test]
fn an_application_is_allowed_only_when_the_write_records_one() {
    let before = counters(&[]);
    let written = counters(&[
        (DEPLOYMENTS, "public.deployments", [0, 1, 0]),
        (EVENTS_P2, "public.deployment_events_p2", [1, 0, 0]),
        (APPLICATIONS, "pushleft_approvals.applications", [1, 0, 0]),
    ]);
    let err = check_guard(&before, &written, &set()).unwrap_err();
    assert!(
        err.contains("pushleft_approvals.applications (1 inserted"),
        "{err}"
    );
    let recording = WriteSet {
        applications_expected: 1,
        ..set()
    };
    assert_eq!(check_guard(&before, &written, &recording), Ok(()));
    // Recorded but missing, or twice: refused.
    let missing = counters(&[
        (DEPLOYMENTS, "public.deployments", [0, 1, 0]),
        (EVENTS_P2, "public.deployment_events_p2", [1, 0, 0]),
    ]);
    assert!(check_guard(&before, &missing, &recording).is_err());
    let twice = counters(&[
        (DEPLOYMENTS, "public.deployments", [0, 1, 0]),
        (EVENTS_P2, "public.deployment_events_p2", [1, 0, 0]),
        (APPLICATIONS, "pushleft_approvals.applications", [2, 0, 0]),
    ]);
    assert!(check_guard(&before, &twice, &recording).is_err());
}

fn counters(rows: &[(i64, &str, [i64; 3])]) -> Counters {
    rows.iter()
        .map(|(id, name, c)| (*id, (name.to_string(), *c)))
        .collect()
}

#[test]
fn the_guard_allows_exactly_one_update_and_one_insert() {
    let before = counters(&[
        (DEPLOYMENTS, "public.deployments", [0, 5, 0]),
        (JOBS, "public.jobs", [1, 1, 0]),
    ]);
    let mut after = before.clone();
    after.insert(DEPLOYMENTS, ("public.deployments".into(), [0, 6, 0]));
    // The event landed in a partition.
    after.insert(EVENTS_P2, ("public.deployment_events_p2".into(), [1, 0, 0]));
    after.insert(900, ("pg_toast.pg_toast_200".into(), [3, 0, 0]));
    assert_eq!(check_guard(&before, &after, &set()), Ok(()));

    let mut jobs_touched = after.clone();
    jobs_touched.insert(JOBS, ("public.jobs".into(), [1, 2, 0]));
    let err = check_guard(&before, &jobs_touched, &set()).unwrap_err();
    assert!(err.contains("public.jobs (0 inserted, 1 updated"), "{err}");

    let mut two_events = after.clone();
    two_events.insert(EVENTS, ("public.deployment_events".into(), [1, 0, 0]));
    let err = check_guard(&before, &two_events, &set()).unwrap_err();
    assert!(
        err.contains("public.deployment_events (2 inserted"),
        "{err}"
    );

    let mut ddl = after.clone();
    ddl.insert(PG_CLASS, ("pg_catalog.pg_class".into(), [0, 1, 0]));
    let err = check_guard(&before, &ddl, &set()).unwrap_err();
    assert!(
        err.contains("pg_catalog.pg_class") && err.contains("DDL"),
        "{err}"
    );

    let mut no_update = after;
    no_update.insert(DEPLOYMENTS, ("public.deployments".into(), [0, 5, 0]));
    let err = check_guard(&before, &no_update, &set()).unwrap_err();
    assert!(
        err.contains("public.deployments (0 inserted, 0 updated"),
        "{err}"
    );
}

fn lock(relid: i64, name: &str, kind: &str, mode: &str) -> HeldLock {
    HeldLock {
        relid,
        name: name.into(),
        kind: kind.into(),
        mode: mode.into(),
    }
}

#[test]
fn only_read_locks_outside_the_write_set() {
    let ours = [
        lock(DEPLOYMENTS, "public.deployments", "r", "RowExclusiveLock"),
        lock(101, "public.deployments_pkey", "i", "RowExclusiveLock"),
        lock(JOBS, "public.jobs", "r", "RowShareLock"),
        lock(PG_CLASS, "pg_catalog.pg_class", "r", "AccessShareLock"),
    ];
    assert_eq!(check_locks(&ours, &set()), Ok(()));
    for (extra, says) in [
        (lock(7, "public.s", "S", "RowExclusiveLock"), "nextval"),
        (
            lock(JOBS, "public.jobs", "r", "AccessExclusiveLock"),
            "TRUNCATE",
        ),
        (
            lock(JOBS, "public.jobs", "r", "RowExclusiveLock"),
            "a write",
        ),
        (
            lock(
                DEPLOYMENTS,
                "public.deployments",
                "r",
                "ShareRowExclusiveLock",
            ),
            "DDL",
        ),
    ] {
        let mut locks = ours.to_vec();
        locks.push(extra);
        let err = check_locks(&locks, &set()).unwrap_err();
        assert!(err.contains(says), "{err}");
    }
}

#[test]
fn the_guard_refuses_more_than_the_runbooks_writes_and_rolls_back() {
    use crate::exit::{ExitCode, code_for};
    let id = uuid::Uuid::from_u128(0xD1);
    let before = counters(&[]);
    let after = counters(&[
        (DEPLOYMENTS, "public.deployments", [0, 1, 0]),
        (EVENTS_P2, "public.deployment_events_p2", [1, 0, 0]),
    ]);
    let ours = [lock(
        DEPLOYMENTS,
        "public.deployments",
        "r",
        "RowExclusiveLock",
    )];
    assert!(runbook_writes_only(id, &before, &after, &ours, &set()).is_ok());
    let mut jobs_touched = after.clone();
    jobs_touched.insert(JOBS, ("public.jobs".into(), [0, 1, 0]));
    let err = runbook_writes_only(id, &before, &jobs_touched, &ours, &set()).unwrap_err();
    assert_eq!(code_for(&err), ExitCode::Refused);
    assert!(
        err.to_string()
            .contains("changed more than the runbook allows: public.jobs"),
        "{err}"
    );
    let truncated = [lock(JOBS, "public.jobs", "r", "AccessExclusiveLock")];
    let err = runbook_writes_only(id, &before, &after, &truncated, &set()).unwrap_err();
    assert!(err.to_string().contains("TRUNCATE"), "{err}");
}
