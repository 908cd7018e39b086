//! Server, database and role defaults the tool must own or honour: an
//! isolation default changes nothing (every transaction states its own), a
//! read-only default set on purpose and `track_counts = off` make
//! fail-safely refuse naming the setting, and the errors an operator meets
//! on a busy or full server read as sentences with the contract's codes.

use std::time::{Duration, Instant};

use crate::guard::{assert_refused, full_dump, last_event, run_with};
use crate::support::{TestDb, scenario};

fn fail_safely(db: &TestDb, env: &[(&str, &str)], id: &str) -> crate::support::Run {
    run_with(
        db,
        env,
        &[
            "fail-safely",
            id,
            "--reason",
            "INC-21 server defaults",
            "--yes",
            "-o",
            "json",
        ],
    )
}

fn alter_database(db: &TestDb, setting: &str) {
    db.client()
        .batch_execute(&format!("ALTER DATABASE {} SET {setting}", db.name))
        .unwrap();
}

#[test]
fn an_isolation_default_changes_nothing() {
    for default in ["'serializable'", "'repeatable read'"] {
        let db = TestDb::scenarios();
        alter_database(&db, &format!("default_transaction_isolation = {default}"));
        // Reads work and are still one read-only snapshot.
        let diagnosis = db.run(&["diagnose", &scenario(1), "-o", "json"]);
        diagnosis.assert_code(0);
        assert_eq!(diagnosis.json()["snapshot"]["isolation"], "repeatable read");
        db.run(&["stuck", "-o", "json"]).assert_code(0);
        db.run(&["fleet", "list", "-o", "json"]).assert_code(0);
        let doctor = db.run(&["doctor", "-o", "json"]);
        doctor.assert_code(0);
        let (status, detail) = doctor.doctor_check("server defaults");
        assert_eq!(status, "ok", "{detail}");
        assert!(
            detail.contains("default_transaction_isolation="),
            "{detail}"
        );
        // The write decides and writes exactly as under the server default.
        let run = fail_safely(&db, &[], &scenario(1));
        run.assert_code(0);
        assert_eq!(run.json()["path"], "operator_failed", "{default}");
        let (_, kind, _) = last_event(&db, &scenario(1));
        assert_eq!(kind, "operator_failed");
        // And through PGOPTIONS, the same.
        let run = fail_safely(
            &db,
            &[("PGOPTIONS", "-c default_transaction_isolation=serializable")],
            &scenario(3),
        );
        run.assert_code(0);
        assert_eq!(run.json()["path"], "teardown_requested");
    }
}

#[test]
fn a_read_only_default_is_refused_naming_where_it_was_set() {
    let db = TestDb::scenarios();
    alter_database(&db, "default_transaction_read_only = on");
    let before = full_dump(&db, None);
    let run = fail_safely(&db, &[], &scenario(1));
    assert_refused(
        &db,
        &run,
        4,
        &[
            "default_transaction_read_only = on",
            "for this database (ALTER DATABASE",
            "Nothing was written",
        ],
        &before,
    );
    assert_eq!(run.json()["error"]["kind"], "refused");
    // Reading is what such a database is for.
    db.run(&["diagnose", &scenario(1)]).assert_code(0);
    db.run(&["stuck"]).assert_code(0);
    let doctor = db.run(&["doctor", "-o", "json"]);
    doctor.assert_code(4);
    let (status, detail) = doctor.doctor_check("server defaults");
    assert_eq!(status, "fail", "{detail}");
    assert!(detail.contains("read-only by default"), "{detail}");

    // Set for the role instead: the refusal says so.
    let db = TestDb::scenarios();
    db.client()
        .batch_execute(&format!(
            "CREATE ROLE ro_operator_{0} LOGIN SUPERUSER;
             ALTER ROLE ro_operator_{0} SET default_transaction_read_only = on;",
            db.name
        ))
        .unwrap();
    let before = full_dump(&db, None);
    let url = format!("{} user=ro_operator_{}", db.conninfo, db.name);
    let run = fail_safely(&db, &[("DATABASE_URL", &url)], &scenario(1));
    assert_refused(
        &db,
        &run,
        4,
        &[
            "default_transaction_read_only = on",
            "for this role (ALTER ROLE",
        ],
        &before,
    );
    db.client()
        .batch_execute(&format!("DROP ROLE ro_operator_{}", db.name))
        .unwrap();
}

#[test]
fn track_counts_off_is_refused_naming_the_setting() {
    let db = TestDb::scenarios();
    alter_database(&db, "track_counts = off");
    let before = full_dump(&db, None);
    let run = fail_safely(&db, &[], &scenario(1));
    assert_refused(
        &db,
        &run,
        4,
        &[
            "track_counts is off",
            "for this database",
            "Nothing was written",
        ],
        &before,
    );
    let doctor = db.run(&["doctor", "-o", "json"]);
    doctor.assert_code(4);
    let (status, detail) = doctor.doctor_check("server defaults");
    assert_eq!(status, "fail", "{detail}");
    assert!(detail.contains("track_counts is off"), "{detail}");
}

#[test]
fn a_read_behind_a_lock_that_is_not_let_go_is_exit_5_with_a_sentence() {
    let db = TestDb::scenarios();
    let mut holder = db.client();
    holder
        .batch_execute("BEGIN; LOCK TABLE jobs, application_instances IN ACCESS EXCLUSIVE MODE")
        .unwrap();
    for args in [
        &["stuck"][..],
        &["diagnose", "d0000001"][..],
        &["fleet", "list"][..],
    ] {
        let started = Instant::now();
        let run = db.run(args);
        let took = started.elapsed();
        run.assert_code(5);
        assert!(
            run.stderr.contains("another session holds a lock")
                && run.stderr.contains("nothing was written")
                && !run.stderr.contains("db error"),
            "{args:?}: {}",
            run.stderr
        );
        // The default lock timeout is 5 s: it did not wait for the holder.
        assert!(took < Duration::from_secs(15), "{args:?} took {took:?}");
    }
    holder.batch_execute("ROLLBACK").unwrap();
}

#[test]
fn a_full_disk_reads_as_a_sentence_and_writes_nothing() {
    let db = TestDb::scenarios();
    // What the server says when it cannot extend a file, raised where the
    // event is inserted (a trigger the team vouches for).
    db.client()
        .batch_execute(
            "CREATE FUNCTION public.no_space() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN
               RAISE EXCEPTION 'could not extend file \"base/16384/16400\": No space left on device'
                 USING ERRCODE = 'disk_full';
             END $$;
             CREATE TRIGGER no_space BEFORE INSERT ON public.deployment_events
               FOR EACH ROW EXECUTE FUNCTION public.no_space();",
        )
        .unwrap();
    let before = full_dump(&db, None);
    let run = fail_safely(
        &db,
        &[("PUSHLEFT_ALLOWED_TRIGGERS", "no_space")],
        &scenario(1),
    );
    assert_refused(
        &db,
        &run,
        1,
        &[
            "out of disk space",
            "No space left on device",
            "nothing was written",
            "free disk space",
        ],
        &before,
    );
    assert!(!run.stderr.contains("db error"), "{}", run.stderr);
}
