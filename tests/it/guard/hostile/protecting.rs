//! Case 7: a protecting trigger must really refuse, not merely exist.

use super::*;

/// Case 7: the protecting triggers must really protect: a no-op with the
/// right name, an AFTER trigger, a replica-only one are not protection;
/// and a session with session_replication_role = replica fires no trigger
/// at all. fail-safely refuses and doctor fails, naming it.
#[test]
fn case_7_protecting_triggers_must_really_refuse() {
    for (sabotage, says) in [
        (
            "DROP TRIGGER jobs_refuse_delete ON jobs;
             CREATE FUNCTION public.noop() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN RETURN OLD; END $f$;
             CREATE TRIGGER jobs_refuse_delete BEFORE DELETE ON jobs FOR EACH ROW EXECUTE FUNCTION public.noop()",
            "does not refuse",
        ),
        (
            "DROP TRIGGER agent_job_results_refuse_update ON agent_job_results;
             CREATE TRIGGER agent_job_results_refuse_update AFTER UPDATE ON agent_job_results
             FOR EACH ROW EXECUTE FUNCTION refuse_audit_change('x')",
            "not BEFORE UPDATE",
        ),
        (
            "ALTER TABLE deployment_events ENABLE REPLICA TRIGGER deployment_events_refuse_delete",
            "only when session_replication_role = replica",
        ),
    ] {
        let db = TestDb::scenarios();
        db.client().batch_execute(sabotage).unwrap();
        let before = full_dump(&db, None);
        let run = fail_safely(&db, &[], &["--yes"]);
        assert_refused(&db, &run, 4, &[says, "audit trail is not protected"], &before);
        let doctor = db.run(&["doctor", "-o", "json"]);
        doctor.assert_code(4);
        let (status, detail) = doctor.doctor_check("triggers");
        assert_eq!(status, "fail");
        assert!(detail.contains(says), "{detail}");
    }

    // session_replication_role = replica, through the connection's options
    // (possible for a superuser, or a role granted SET on it).
    let db = TestDb::scenarios();
    let replica = format!(
        "{} options='-c session_replication_role=replica'",
        db.conninfo
    );
    let before = full_dump(&db, None);
    for args in [
        &[
            "fail-safely",
            "d0000001",
            "--reason",
            "INC-12 replica",
            "--yes",
        ][..],
        &["diagnose", "d0000001"][..],
    ] {
        let run = crate::support::Run::from(
            crate::support::bin()
                .env("DATABASE_URL", &replica)
                .args(args)
                .output()
                .unwrap(),
        );
        assert_refused(
            &db,
            &run,
            4,
            &["session_replication_role = replica", "no trigger fires"],
            &before,
        );
    }
    let doctor = crate::support::Run::from(
        crate::support::bin()
            .env("DATABASE_URL", &replica)
            .args(["doctor", "-o", "json"])
            .output()
            .unwrap(),
    );
    doctor.assert_code(4);
    let (status, detail) = doctor.doctor_check("session");
    assert_eq!(status, "fail", "{detail}");
    assert!(
        detail.contains("session_replication_role=replica"),
        "{detail}"
    );
}
