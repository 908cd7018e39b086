//! `--plan-out`: the plan writes nothing, names who asked, where and until
//! when, carries no secret; `--apply` holds it to its target, its expiry
//! and its fingerprints. And every write names its target.

use std::io::Write;

use pushleft_controller::sandbox::cluster::{Cluster, ClusterOptions};

use super::*;
use crate::support::scenario;

fn identity(db: &TestDb) -> (String, i64) {
    let row = db
        .client()
        .query_one(
            "SELECT system_identifier::text, (SELECT oid::int8 FROM pg_database
                                             WHERE datname = current_database())
             FROM pg_control_system()",
            &[],
        )
        .unwrap();
    (row.get(0), row.get(1))
}

#[test]
fn a_plan_writes_nothing_and_names_who_where_and_until_when_without_secrets() {
    let db = TestDb::scenarios();
    let before = db.dump();
    let mut batch = tempfile::NamedTempFile::new().unwrap();
    // d0000008's events hold fake secrets in their `log` payloads;
    // d0000006 is already failed (left out, with --keep-going).
    writeln!(batch, "d0000002\nd0000008\nd0000006").unwrap();
    let (dir, path) = plan_dir();
    // A password in the connection string: it must not reach the plan.
    let conninfo = format!("{} password=Sekr3t-pw-26", db.conninfo);
    let run = Run::from(
        crate::support::bin()
            .env("DATABASE_URL", &conninfo)
            .args(["fail-safely", "--from", batch.path().to_str().unwrap()])
            .args([
                "--reason",
                "INC-26 plan",
                "--keep-going",
                "--plan-ttl",
                "2h",
            ])
            .args(["--plan-out", path.to_str().unwrap(), "-o", "json"])
            .output()
            .unwrap(),
    );
    run.assert_code(0);
    assert_eq!(db.dump(), before, "a plan writes nothing");
    let text = std::fs::read_to_string(&path).unwrap();
    for secret in ["Sekr3t-pw-26", "password", "postgresql://", "dbname="] {
        assert!(!text.contains(secret), "{secret} in the plan:\n{text}");
    }
    let plan: Value = serde_json::from_str(&text).unwrap();
    let mut all = Vec::new();
    keys(&plan, &mut all);
    assert!(!all.iter().any(|k| k == "log"), "a log key in {text}");
    assert_eq!(plan, run.json(), "the file is the document printed");
    assert_eq!(plan["schema_version"], 1);
    assert!(plan["plan_id"].as_str().unwrap().starts_with("plan-"));
    let (system, oid) = identity(&db);
    assert_eq!(plan["target"]["system_identifier"], system);
    assert_eq!(plan["target"]["database_oid"], oid);
    assert_eq!(plan["target"]["database"], db.name.as_str());
    assert_eq!(plan["target"]["role"], "primary");
    assert_eq!(
        plan["requester"]["os_user"],
        pushleft_controller::db::connect::os_user()
    );
    assert_eq!(plan["requester"]["session_user"], "postgres");
    let created = chrono::DateTime::parse_from_rfc3339(plan["created_at"].as_str().unwrap());
    let expires = chrono::DateTime::parse_from_rfc3339(plan["expires_at"].as_str().unwrap());
    assert_eq!((expires.unwrap() - created.unwrap()).num_seconds(), 7200);
    let planned: Vec<&str> = plan["deployments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["deployment_id"].as_str().unwrap())
        .collect();
    assert_eq!(planned, [scenario(2), scenario(8)]);
    let first = &plan["deployments"][0];
    assert_eq!(first["path"], "teardown_requested");
    assert_eq!(first["stuck"], true);
    assert_eq!(first["event"]["kind"], "teardown_requested");
    assert_eq!(first["event"]["payload"]["reason"], "INC-26 plan");
    assert!(first["fingerprint"].as_str().unwrap().len() == 16);
    assert!(
        first["idempotency_key"]
            .as_str()
            .unwrap()
            .starts_with("pl1-")
    );
    assert_eq!(plan["left_out"][0]["deployment"], "d0000006");
    assert!(
        plan["apply_command"]
            .as_str()
            .unwrap()
            .ends_with(&format!("fail-safely --apply {}", path.display()))
    );
    drop(dir);
}

#[test]
fn a_batch_plan_with_a_refusal_is_not_written_without_keep_going() {
    let db = TestDb::scenarios();
    let mut batch = tempfile::NamedTempFile::new().unwrap();
    writeln!(batch, "d0000002\nd0000006").unwrap();
    let (_dir, path) = plan_dir();
    let run = db.run(&[
        "fail-safely",
        "--from",
        batch.path().to_str().unwrap(),
        "--reason",
        "INC-26 plan",
        "--plan-out",
        path.to_str().unwrap(),
    ]);
    run.assert_code(4);
    assert!(!path.exists(), "no plan was written");
    assert!(run.stderr.contains("no plan was written"), "{}", run.stderr);
}

#[test]
fn a_plan_is_applied_only_on_the_cluster_and_database_it_was_made_on() {
    let db = TestDb::scenarios();
    let (plan, _) = make_plan(&db, &["d0000002"], &[]);
    // Another database of the same cluster, with the same rows: same
    // system identifier, another OID.
    let copy = TestDb::scenarios();
    // Another cluster with the same rows (same deployment ids).
    let other = Cluster::start(&ClusterOptions::default()).expect("a second cluster");
    let mut admin =
        postgres::Client::connect(&other.conninfo("postgres"), postgres::NoTls).unwrap();
    admin.batch_execute("CREATE DATABASE twin").unwrap();
    let twin = other.conninfo("twin");
    let mut client = postgres::Client::connect(&twin, postgres::NoTls).unwrap();
    client
        .batch_execute(pushleft_controller::db::sql::scripts::SCHEMA.text)
        .unwrap();
    client
        .batch_execute(pushleft_controller::db::sql::sandbox::SCENARIOS.text)
        .unwrap();
    let twin_status = |client: &mut postgres::Client| -> String {
        client
            .query_one(
                "SELECT status || ':' || (SELECT count(*) FROM deployment_events)::text
                 FROM deployments WHERE id = $1::text::uuid",
                &[&scenario(2)],
            )
            .unwrap()
            .get(0)
    };
    let twin_before = twin_status(&mut client);
    let (db_before, copy_before) = (db.dump(), copy.dump());
    let on_copy = copy.run(&["fail-safely", "--apply", plan.arg(), "--yes"]);
    on_copy.assert_code(4);
    assert!(
        on_copy
            .stderr
            .contains("another database of the same cluster"),
        "{}",
        on_copy.stderr
    );
    let on_twin = Run::from(
        crate::support::bin()
            .env("DATABASE_URL", &twin)
            .args(["fail-safely", "--apply", plan.arg(), "--yes"])
            .output()
            .unwrap(),
    );
    on_twin.assert_code(4);
    assert!(
        on_twin.stderr.contains("another cluster"),
        "{}",
        on_twin.stderr
    );
    assert_eq!(db.dump(), db_before, "nothing written where it was made");
    assert_eq!(copy.dump(), copy_before, "nothing written on the copy");
    assert_eq!(twin_status(&mut client), twin_before, "nothing on the twin");
    drop(client);
    other.stop();
}

#[test]
fn a_changed_fingerprint_refuses_the_plan_with_5_and_writes_nothing() {
    let db = TestDb::scenarios();
    let (plan, _) = make_plan(&db, &["d0000002"], &[]);
    // The build job was retried meanwhile: the state the plan was decided
    // on is gone.
    db.client()
        .batch_execute(
            "UPDATE jobs SET attempt = attempt + 1
             WHERE deployment_id = 'd0000002-0000-4000-8000-000000000002'",
        )
        .unwrap();
    let before = db.dump();
    let run = db.run(&["fail-safely", "--apply", plan.arg(), "--yes"]);
    run.assert_code(5);
    assert!(
        run.stderr.contains("the plan no longer holds"),
        "{}",
        run.stderr
    );
    assert_eq!(db.dump(), before);
}

#[test]
fn an_expired_plan_is_refused() {
    let db = TestDb::scenarios();
    let (plan, _) = make_plan(&db, &["d0000001"], &["--plan-ttl", "1s"]);
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let before = db.dump();
    let run = db.run(&["fail-safely", "--apply", plan.arg(), "--yes"]);
    run.assert_code(4);
    assert!(run.stderr.contains("expired"), "{}", run.stderr);
    assert_eq!(db.dump(), before);
}

#[test]
fn the_plan_for_the_ticket_has_its_target_and_the_command_that_applies_it() {
    let db = TestDb::scenarios();
    let (_dir, path) = plan_dir();
    let run = db.run(&[
        "fail-safely",
        "d0000002",
        "--reason",
        "INC-26 ticket",
        "--plan-out",
        path.to_str().unwrap(),
        "-o",
        "markdown",
    ]);
    run.assert_code(0);
    let md = &run.stdout;
    assert!(md.contains("### fail-safely plan `plan-"), "{md}");
    assert!(
        md.contains(&format!(
            "**Target:** on {} at ",
            db.name.replace('_', "\\_")
        )),
        "{md}"
    );
    assert!(md.contains("as postgres (primary) — cluster "), "{md}");
    assert!(
        md.contains(&format!(
            "`pushleft-controller fail-safely --apply {}`",
            path.display()
        )),
        "{md}"
    );
}

#[test]
fn the_dry_run_names_its_target_in_json_and_text() {
    let db = TestDb::scenarios();
    let json = db
        .run(&[
            "fail-safely",
            "d0000001",
            "--reason",
            "INC-24 where",
            "--dry-run",
            "-o",
            "json",
        ])
        .assert_code(0)
        .json();
    let target = &json["target"];
    assert_eq!(target["database"], db.name.as_str());
    assert_eq!(target["user"], "postgres");
    assert_eq!(target["role"], "primary");
    assert_eq!(target["transport"], "unix");
    assert!(target["socket"].as_str().unwrap().contains(".s.PGSQL."));
    assert!(target["port"].is_number());
    let (system, oid) = identity(&db);
    assert_eq!(target["system_identifier"], system);
    assert_eq!(target["database_oid"], oid);
    let text = db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-24 where",
        "--dry-run",
        "-o",
        "table",
    ]);
    text.assert_code(0);
    let line = format!("on {} at ", db.name);
    assert!(text.stdout.contains(&line), "{}", text.stdout);
    assert!(
        text.stdout.contains("as postgres (primary)"),
        "{}",
        text.stdout
    );
}
