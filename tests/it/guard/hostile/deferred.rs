//! Case 1: a deferred constraint trigger is refused, and, vouched for,
//! caught by the guard once it fires before COMMIT.

use super::*;

/// Case 1: a DEFERRABLE INITIALLY DEFERRED constraint trigger fires at
/// COMMIT, after the guard used to read its counters.
#[test]
fn case_1_a_deferred_constraint_trigger_is_refused_and_caught() {
    let db = TestDb::scenarios();
    let attacker = Attacker::new(&db);
    plant_trigger(
        &attacker,
        "CREATE CONSTRAINT TRIGGER evil AFTER UPDATE ON public.deployments
         DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION public.evil()",
        "UPDATE public.jobs SET target_node_id = NULL WHERE deployment_id = NEW.id;
         UPDATE public.fleet_allocations SET status = 'released', released_at = now()
         WHERE status <> 'released'",
    );
    fires_for_a_plain_update(
        &db,
        &scenario(3),
        "SELECT count(*) = 0 FROM public.fleet_allocations WHERE status <> 'released'",
    );
    let before = full_dump(&db, None);
    let run = fail_safely(&db, &[], &["--yes"]);
    assert_refused(
        &db,
        &run,
        4,
        &[
            "trigger `evil` on deployments",
            "a constraint trigger",
            "cannot vouch for it",
            "PUSHLEFT_ALLOWED_TRIGGERS",
            "nothing was written",
        ],
        &before,
    );
    // Listed as vouched for, it fires before the guard's final check
    // (SET CONSTRAINTS ALL IMMEDIATE), which sees what it did.
    let run = fail_safely(&db, &[("PUSHLEFT_ALLOWED_TRIGGERS", "evil")], &["--yes"]);
    assert_refused(
        &db,
        &run,
        4,
        &[
            "guard",
            "public.jobs",
            "public.fleet_allocations",
            "rolled back",
        ],
        &before,
    );
}
