//! `doctor`: all ok on the reference schema, fail (exit 4) without the
//! protecting triggers or with an incompatible schema, never writes.

use pushleft_controller::db::schema_check::{self, AllowedTriggers};
use pushleft_controller::db::session::{Session, Terms};
use pushleft_controller::db::sql::Schema;

use crate::support::{Run, TestDb};

fn doctor(db: &TestDb, extra: &[&str]) -> Run {
    let mut args = vec!["doctor", "--output", "json"];
    args.extend_from_slice(extra);
    db.run(&args)
}

#[test]
fn doctor_on_the_sandbox_scenarios_is_all_ok_and_writes_nothing() {
    let db = TestDb::scenarios();
    let before = db.dump();
    let run = doctor(&db, &[]);
    run.assert_code(0);
    let json = run.json();
    assert_eq!(json["ok"], true);
    assert_eq!(json["target"]["database"], db.name.as_str());
    assert_eq!(json["target"]["user"], "postgres");
    assert!(json["target"]["port"].is_u64());
    let checks = json["checks"].as_array().unwrap();
    for name in [
        "connection",
        "server",
        "recovery",
        "identity",
        "read privileges",
        "write privileges",
        "schema",
        "triggers",
        "session",
    ] {
        assert!(
            checks.iter().any(|c| c["name"] == name),
            "missing check {name}"
        );
    }
    for check in checks {
        assert_eq!(check["status"], "ok", "{check}");
    }
    assert!(run.doctor_check("recovery").1.contains("primary"));
    assert_eq!(db.dump(), before, "doctor changed the database");

    // The table form: one line per check.
    let run = db.run(&["doctor", "--output", "table"]);
    run.assert_code(0);
    assert!(run.stdout.contains("ok    triggers"), "{}", run.stdout);
    assert!(!run.stdout.contains("FAIL"), "{}", run.stdout);
}

#[test]
fn doctor_fails_without_the_protecting_triggers() {
    let db = TestDb::scenarios();
    db.client()
        .batch_execute(
            "DROP TRIGGER jobs_refuse_delete ON jobs;
             ALTER TABLE deployment_events DISABLE TRIGGER deployment_events_refuse_update;",
        )
        .unwrap();
    let run = doctor(&db, &[]);
    run.assert_code(4);
    assert_eq!(run.json()["ok"], false);
    let (status, detail) = run.doctor_check("triggers");
    assert_eq!(status, "fail");
    assert!(
        detail.contains("no BEFORE DELETE trigger on jobs"),
        "{detail}"
    );
    assert!(
        detail.contains("deployment_events_refuse_update on deployment_events is disabled"),
        "{detail}"
    );
    assert_eq!(run.doctor_check("schema").0, "ok");
    assert!(run.stderr.contains("failed"), "{}", run.stderr);

    // The same through the library, as fail-safely uses it.
    let mut client = db.client();
    let report =
        schema_check::check(&mut client, &Schema::public(), &AllowedTriggers::default()).unwrap();
    assert!(!report.protecting_triggers_ok());
    assert!(report.schema_ok());
    assert_eq!(report.problems().len(), 2, "{:?}", report.problems());
    let mut client = Session::from(client);
    let mut tx = client.begin(Terms::Snapshot).unwrap();
    assert!(
        !schema_check::check(&mut tx, &Schema::public(), &AllowedTriggers::default())
            .unwrap()
            .protecting_triggers_ok()
    );
}

#[test]
fn schema_check_passes_the_reference_schema_and_names_what_is_off() {
    let db = TestDb::empty();
    let mut client = db.client();
    let report =
        schema_check::check(&mut client, &Schema::public(), &AllowedTriggers::default()).unwrap();
    assert!(report.ok(), "{:?}", report.problems());
    assert!(report.protecting_triggers_ok());
    assert_eq!(report.triggers.len(), 5);
    assert_eq!(report.tables_checked, 11);

    client
        .batch_execute(
            "ALTER TABLE jobs ALTER COLUMN attempt TYPE bigint;
             ALTER TABLE fleet_nodes DROP COLUMN pool CASCADE;
             DROP TABLE network_attachments;",
        )
        .unwrap();
    let report =
        schema_check::check(&mut client, &Schema::public(), &AllowedTriggers::default()).unwrap();
    let problems = report.problems().join("\n");
    assert!(
        problems.contains("column jobs.attempt is bigint, expected integer"),
        "{problems}"
    );
    assert!(
        problems.contains("column fleet_nodes.pool is missing"),
        "{problems}"
    );
    assert!(
        problems.contains("table network_attachments is missing"),
        "{problems}"
    );
    assert!(report.protecting_triggers_ok());
    let run = doctor(&db, &[]);
    run.assert_code(4);
    assert_eq!(run.doctor_check("schema").0, "fail");
}

#[test]
fn doctor_checks_whether_the_role_can_be_assumed() {
    let db = TestDb::scenarios();
    let role = format!("{}_owner", db.name);
    db.client()
        .batch_execute(&format!(
            "DROP ROLE IF EXISTS {role}; CREATE ROLE {role} NOLOGIN;
             GRANT UPDATE ON deployments TO {role}; GRANT INSERT ON deployment_events TO {role};"
        ))
        .unwrap();
    let run = doctor(&db, &["--role", &role]);
    run.assert_code(0);
    let (status, detail) = run.doctor_check("role");
    assert_eq!(status, "ok", "{detail}");
    assert!(run.doctor_check("write privileges").1.contains(&role));

    let run = doctor(&db, &["--role", "no_such_role_here"]);
    run.assert_code(4);
    let (status, detail) = run.doctor_check("role");
    assert_eq!(status, "fail");
    assert!(detail.contains("does not exist"), "{detail}");
    // The checks after it still ran.
    assert_eq!(run.doctor_check("triggers").0, "ok");
    db.client()
        .batch_execute(&format!(
            "REVOKE ALL ON deployments, deployment_events FROM {role}; DROP ROLE {role};"
        ))
        .unwrap();
}

#[test]
fn doctor_names_a_missing_index_and_the_statement_that_adds_it() {
    let db = TestDb::scenarios();
    let run = doctor(&db, &[]);
    let (status, detail) = run.doctor_check("indexes");
    assert_eq!(status, "ok", "{detail}");
    db.client()
        .batch_execute("DROP INDEX deployment_events_operator_actions")
        .unwrap();
    let run = doctor(&db, &[]);
    // A warning, not a failure: the control plane's schema is not ours.
    run.assert_code(0);
    let (status, detail) = run.doctor_check("indexes");
    assert_eq!(status, "warn", "{detail}");
    assert!(
        detail.contains("`history`: the operators' actions"),
        "{detail}"
    );
    assert!(
        detail.contains(
            "CREATE INDEX CONCURRENTLY deployment_events_operator_actions ON \"public\".deployment_events (occurred_at)"
        ),
        "{detail}"
    );
}
