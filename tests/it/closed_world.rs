//! The closed world: fail-safely vouches only for what it inspected. Row
//! security that filters the role, a child table without the locking
//! foreign key, code outside pg_catalog in the written tables' defaults,
//! constraints, domains and indexes, and a column the role may not read:
//! each is refused with nothing written (full dumps of every table before
//! and after), none of the planted code runs (its marker table stays
//! empty), doctor's inventory line names it, and the reads say when they
//! may be blind.

use crate::guard::{assert_refused, full_dump, run_with};
use crate::support::{Run, TestDb, scenario};

/// A deployment stuck in `deploying` whose deploy job is targeted at
/// build-01 (dispatched): the right path is teardown_requested, and
/// hiding the target makes it look like operator_failed.
const DISPATCHED: u8 = 2;

/// doctor's inventory lines (one per problem): the worst status, and
/// every detail.
fn inventory(doctor: &Run) -> (String, String) {
    let json = doctor.json();
    let lines: Vec<&serde_json::Value> = json["checks"]
        .as_array()
        .expect("doctor's checks")
        .iter()
        .filter(|c| c["name"] == "inventory")
        .collect();
    assert!(!lines.is_empty(), "no inventory line: {}", doctor.stdout);
    let status = if lines.iter().any(|c| c["status"] == "fail") {
        "fail"
    } else {
        "ok"
    };
    let details: Vec<&str> = lines.iter().filter_map(|c| c["detail"].as_str()).collect();
    (status.to_string(), details.join("\n"))
}

fn fail_safely(db: &TestDb, env: &[(&str, &str)], extra: &[&str]) -> Run {
    let id = scenario(DISPATCHED);
    let mut args = vec![
        "fail-safely",
        id.as_str(),
        "--reason",
        "INC-22 closed world",
        "--yes",
    ];
    args.extend_from_slice(extra);
    run_with(db, env, &args)
}

/// A login role that is not the tables' owner and has no BYPASSRLS, with
/// every privilege fail-safely needs. Dropped with the database's roles
/// by the caller (`drop_roles`).
fn operator_role(db: &TestDb, name: &str) -> String {
    db.client()
        .batch_execute(&format!(
            "CREATE ROLE {name} LOGIN;
             GRANT USAGE ON SCHEMA public TO {name};
             GRANT SELECT, UPDATE, INSERT ON ALL TABLES IN SCHEMA public TO {name};"
        ))
        .unwrap();
    format!("{} user={name}", db.conninfo)
}

fn drop_roles(db: &TestDb, names: &[&str]) {
    let mut client = db.client();
    for name in names {
        let _ = client.batch_execute(&format!(
            "DROP OWNED BY {name} CASCADE; DROP ROLE IF EXISTS {name}"
        ));
    }
}

/// A marker table any role may write, and a function that writes it.
fn plant_marker(db: &TestDb) {
    db.client()
        .batch_execute(
            "CREATE TABLE public.ran (what text);
             GRANT INSERT, SELECT ON public.ran TO PUBLIC;
             CREATE FUNCTION public.mark(what text) RETURNS boolean LANGUAGE plpgsql AS $$
             BEGIN INSERT INTO public.ran VALUES (what); RETURN true; END $$;
             CREATE FUNCTION public.same(t text) RETURNS text LANGUAGE sql IMMUTABLE
             AS $$ SELECT t $$;",
        )
        .unwrap();
}

fn marker_rows(db: &TestDb) -> i64 {
    db.client()
        .query_one("SELECT count(*) FROM public.ran", &[])
        .unwrap()
        .get(0)
}

#[test]
fn row_security_that_filters_the_role_is_refused_and_reads_warn() {
    let db = TestDb::scenarios();
    let role = format!("rls_{}", db.name);
    let url = operator_role(&db, &role);
    db.client()
        .batch_execute(&format!(
            "ALTER TABLE jobs ENABLE ROW LEVEL SECURITY;
             CREATE POLICY hide_targeted ON jobs TO {role} USING (target_node_id IS NULL);"
        ))
        .unwrap();
    let before = full_dump(&db, None);
    let run = fail_safely(&db, &[("DATABASE_URL", &url)], &[]);
    assert_refused(
        &db,
        &run,
        4,
        &["row-level security applies", "jobs", "hide_targeted"],
        &before,
    );
    let dry = fail_safely(&db, &[("DATABASE_URL", &url)], &["--dry-run"]);
    assert_refused(&db, &dry, 4, &["row-level security applies"], &before);
    // The reads still read, and say they may be blind.
    let diagnose = run_with(
        &db,
        &[("DATABASE_URL", &url)],
        &["diagnose", &scenario(DISPATCHED), "-o", "json"],
    );
    diagnose.assert_code(0);
    assert!(
        diagnose
            .stderr
            .contains("row-level security applies to this role on jobs"),
        "{}",
        diagnose.stderr
    );
    assert_eq!(diagnose.json()["snapshot"]["row_security"][0], "jobs");
    for args in [
        &["stuck", "-o", "json"][..],
        &["fleet", "list", "-o", "json"][..],
    ] {
        let run = run_with(&db, &[("DATABASE_URL", &url)], args);
        run.assert_code(0);
        assert!(
            run.stderr.contains("row-level security"),
            "{args:?}: {}",
            run.stderr
        );
        assert_eq!(
            run.json()["snapshot"]["row_security"][0],
            "jobs",
            "{args:?}"
        );
    }
    let doctor = run_with(&db, &[("DATABASE_URL", &url)], &["doctor", "-o", "json"]);
    doctor.assert_code(4);
    let (status, detail) = inventory(&doctor);
    assert_eq!(status, "fail", "{detail}");
    assert!(detail.contains("hide_targeted"), "{detail}");
    drop_roles(&db, &[&role]);
}

#[test]
fn forced_row_security_filters_the_owner_role_too() {
    let db = TestDb::scenarios();
    let (owner, login) = (format!("own_{}", db.name), format!("op_{}", db.name));
    db.client()
        .batch_execute(&format!(
            "CREATE ROLE {owner} NOLOGIN;
             CREATE ROLE {login} LOGIN IN ROLE {owner};
             ALTER TABLE agent_job_results OWNER TO {owner};
             ALTER TABLE application_instances OWNER TO {owner};
             GRANT USAGE ON SCHEMA public TO {owner};
             GRANT SELECT, UPDATE, INSERT ON ALL TABLES IN SCHEMA public TO {owner};
             ALTER TABLE application_instances ENABLE ROW LEVEL SECURITY;
             ALTER TABLE application_instances FORCE ROW LEVEL SECURITY;
             CREATE POLICY idle_only ON application_instances USING (active_node_id IS NULL);"
        ))
        .unwrap();
    let url = format!("{} user={login}", db.conninfo);
    let before = full_dump(&db, None);
    let run = fail_safely(&db, &[("DATABASE_URL", &url)], &["--role", &owner]);
    assert_refused(
        &db,
        &run,
        4,
        &[
            "row-level security applies",
            "application_instances",
            "FORCE ROW LEVEL SECURITY",
        ],
        &before,
    );
    drop_roles(&db, &[&login, &owner]);
}

#[test]
fn a_child_table_without_the_locking_foreign_key_is_refused() {
    let db = TestDb::scenarios();
    db.client()
        .batch_execute(
            "CREATE TABLE public.jobs_archive () INHERITS (public.jobs);
             -- The audit trail's protection, as on jobs: only the key is missing.
             CREATE TRIGGER jobs_archive_refuse_delete BEFORE DELETE ON public.jobs_archive
               FOR EACH ROW EXECUTE FUNCTION public.refuse_audit_change('jobs');",
        )
        .unwrap();
    let before = full_dump(&db, None);
    let run = fail_safely(&db, &[], &[]);
    assert_refused(
        &db,
        &run,
        4,
        &["jobs_archive", "no foreign key deployment_id → deployments"],
        &before,
    );
    let doctor = db.run(&["doctor", "-o", "json"]);
    doctor.assert_code(4);
    let (status, detail) = inventory(&doctor);
    assert_eq!(status, "fail");
    assert!(detail.contains("jobs_archive"), "{detail}");
    // With the key, the child is vouched for.
    db.client()
        .batch_execute(
            "ALTER TABLE public.jobs_archive ADD FOREIGN KEY (deployment_id)
               REFERENCES public.deployments (id)",
        )
        .unwrap();
    fail_safely(&db, &[], &["--dry-run"]).assert_code(0);
}

#[test]
fn a_partition_without_the_locking_foreign_key_is_refused() {
    let db = TestDb::scenarios();
    // The foreign key on three of the four partitions, not on the table:
    // the fourth takes events for a deployment fail-safely holds locked.
    crate::guard::shape::partition_events_with_keys(&db, false);
    let before = full_dump(&db, None);
    let run = fail_safely(&db, &[], &[]);
    assert_refused(
        &db,
        &run,
        4,
        &[
            "deployment_events_p3 (a partition or child of deployment_events) has no foreign key \
             deployment_id → deployments",
        ],
        &before,
    );
    for p in ["p0", "p1", "p2"] {
        assert!(
            !run.stderr
                .contains(&format!("deployment_events_{p} (a partition")),
            "{p} has its key: {}",
            run.stderr
        );
    }
    let doctor = db.run(&["doctor", "-o", "json"]);
    doctor.assert_code(4);
    assert!(inventory(&doctor).1.contains("deployment_events_p3"));
}

/// One way for code to run inside fail-safely's write, and the words the
/// refusal names it by.
const PLANTED: &[(&str, &str)] = &[
    (
        "ALTER TABLE public.deployment_events
           ALTER COLUMN occurred_at SET DEFAULT (CASE WHEN public.mark('default') THEN now() END)",
        "the default of column occurred_at on deployment_events calls public.mark",
    ),
    (
        "ALTER TABLE public.deployments ADD CONSTRAINT evil_check
           CHECK (public.mark('check') OR status IS NULL) NOT VALID",
        "the CHECK constraint evil_check on deployments calls public.mark",
    ),
    (
        "CREATE INDEX evil_index ON public.deployment_events (public.same(kind))",
        "the index evil_index on deployment_events calls public.same",
    ),
    (
        "ALTER TABLE public.deployment_events
           ADD COLUMN shadow text GENERATED ALWAYS AS (public.same(kind)) STORED",
        "the generated column shadow on deployment_events calls public.same",
    ),
    (
        "CREATE DOMAIN public.evil_kind AS text CHECK (public.mark('domain'));
         ALTER TABLE public.deployment_events ALTER COLUMN kind TYPE public.evil_kind",
        "of the domain of column kind on deployment_events calls public.mark",
    ),
];

#[test]
fn code_outside_pg_catalog_in_the_written_tables_never_runs() {
    for (plant, says) in PLANTED {
        let db = TestDb::scenarios();
        plant_marker(&db);
        db.client().batch_execute(plant).unwrap();
        let marked = marker_rows(&db);
        let before = full_dump(&db, None);
        for extra in [&["--dry-run"][..], &[][..]] {
            let run = fail_safely(&db, &[], extra);
            assert_refused(&db, &run, 4, &[says, "cannot vouch for"], &before);
            assert_eq!(marker_rows(&db), marked, "{plant}: the planted code ran");
        }
        let doctor = db.run(&["doctor", "-o", "json"]);
        doctor.assert_code(4);
        let (status, detail) = inventory(&doctor);
        assert_eq!(status, "fail", "{plant}");
        assert!(detail.contains(says), "{detail}");
    }
}

#[test]
fn a_function_the_team_vouches_for_is_allowed_and_still_guarded() {
    let db = TestDb::scenarios();
    plant_marker(&db);
    // A harmless function in a default, vouched for: the write goes ahead.
    db.client()
        .batch_execute(
            "ALTER TABLE public.deployment_events
               ALTER COLUMN occurred_at SET DEFAULT (now() + (public.same('0') || 's')::interval)",
        )
        .unwrap();
    fail_safely(&db, &[], &["--dry-run"]).assert_code(4);
    let run = fail_safely(&db, &[("PUSHLEFT_ALLOWED_TRIGGERS", "public.same")], &[]);
    run.assert_code(0);
    // One that writes another table, vouched for all the same: the guard
    // sees what it did, and nothing is written.
    let db = TestDb::scenarios();
    plant_marker(&db);
    db.client().batch_execute(PLANTED[0].0).unwrap();
    let before = full_dump(&db, None);
    let run = fail_safely(&db, &[("PUSHLEFT_ALLOWED_TRIGGERS", "mark")], &[]);
    assert_refused(&db, &run, 4, &["guard", "public.ran"], &before);
    assert_eq!(marker_rows(&db), 0);
}

#[test]
fn a_column_the_role_may_not_read_is_exit_4_everywhere() {
    let db = TestDb::scenarios();
    let role = format!("priv_{}", db.name);
    let url = operator_role(&db, &role);
    db.client()
        .batch_execute(&format!(
            "REVOKE SELECT ON public.jobs FROM {role};
             GRANT SELECT (id, deployment_id, kind, status, attempt, max_attempts,
                           available_at, lease_token, lease_expires_at, payload,
                           created_at, updated_at) ON public.jobs TO {role};"
        ))
        .unwrap();
    let before = full_dump(&db, None);
    let run = fail_safely(&db, &[("DATABASE_URL", &url)], &[]);
    assert_refused(&db, &run, 4, &["jobs.target_node_id"], &before);
    for args in [
        &["diagnose", "d0000002"][..],
        &["stuck"][..],
        &["diagnose", "d0000002", "-o", "json"][..],
    ] {
        let run = run_with(&db, &[("DATABASE_URL", &url)], args);
        run.assert_code(4);
        assert!(
            run.stderr.contains("permission denied") && !run.stderr.contains("db error"),
            "{args:?}: {}",
            run.stderr
        );
    }
    drop_roles(&db, &[&role]);
}
