//! The guard through PgBouncer: a trigger of the database, vouched for in
//! PUSHLEFT_ALLOWED_TRIGGERS, that writes `jobs` behind fail-safely's back
//! is caught (exit 4 naming `jobs`) and everything is rolled back; one not
//! vouched for is refused before it can fire.

use pushleft_controller::testing::pgbouncer::PoolMode;

use super::{MODES, REASON, Via, pinned_dump, pooler};
use crate::support::TestDb;

/// `AFTER UPDATE` on deployments bumping the attempts of the deployment's
/// jobs (it names its tables with their schema: it runs with the tool's
/// pinned search path).
pub fn plant_jobs_trigger(db: &TestDb) {
    db.client()
        .batch_execute(
            "CREATE FUNCTION public.sneaky() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN
                 UPDATE public.jobs SET attempt = attempt + 1 WHERE deployment_id = NEW.id;
                 RETURN NEW;
             END $$;
             CREATE TRIGGER sneaky AFTER UPDATE ON public.deployments
             FOR EACH ROW EXECUTE FUNCTION public.sneaky();",
        )
        .expect("planting the trigger that writes jobs");
}

/// The trigger is caught through `via`: vouched for, the guard sees the
/// jobs it changed; not vouched for, it is refused. Nothing is written.
pub fn assert_guard_holds(db: &TestDb, via: Via, user: &str) {
    let before = pinned_dump(db);
    for deployment in ["d0000003", "d0000002"] {
        let args = ["fail-safely", deployment, "--reason", REASON, "--yes"];
        let run = via.run(db, user, &[("PUSHLEFT_ALLOWED_TRIGGERS", "sneaky")], &args);
        run.assert_code(4);
        assert!(
            run.stderr.contains("guard") && run.stderr.contains("jobs"),
            "{deployment} {}: the guard names jobs:\n{}",
            via.name(),
            run.stderr
        );
        assert_eq!(
            pinned_dump(db),
            before,
            "{deployment} {}: not rolled back",
            via.name()
        );

        let mut json_args = args.to_vec();
        json_args.extend(["-o", "json"]);
        let run = via.run(
            db,
            user,
            &[("PUSHLEFT_ALLOWED_TRIGGERS", "sneaky")],
            &json_args,
        );
        run.assert_code(4);
        let json = run.json();
        assert_eq!(json["error"]["kind"], "refused", "{json:#}");
        let message = json["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains("jobs"), "{message}");

        let run = via.run(db, user, &[], &args);
        run.assert_code(4);
        assert!(
            run.stderr.contains("sneaky") && run.stderr.contains("PUSHLEFT_ALLOWED_TRIGGERS"),
            "{deployment} {}: an unlisted trigger is refused by name:\n{}",
            via.name(),
            run.stderr
        );
        assert_eq!(pinned_dump(db), before, "{deployment} {}", via.name());
    }
}

fn guard_through(mode: PoolMode) {
    let db = TestDb::scenarios();
    let Some(pooler) = pooler(mode, &[], &[]) else {
        return;
    };
    plant_jobs_trigger(&db);
    assert_guard_holds(&db, Via::Pooler(&pooler), "postgres");
}

#[test]
fn a_trigger_writing_jobs_is_caught_through_session_pooling() {
    guard_through(MODES[0]);
}

#[test]
fn a_trigger_writing_jobs_is_caught_through_transaction_pooling() {
    guard_through(MODES[1]);
}

/// The same with one server connection for every client: what one run
/// rolled back is not what the next one sees.
#[test]
fn a_trigger_writing_jobs_is_caught_with_one_server_connection() {
    let db = TestDb::scenarios();
    let Some(pooler) = pooler(PoolMode::Transaction, &[("default_pool_size", "1")], &[]) else {
        return;
    };
    plant_jobs_trigger(&db);
    assert_guard_holds(&db, Via::Pooler(&pooler), "postgres");
    assert_guard_holds(&db, Via::Direct, "postgres");
}
