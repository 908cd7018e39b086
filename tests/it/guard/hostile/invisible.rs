//! Case 2: what tuple counters cannot see (a TRUNCATE, DDL, a sequence,
//! another database) never runs, and a vouched-for trigger doing it is
//! caught by the guard.

use super::*;

/// What case 2 plants, and what shows that it ran.
struct Invisible {
    what: &'static str,
    body: String,
    /// A query that is true once the code ran (inside the transaction
    /// that fired it).
    fired: String,
}

fn invisible_writes(db: &TestDb) -> Vec<Invisible> {
    let evil_role = format!("evil_{}", db.name);
    let conninfo = db.conninfo.replace('\'', "''");
    vec![
        Invisible {
            what: "TRUNCATE",
            body: "TRUNCATE public.fleet_allocations".into(),
            fired: "SELECT count(*) = 0 FROM public.fleet_allocations".into(),
        },
        Invisible {
            what: "DDL",
            body: "ALTER TABLE public.jobs DISABLE TRIGGER jobs_refuse_delete".into(),
            fired: "SELECT tgenabled = 'D' FROM pg_trigger WHERE tgname = 'jobs_refuse_delete'"
                .into(),
        },
        Invisible {
            what: "CREATE ROLE",
            body: format!("CREATE ROLE {evil_role} SUPERUSER LOGIN"),
            fired: format!("SELECT count(*) = 1 FROM pg_roles WHERE rolname = '{evil_role}'"),
        },
        Invisible {
            what: "dblink",
            body: format!(
                "PERFORM public.dblink_exec('{conninfo}', 'INSERT INTO public.pwned VALUES (''dblink'')')"
            ),
            fired: "SELECT count(*) > 0 FROM public.pwned".into(),
        },
        Invisible {
            what: "sequence",
            body: "PERFORM nextval('public.evil_seq')".into(),
            fired: "SELECT is_called FROM public.evil_seq".into(),
        },
        Invisible {
            what: "NOTIFY",
            body: "PERFORM pg_notify('evil', 'fired')".into(),
            fired: "SELECT true".into(),
        },
    ]
}

/// Case 2: TRUNCATE, DDL, a new role, another database through dblink, a
/// sequence, a NOTIFY: no tuple counter sees them. A trigger that could do
/// them is refused before it can fire, dry run or not.
#[test]
fn case_2_what_tuple_counters_cannot_see_never_runs() {
    for what in [
        "TRUNCATE",
        "DDL",
        "CREATE ROLE",
        "dblink",
        "sequence",
        "NOTIFY",
    ] {
        let db = TestDb::scenarios();
        let case = invisible_writes(&db)
            .into_iter()
            .find(|c| c.what == what)
            .unwrap();
        let attacker = Attacker::new(&db).with_trace_table();
        attacker.plant("CREATE SEQUENCE public.evil_seq");
        if case.what == "dblink"
            && let Err(err) = db
                .client()
                .batch_execute("CREATE EXTENSION IF NOT EXISTS dblink")
        {
            eprintln!("skipping the dblink case: no dblink extension here ({err})");
            continue;
        }
        plant_trigger(&attacker, AFTER_UPDATE, &case.body);
        fires_for_a_plain_update(&db, &scenario(3), &case.fired);
        // dblink committed its row on its own connection: the attack is
        // real. Clear it, then start from there.
        db.client()
            .batch_execute("DELETE FROM public.pwned")
            .unwrap();
        let before = full_dump(&db, None);
        let mut listener = db.client();
        listener.batch_execute("LISTEN evil").unwrap();
        for extra in [&["--dry-run"][..], &["--yes"][..]] {
            let run = fail_safely(&db, &[], extra);
            assert_refused(
                &db,
                &run,
                4,
                &[
                    "trigger `evil` on deployments (AFTER UPDATE",
                    "cannot vouch for it",
                ],
                &before,
            );
        }
        listener.batch_execute("SELECT 1").unwrap();
        assert_eq!(
            listener.notifications().len(),
            0,
            "{}: a notification was sent",
            case.what
        );
        let roles: i64 = db
            .client()
            .query_one(
                "SELECT count(*) FROM pg_roles WHERE rolname = $1",
                &[&format!("evil_{}", db.name)],
            )
            .unwrap()
            .get(0);
        assert_eq!(roles, 0, "{}: the role was created", case.what);
    }
}

/// Case 2, second line of defence: a trigger a team vouched for
/// (PUSHLEFT_ALLOWED_TRIGGERS) fires, and the guard still sees a TRUNCATE,
/// DDL, a new role (the catalogs' own counters) and a sequence (the locks
/// the transaction holds), and rolls everything back.
#[test]
fn case_2_a_vouched_for_trigger_doing_the_invisible_is_caught_by_the_guard() {
    for (what, says) in [
        ("TRUNCATE", &["guard", "DDL, a TRUNCATE"][..]),
        ("DDL", &["guard", "pg_catalog.pg_trigger"][..]),
        ("CREATE ROLE", &["guard", "pg_catalog.pg_authid"][..]),
        ("sequence", &["guard", "public.evil_seq", "nextval"][..]),
    ] {
        let db = TestDb::scenarios();
        let case = invisible_writes(&db)
            .into_iter()
            .find(|c| c.what == what)
            .unwrap();
        let attacker = Attacker::new(&db).with_trace_table();
        attacker.plant("CREATE SEQUENCE public.evil_seq");
        plant_trigger(&attacker, AFTER_UPDATE, &case.body);
        let before = full_dump(&db, None);
        let run = fail_safely(&db, &[("PUSHLEFT_ALLOWED_TRIGGERS", "evil")], &["--yes"]);
        if what == "sequence" {
            // nextval is not transactional: once vouched-for code has run
            // it, no rollback takes it back. Everything else is unchanged.
            run.assert_code(4);
            for words in says {
                assert!(run.stderr.contains(words), "{what}: {}", run.stderr);
            }
            let seq = |dump: &str| -> String {
                dump.lines()
                    .filter(|l| !l.starts_with("public.evil_seq"))
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            let after = full_dump(&db, None);
            assert!(
                seq(&after) == seq(&before),
                "{}",
                dump_diff(&before, &after)
            );
        } else {
            assert_refused(&db, &run, 4, says, &before);
        }
    }
}
