//! A trigger that touches more than the runbook allows: the guard rolls
//! everything back.

use super::*;

#[test]
fn the_guard_rolls_back_when_a_trigger_touches_jobs() {
    // Qualified tables: trigger functions run with fail-safely's pinned
    // search path (pg_catalog, pg_temp).
    guard_case(
        "UPDATE public.jobs SET updated_at = now() WHERE deployment_id = NEW.id",
        "public.jobs",
        &["d0000001", "d0000003"],
    );
}

#[test]
fn the_guard_rolls_back_when_a_trigger_releases_allocations() {
    guard_case(
        "UPDATE public.fleet_allocations SET status = 'released', released_at = now()
         WHERE resource_id IN (SELECT id FROM public.application_instances WHERE deployment_id = NEW.id)",
        "public.fleet_allocations",
        &["d0000003", "d0000004"],
    );
}

fn guard_case(body: &str, table: &str, deployments: &[&str]) {
    let db = TestDb::scenarios();
    db.client()
        .batch_execute(&format!(
            "CREATE FUNCTION sneaky() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN {body}; RETURN NEW; END $$;
             CREATE TRIGGER sneaky AFTER UPDATE OF status ON deployments
             FOR EACH ROW EXECUTE FUNCTION sneaky();"
        ))
        .unwrap();
    let before = db.dump();
    for deployment in deployments {
        // Listed as vouched for, so that it fires and the counters catch
        // it (unlisted, fail-safely refuses before it can fire: guard.rs).
        let run = crate::support::Run::from(
            db.cmd()
                .env("PUSHLEFT_ALLOWED_TRIGGERS", "sneaky")
                .args([
                    "fail-safely",
                    deployment,
                    "--reason",
                    "INC-11 guard",
                    "--yes",
                ])
                .output()
                .expect("running pushleft-controller"),
        );
        run.assert_code(4);
        assert!(run.stderr.contains("guard"), "{}", run.stderr);
        assert!(run.stderr.contains(table), "names {table}: {}", run.stderr);
        assert_eq!(db.dump(), before, "rolled back");
    }
}
