//! Cases 1-4 and 7 of issue 12: code planted in the database that would
//! run inside fail-safely's transaction, as its user.

use super::{Attacker, assert_refused, dump_diff, full_dump, last_event, run_with};
use crate::support::{TestDb, scenario};

/// `AFTER UPDATE` on deployments (or `AFTER INSERT` on deployment_events),
/// planted by the attacker, running `body` (PL/pgSQL statements).
fn plant_trigger(attacker: &Attacker, create: &str, body: &str) {
    attacker.plant(&format!(
        "CREATE FUNCTION public.evil() RETURNS trigger LANGUAGE plpgsql AS $f$
         BEGIN {body}; RETURN NEW; END $f$;
         {create}"
    ));
}

const AFTER_UPDATE: &str = "CREATE TRIGGER evil AFTER UPDATE ON public.deployments FOR EACH ROW EXECUTE FUNCTION public.evil()";

/// The attack is real: a plain UPDATE of the deployment, as any other
/// session would make it, fires the planted code (then rolled back).
/// `check` is a query returning true once the code has run.
fn fires_for_a_plain_update(db: &TestDb, deployment: &str, check: &str) {
    let mut client = db.client();
    let mut tx = client.transaction().unwrap();
    tx.execute(
        "UPDATE public.deployments SET updated_at = updated_at WHERE id = $1::text::uuid",
        &[&deployment],
    )
    .expect("the planted trigger runs");
    tx.batch_execute("SET CONSTRAINTS ALL IMMEDIATE").unwrap();
    let fired: bool = tx.query_one(check, &[]).unwrap().get(0);
    assert!(
        fired,
        "the planted code did not run: the test would prove nothing"
    );
    tx.rollback().unwrap();
}

const TEARDOWN: [&str; 4] = [
    "fail-safely",
    "d0000003",
    "--reason",
    "INC-12 hostile database",
];

fn fail_safely(db: &TestDb, env: &[(&str, &str)], extra: &[&str]) -> crate::support::Run {
    let mut args = TEARDOWN.to_vec();
    args.extend_from_slice(extra);
    run_with(db, env, &args)
}

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

/// Case 3: with `public` first on the search path, an attacker's `||` on
/// names, a `jsonb_build_object` overload and `-` / `?` on (jsonb, jsonb)
/// would run as the tool's user or break its queries. The search path is
/// pinned (even against a URL that asks for public first) and every table
/// is named with its schema: none of it is ever called.
#[test]
fn case_3_a_search_path_hijack_finds_nothing_to_hijack() {
    let db = TestDb::scenarios();
    let attacker = Attacker::new(&db).with_trace_table();
    attacker.plant(
        "CREATE FUNCTION public.evil_concat(name, name) RETURNS text LANGUAGE plpgsql AS $f$
           BEGIN INSERT INTO public.pwned VALUES ('||'); RETURN $1::text || $2::text; END $f$;
         CREATE OPERATOR public.|| (LEFTARG = name, RIGHTARG = name, FUNCTION = public.evil_concat);
         CREATE FUNCTION public.jsonb_build_object(text, text, text, boolean, text, text, text, jsonb)
           RETURNS jsonb LANGUAGE plpgsql AS $f$
           BEGIN INSERT INTO public.pwned VALUES ('jsonb_build_object');
                 RETURN '{\"reason\": \"replaced\"}'::jsonb; END $f$;
         CREATE FUNCTION public.jsonb_strip_nulls(jsonb) RETURNS jsonb LANGUAGE plpgsql AS $f$
           BEGIN INSERT INTO public.pwned VALUES ('jsonb_strip_nulls'); RETURN $1; END $f$;
         CREATE FUNCTION public.evil_minus(jsonb, jsonb) RETURNS jsonb LANGUAGE sql AS 'SELECT $1';
         CREATE OPERATOR public.- (LEFTARG = jsonb, RIGHTARG = jsonb, FUNCTION = public.evil_minus);
         CREATE FUNCTION public.evil_exists(jsonb, jsonb) RETURNS boolean LANGUAGE sql AS 'SELECT true';
         CREATE OPERATOR public.? (LEFTARG = jsonb, RIGHTARG = jsonb, FUNCTION = public.evil_exists)",
    );
    // The attack is real for a session that searches public first.
    let mut victim = db.client();
    victim
        .batch_execute("SET search_path = public, pg_catalog")
        .unwrap();
    let mut tx = victim.transaction().unwrap();
    tx.query_one("SELECT 'a'::name || 'b'::name", &[]).unwrap();
    let ran: i64 = tx
        .query_one("SELECT count(*) FROM public.pwned", &[])
        .unwrap()
        .get(0);
    assert_eq!(ran, 1, "the hijacked operator ran");
    tx.rollback().unwrap();
    assert!(
        victim
            .query("SELECT payload - 'log' FROM deployment_events", &[])
            .is_err(),
        "the planted `-` breaks the runbook's `- 'log'`"
    );

    // Connections that ask for public first, as a careless URL would.
    let hijacking = format!("{} options='-c search_path=public,pg_catalog'", db.conninfo);
    let run_hijacked = |args: &[&str]| {
        crate::support::Run::from(
            crate::support::bin()
                .env("DATABASE_URL", &hijacking)
                .args(args)
                .output()
                .unwrap(),
        )
    };
    let diagnosis = run_hijacked(&["diagnose", "d0000008", "-o", "json"]);
    diagnosis.assert_code(0);
    assert!(
        !diagnosis.stdout.contains("FAKE-SECRET"),
        "log keys stay in"
    );
    let stuck = run_hijacked(&["stuck", "-o", "json"]);
    stuck.assert_code(0);

    let id = scenario(1);
    // Every row but the deployment's own (the event does not exist yet).
    let before = full_dump(&db, Some((&id, "00000000-0000-0000-0000-000000000000")));
    let run = run_hijacked(&[
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-12 hijack",
        "--yes",
        "-o",
        "json",
    ]);
    run.assert_code(0);
    let (event, kind, payload) = last_event(&db, &id);
    assert_eq!(kind, "operator_failed");
    assert_eq!(payload["reason"], "INC-12 hijack");
    assert_eq!(payload["audit"]["session_user"], "postgres");
    assert_eq!(run.json()["event"]["payload"], payload);
    // Exactly the runbook's change: every other row is as it was, and the
    // attacker's code never ran (its table is empty).
    let after = full_dump(&db, Some((&id, &event)));
    assert!(after == before, "{}", dump_diff(&before, &after));
    let ran: i64 = db
        .client()
        .query_one("SELECT count(*) FROM public.pwned", &[])
        .unwrap()
        .get(0);
    assert_eq!(ran, 0, "the attacker's code ran");
    drop(attacker);
}

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
