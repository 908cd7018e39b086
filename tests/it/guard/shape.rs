//! Cases 6 and 8 of the guard's suite: the shape "decide under locks" rests on
//! (foreign keys), and shapes that are fine (another schema, a partitioned
//! deployment_events).

use pushleft_controller::db::sql;

use super::{Attacker, assert_refused, dump_diff, full_dump, last_event, run_with};
use crate::support::{TestDb, scenario};

/// Case 6: without the foreign keys, a result or a job can be committed
/// for a deployment fail-safely holds locked. fail-safely refuses; doctor
/// names each missing key.
#[test]
fn case_6_missing_locking_foreign_keys_refuse_and_doctor_names_them() {
    let db = TestDb::scenarios();
    // A migration (the owner), not a less-privileged role, drops them.
    db.client()
        .batch_execute(
            "ALTER TABLE agent_job_results DROP CONSTRAINT agent_job_results_job_id_fkey;
             ALTER TABLE application_instances DROP CONSTRAINT application_instances_deployment_id_fkey;",
        )
        .unwrap();
    let before = full_dump(&db, None);
    let run = db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-12 no fk",
        "--yes",
    ]);
    assert_refused(
        &db,
        &run,
        4,
        &[
            "no foreign key from agent_job_results.job_id to jobs.id",
            "no foreign key from application_instances.deployment_id to deployments.id",
            "between its decision and its write",
            "nothing was written",
        ],
        &before,
    );
    let doctor = db.run(&["doctor", "-o", "json"]);
    doctor.assert_code(4);
    let (status, detail) = doctor.doctor_check("foreign keys");
    assert_eq!(status, "fail");
    assert!(detail.contains("agent_job_results.job_id"), "{detail}");
    assert!(
        detail.contains("application_instances.deployment_id"),
        "{detail}"
    );

    // A key whose triggers are disabled is not enforced either.
    let db = TestDb::scenarios();
    let mut client = db.client();
    let trigger: String = client
        .query_one(
            "SELECT t.tgname::text FROM pg_trigger t JOIN pg_constraint c ON c.oid = t.tgconstraint
             WHERE c.conname = 'jobs_deployment_id_fkey' AND t.tgrelid = 'jobs'::regclass LIMIT 1",
            &[],
        )
        .unwrap()
        .get(0);
    client
        .batch_execute(&format!("ALTER TABLE jobs DISABLE TRIGGER \"{trigger}\""))
        .unwrap();
    let before = full_dump(&db, None);
    let run = db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-12 no fk",
        "--yes",
    ]);
    assert_refused(
        &db,
        &run,
        4,
        &["jobs_deployment_id_fkey", "is not enforced"],
        &before,
    );
}

/// Case 8: the tables in another schema (`--schema`, `PUSHLEFT_SCHEMA`).
#[test]
fn case_8_tables_in_another_schema() {
    let db = TestDb::empty();
    {
        let mut client = db.client();
        client
            .batch_execute("CREATE SCHEMA ops; SET search_path = ops")
            .unwrap();
        client.batch_execute(sql::scripts::SCHEMA.text).unwrap();
        client.batch_execute(sql::sandbox::SCENARIOS.text).unwrap();
    }
    let id = scenario(1);
    // public holds the reference schema too, empty: the wrong place.
    db.run(&["diagnose", "d0000001"]).assert_code(3);
    let doctor = db.run(&["doctor", "--schema", "ops", "-o", "json"]);
    doctor.assert_code(0);
    assert!(doctor.doctor_check("schema").1.contains("schema ops"));
    let diagnosis = run_with(
        &db,
        &[("PUSHLEFT_SCHEMA", "ops")],
        &["diagnose", "d0000001", "-o", "json"],
    );
    diagnosis.assert_code(0);
    assert_eq!(diagnosis.json()["verdict"]["path"], "operator_failed");
    let run = db.run(&[
        "fail-safely",
        "d0000001",
        "--schema",
        "ops",
        "--reason",
        "INC-12 ops schema",
        "--yes",
        "-o",
        "json",
    ]);
    run.assert_code(0);
    assert_eq!(run.json()["new_status"], "failed");
    let status: String = db
        .client()
        .query_one(
            "SELECT status FROM ops.deployments WHERE id = $1::text::uuid",
            &[&id],
        )
        .unwrap()
        .get(0);
    assert_eq!(status, "failed");
    // A schema that does not exist: said plainly.
    let run = db.run(&["diagnose", "d0000001", "--schema", "nope"]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("--schema or PUSHLEFT_SCHEMA"),
        "{}",
        run.stderr
    );
    let run = db.run(&["diagnose", "d0000001", "--schema", "pg_catalog"]);
    run.assert_code(2);
}

/// deployment_events partitioned by hash of the deployment, with the
/// reference schema's keys, index and triggers on the partitioned table.
fn partition_events(db: &TestDb) {
    partition_events_with_keys(db, true);
}

/// deployment_events partitioned by hash into four partitions, with the
/// reference schema's keys, index and protecting triggers. `on_the_table`:
/// the foreign key to deployments is declared on the partitioned table
/// (every partition then has it); else on the first three partitions only.
pub fn partition_events_with_keys(db: &TestDb, on_the_table: bool) {
    let keys = if on_the_table {
        "ALTER TABLE deployment_events ADD FOREIGN KEY (deployment_id) REFERENCES deployments (id);"
            .to_string()
    } else {
        (0..3)
            .map(|p| {
                format!(
                    "ALTER TABLE deployment_events_p{p} ADD FOREIGN KEY (deployment_id) \
                     REFERENCES deployments (id);"
                )
            })
            .collect()
    };
    db.client()
        .batch_execute(&format!(
            "BEGIN;
             ALTER TABLE deployment_events RENAME TO deployment_events_old;
             ALTER TABLE deployment_events_old RENAME CONSTRAINT deployment_events_deployment_sequence TO old_sequence;
             ALTER INDEX deployment_events_idempotency_key RENAME TO old_idempotency_key;
             ALTER TABLE deployment_events_old RENAME CONSTRAINT deployment_events_pkey TO old_pkey;
             CREATE TABLE deployment_events (LIKE deployment_events_old INCLUDING DEFAULTS INCLUDING CONSTRAINTS)
                 PARTITION BY HASH (deployment_id);
             ALTER TABLE deployment_events ADD PRIMARY KEY (id, deployment_id);
             ALTER TABLE deployment_events ADD CONSTRAINT deployment_events_deployment_sequence
                 UNIQUE (deployment_id, sequence);
             CREATE INDEX deployment_events_idempotency_key ON deployment_events ((payload ->> 'idempotency_key'))
                 WHERE payload ? 'idempotency_key';
             CREATE TABLE deployment_events_p0 PARTITION OF deployment_events FOR VALUES WITH (MODULUS 4, REMAINDER 0);
             CREATE TABLE deployment_events_p1 PARTITION OF deployment_events FOR VALUES WITH (MODULUS 4, REMAINDER 1);
             CREATE TABLE deployment_events_p2 PARTITION OF deployment_events FOR VALUES WITH (MODULUS 4, REMAINDER 2);
             CREATE TABLE deployment_events_p3 PARTITION OF deployment_events FOR VALUES WITH (MODULUS 4, REMAINDER 3);
             {keys}
             INSERT INTO deployment_events SELECT * FROM deployment_events_old;
             DROP TABLE deployment_events_old;
             CREATE TRIGGER deployment_events_refuse_delete BEFORE DELETE ON deployment_events
                 FOR EACH ROW EXECUTE FUNCTION refuse_audit_change('deployment events are append-only');
             CREATE TRIGGER deployment_events_refuse_update BEFORE UPDATE ON deployment_events
                 FOR EACH ROW EXECUTE FUNCTION refuse_audit_change('deployment events are append-only');
             CREATE TRIGGER deployment_events_refuse_truncate BEFORE TRUNCATE ON deployment_events
                 FOR EACH STATEMENT EXECUTE FUNCTION refuse_audit_change('deployment events are append-only');
             COMMIT;"
        ))
        .expect("partitioning deployment_events");
}

/// Case 8: a partitioned deployment_events works (the guard counts the
/// partitions), its partitions are held to the same rules, and a trigger
/// on one partition is one the guard must vouch for.
#[test]
fn case_8_a_partitioned_deployment_events() {
    let db = TestDb::scenarios();
    partition_events(&db);
    let doctor = db.run(&["doctor", "-o", "json"]);
    doctor.assert_code(0);
    for n in [1, 2] {
        let id = scenario(n);
        let before = full_dump(&db, Some((&id, "00000000-0000-0000-0000-000000000000")));
        let run = db.run(&[
            "fail-safely",
            &id,
            "--reason",
            "INC-12 partitioned",
            "--yes",
            "-o",
            "json",
        ]);
        run.assert_code(0);
        let json = run.json();
        let (event, kind, _) = last_event(&db, &id);
        assert_eq!(json["event"]["id"], event.as_str());
        assert_eq!(json["path"], kind.as_str());
        let after = full_dump(&db, Some((&id, &event)));
        assert!(after == before, "{}", dump_diff(&before, &after));
        // The replay finds it across the partitions.
        let again = db.run(&[
            "fail-safely",
            &id,
            "--reason",
            "INC-12 partitioned",
            "--yes",
            "-o",
            "json",
        ]);
        again.assert_code(0);
        assert_eq!(again.json()["replayed"], true);
    }

    // A partition without its protecting trigger protects nothing.
    let mut client = db.client();
    client
        .batch_execute(
            "ALTER TABLE deployment_events_p2 DISABLE TRIGGER deployment_events_refuse_update",
        )
        .unwrap();
    let before = full_dump(&db, None);
    let run = db.run(&["fail-safely", "d0000004", "--reason", "INC-12 p2", "--yes"]);
    assert_refused(
        &db,
        &run,
        4,
        &["deployment_events_p2 (a partition of deployment_events) is disabled"],
        &before,
    );
    client
        .batch_execute(
            "ALTER TABLE deployment_events_p2 ENABLE TRIGGER deployment_events_refuse_update",
        )
        .unwrap();

    // A trigger of its own on one partition, planted by the attacker.
    let attacker = Attacker::new(&db);
    db.client()
        .batch_execute(&format!(
            "GRANT TRIGGER ON deployment_events_p0, deployment_events_p1, deployment_events_p2,
                    deployment_events_p3 TO {}",
            attacker.name
        ))
        .unwrap();
    attacker.plant(
        "CREATE FUNCTION public.evil() RETURNS trigger LANGUAGE plpgsql AS $f$
         BEGIN TRUNCATE public.fleet_allocations; RETURN NEW; END $f$;
         CREATE TRIGGER evil AFTER INSERT ON public.deployment_events_p3
         FOR EACH ROW EXECUTE FUNCTION public.evil()",
    );
    let before = full_dump(&db, None);
    let run = db.run(&["fail-safely", "d0000004", "--reason", "INC-12 p3", "--yes"]);
    assert_refused(
        &db,
        &run,
        4,
        &[
            "trigger `evil` on deployment_events_p3 (AFTER INSERT",
            "cannot vouch for it",
        ],
        &before,
    );
    drop(attacker);
}
