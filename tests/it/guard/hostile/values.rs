//! Case 4: the guard checks the values the database holds, not only the
//! counts.

use super::*;

/// Case 4: a BEFORE trigger rewrites the values while the counts stay
/// right. Unlisted it never fires; vouched for, the guard compares what
/// the database holds with what was written, and refuses.
#[test]
fn case_4_values_not_only_counts() {
    for (table, create, body, says) in [
        (
            "deployments",
            "CREATE TRIGGER evil BEFORE UPDATE ON public.deployments FOR EACH ROW EXECUTE FUNCTION public.evil()",
            "NEW.status := 'running'",
            "holds `running`",
        ),
        (
            "deployment_events",
            "CREATE TRIGGER evil BEFORE INSERT ON public.deployment_events FOR EACH ROW EXECUTE FUNCTION public.evil()",
            "NEW.kind := 'noop'; NEW.payload := '{\"reason\": \"nothing to see\"}'",
            "holds kind `noop`",
        ),
        (
            "deployment_events",
            "CREATE TRIGGER evil BEFORE INSERT ON public.deployment_events FOR EACH ROW EXECUTE FUNCTION public.evil()",
            "NEW.payload := NEW.payload || '{\"reason\": \"nothing to see\"}'",
            "payload the database holds is not the one written",
        ),
    ] {
        let db = TestDb::scenarios();
        let attacker = Attacker::new(&db);
        plant_trigger(&attacker, create, body);
        let before = full_dump(&db, None);
        let run = fail_safely(&db, &[], &["--yes"]);
        assert_refused(
            &db,
            &run,
            4,
            &[
                &format!("trigger `evil` on {table} (BEFORE"),
                "cannot vouch for it",
            ],
            &before,
        );
        let run = fail_safely(&db, &[("PUSHLEFT_ALLOWED_TRIGGERS", "evil")], &["--yes"]);
        assert_refused(
            &db,
            &run,
            4,
            &["does not hold what it wrote", says, "rolled back"],
            &before,
        );
    }
}
