//! The reference schema protects the audit trail and the status sets.

use crate::support::TestDb;

fn error_of(result: Result<u64, postgres::Error>) -> String {
    let err = result.expect_err("the statement must be refused");
    err.as_db_error()
        .map(|db| db.message().to_string())
        .unwrap_or_else(|| err.to_string())
}

#[test]
fn deleting_events_jobs_or_results_is_refused() {
    let db = TestDb::scenarios();
    let mut client = db.client();
    for (table, why) in [
        ("deployment_events", "append-only"),
        ("jobs", "never deleted"),
        ("agent_job_results", "append-only"),
    ] {
        let message = error_of(client.execute(&format!("DELETE FROM {table}"), &[]));
        assert!(message.contains("DELETE on"), "{table}: {message}");
        assert!(message.contains(why), "{table} says why: {message}");
        let message = error_of(client.execute(&format!("TRUNCATE {table} CASCADE"), &[]));
        assert!(message.contains("TRUNCATE"), "{table}: {message}");
    }
    let left: i64 = client
        .query_one("SELECT count(*) FROM deployment_events", &[])
        .unwrap()
        .get(0);
    assert!(left > 0);
}

#[test]
fn updating_events_or_results_is_refused() {
    let db = TestDb::scenarios();
    let mut client = db.client();
    let message = error_of(client.execute("UPDATE deployment_events SET kind = 'x'", &[]));
    assert!(message.contains("UPDATE on deployment_events"), "{message}");
    let message = error_of(client.execute("UPDATE agent_job_results SET outcome = 'failed'", &[]));
    assert!(message.contains("UPDATE on agent_job_results"), "{message}");
    // Jobs are updated by the scheduler all the time: that stays allowed.
    client
        .execute("UPDATE jobs SET updated_at = now() WHERE false", &[])
        .expect("updating jobs is allowed");
}

#[test]
fn unknown_statuses_are_rejected() {
    let db = TestDb::scenarios();
    let mut client = db.client();
    for statement in [
        "UPDATE deployments SET status = 'stuck'",
        "UPDATE jobs SET status = 'running'",
        "UPDATE jobs SET kind = 'rollback'",
        "UPDATE application_instances SET status = 'gone'",
        "UPDATE fleet_allocations SET status = 'freed'",
        "UPDATE fleet_nodes SET status = 'dead'",
        "UPDATE ingress_analytics_routes SET status = 'gone'",
    ] {
        let err = client.execute(statement, &[]).expect_err(statement);
        let code = err.code().cloned();
        assert_eq!(
            code,
            Some(postgres::error::SqlState::CHECK_VIOLATION),
            "{statement}"
        );
    }
}

#[test]
fn two_events_with_the_same_sequence_are_rejected() {
    let db = TestDb::scenarios();
    let mut client = db.client();
    let err = client
        .execute(
            "INSERT INTO deployment_events (sequence, id, org_id, deployment_id, kind)
             SELECT 1, gen_random_uuid(), org_id, id, 'duplicate' FROM deployments
             WHERE id = 'd0000001-0000-4000-8000-000000000001'",
            &[],
        )
        .expect_err("a second event with sequence 1");
    assert_eq!(
        err.code(),
        Some(&postgres::error::SqlState::UNIQUE_VIOLATION)
    );
}

#[test]
fn the_schema_file_loads_with_psql_on_error_stop() {
    let Ok(psql) = which("psql") else {
        eprintln!("psql is not installed; the Rust loader already covers the file");
        return;
    };
    let db = TestDb::empty();
    let mut client = db.client();
    client
        .batch_execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public;")
        .unwrap();
    let status = std::process::Command::new(psql)
        .args(["-X", "-q", "-v", "ON_ERROR_STOP=1", "-f"])
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/sql/schema.sql"))
        .arg(&db.conninfo)
        .status()
        .unwrap();
    assert!(status.success());
    let tables: i64 = client
        .query_one(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(tables, 11);
}

fn which(program: &str) -> Result<std::path::PathBuf, ()> {
    let path = std::env::var_os("PATH").ok_or(())?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
        .ok_or(())
}
