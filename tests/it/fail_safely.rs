//! `fail-safely`: the two guarded transitions, race-proof and idempotent.

use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use pushleft_controller::db::schema_check::AllowedTriggers;
use pushleft_controller::db::session::Session;
use pushleft_controller::db::sql::Schema;
use pushleft_controller::db::transition::{self as fail_safely, Audit, Request};
use pushleft_controller::decide::Policy;
use pushleft_controller::model::BreakGlassPath as Path;
use serde_json::Value;
use uuid::Uuid;

use crate::support::{TestDb, scenario};

/// Every table but the two the transitions may touch, as JSON text.
fn untouched_tables(db: &TestDb) -> String {
    db.dump()
        .lines()
        .filter(|l| !l.starts_with("deployments:") && !l.starts_with("deployment_events:"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn request(deployment: &str, reason: &str) -> Request {
    Request {
        deployment: deployment.to_string(),
        reason: reason.to_string(),
        idempotency_key: None,
        dry_run: false,
        expect_path: None,
        expect_fingerprint: None,
        role: None,
        lock_timeout: Duration::from_secs(5),
        policy: Policy::default(),
        audit: Audit {
            os_user: "tester".into(),
            host: "test-host".into(),
            tool: "pushleft-controller/test".into(),
            region: None,
        },
        schema: Schema::public(),
        even_if_not_stuck: false,
        allowed_triggers: AllowedTriggers::default(),
    }
}

fn status_of(db: &TestDb, id: &str) -> String {
    db.client()
        .query_one(
            "SELECT status FROM deployments WHERE id = $1::text::uuid",
            &[&id],
        )
        .unwrap()
        .get(0)
}

fn events_of(db: &TestDb, id: &str) -> Vec<(i64, String, Value)> {
    db.client()
        .query(
            "SELECT sequence, kind, payload FROM deployment_events
             WHERE deployment_id = $1::text::uuid ORDER BY sequence",
            &[&id],
        )
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect()
}

#[test]
fn operator_failed_writes_exactly_the_runbook_change() {
    let db = TestDb::scenarios();
    let id = scenario(1);
    let others = untouched_tables(&db);
    let before = events_of(&db, &id);
    let run = db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-4711 stuck queued",
        "--yes",
        "-o",
        "json",
    ]);
    run.assert_code(0);
    let json = run.json();
    assert_eq!(json["path"], "operator_failed");
    assert_eq!(json["applied"], true);
    assert_eq!(json["replayed"], false);
    assert_eq!(json["dry_run"], false);
    assert_eq!(json["previous_status"], "queued");
    assert_eq!(json["new_status"], "failed");

    assert_eq!(status_of(&db, &id), "failed");
    let after = events_of(&db, &id);
    assert_eq!(after.len(), before.len() + 1);
    let (sequence, kind, payload) = after.last().unwrap();
    assert_eq!(
        *sequence,
        before.last().unwrap().0 + 1,
        "sequence = previous max + 1"
    );
    assert_eq!(kind, "operator_failed");
    assert_eq!(payload["reason"], "INC-4711 stuck queued");
    assert!(
        payload.get("operator").is_none(),
        "the runbook's operator_failed payload has no `operator`"
    );
    assert!(
        payload["idempotency_key"]
            .as_str()
            .unwrap()
            .starts_with("pl1-")
    );
    for field in [
        "os_user",
        "session_user",
        "current_user",
        "host",
        "tool",
        "previous_status",
    ] {
        assert!(payload["audit"].get(field).is_some(), "audit.{field}");
    }
    assert_eq!(payload["audit"]["previous_status"], "queued");
    assert_eq!(json["event"]["sequence"], *sequence);
    assert_eq!(json["event"]["payload"], *payload);
    assert_eq!(untouched_tables(&db), others, "nothing else changed");
}

#[test]
fn teardown_requested_on_each_dispatched_scenario() {
    let db = TestDb::scenarios();
    let others = untouched_tables(&db);
    for (n, previous) in [(2, "building"), (3, "deploying"), (8, "deploying")] {
        let id = scenario(n);
        let before = events_of(&db, &id);
        let run = db.run(&[
            "fail-safely",
            &id,
            "--reason",
            "INC-9 dispatched",
            "--yes",
            "-o",
            "json",
        ]);
        run.assert_code(0);
        let json = run.json();
        assert_eq!(json["path"], "teardown_requested", "scenario {n}");
        assert_eq!(json["previous_status"], previous);
        assert_eq!(status_of(&db, &id), "teardown_queued");
        let after = events_of(&db, &id);
        assert_eq!(after.len(), before.len() + 1);
        let (sequence, kind, payload) = after.last().unwrap();
        assert_eq!(*sequence, before.last().unwrap().0 + 1);
        assert_eq!(kind, "teardown_requested");
        assert_eq!(payload["operator"], true);
        assert_eq!(payload["reason"], "INC-9 dispatched");
        // The secrets of the noisy scenario are not echoed back.
        assert!(!run.stdout.contains("FAKE-SECRET"));
    }
    assert_eq!(untouched_tables(&db), others);
}

#[test]
fn the_reason_is_stored_verbatim_as_a_parameter() {
    let db = TestDb::scenarios();
    let nasty = "INC-1 it's \"stuck\"; DROP TABLE jobs; -- $1 \\ ünïcode";
    db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        nasty,
        "--yes",
        "-o",
        "json",
    ])
    .assert_code(0);
    let events = events_of(&db, &scenario(1));
    assert_eq!(events.last().unwrap().2["reason"], nasty);
    let jobs: i64 = db
        .client()
        .query_one("SELECT count(*) FROM jobs", &[])
        .unwrap()
        .get(0);
    assert!(jobs > 0);
}

#[test]
fn refusals_write_nothing() {
    let db = TestDb::scenarios();
    // A running deployment with nothing dispatched: the runbook's SQL would
    // append an operator_failed event although its UPDATE matches no row.
    db.client()
        .batch_execute(
            "INSERT INTO deployments VALUES ('e0000000-0000-4000-8000-00000000000e',
               'c0000001-0000-4000-8000-000000000001', 'running', now(), now())",
        )
        .unwrap();
    let before = db.dump();
    let cases: Vec<(Vec<&str>, i32, &str)> = vec![
        (vec!["e0000000"], 4, "nothing to do"),
        (vec!["d0000007"], 4, "teardown is already queued"),
        (vec!["d0000009"], 4, "already destroyed"),
        (vec!["d0000006"], 4, "already failed"),
        (vec!["beefbeef"], 3, "no deployment id starts with"),
        (
            // README, "Output and exit codes": an --expect-path that no
            // longer holds is a conflict (5).
            vec!["d0000001", "--expect-path", "teardown_requested"],
            5,
            "not the expected teardown_requested",
        ),
        (
            vec!["d0000001", "--expect-fingerprint", "0000000000000000"],
            5,
            "changed since it was diagnosed",
        ),
        // A malformed fingerprint is bad input (2), not a changed state.
        (
            vec!["d0000001", "--expect-fingerprint", "nothex"],
            2,
            "is not a fingerprint",
        ),
    ];
    for (args, code, message) in cases {
        let mut argv = vec!["fail-safely"];
        argv.extend(&args);
        argv.extend(["--reason", "INC-5 refusal", "--yes"]);
        let run = db.run(&argv);
        run.assert_code(code);
        assert!(run.stderr.contains(message), "{args:?}: {}", run.stderr);
        assert!(
            run.stderr.contains("nothing was written") || code == 3 || code == 2,
            "{args:?}: {}",
            run.stderr
        );
        assert_eq!(db.dump(), before, "{args:?} wrote something");
    }
    // No terminal and no --yes: refused before connecting.
    let run = db.run(&["fail-safely", "d0000001", "--reason", "INC-5"]);
    run.assert_code(4);
    assert!(run.stderr.contains("no terminal"), "{}", run.stderr);
    assert_eq!(db.dump(), before);
    // A dry run checks everything and writes nothing.
    let run = db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-5",
        "--dry-run",
        "-o",
        "json",
    ]);
    run.assert_code(0);
    let json = run.json();
    assert_eq!(json["dry_run"], true);
    assert_eq!(json["applied"], false);
    assert_eq!(json["path"], "operator_failed");
    assert_eq!(db.dump(), before);
}

#[test]
fn missing_protecting_triggers_refuse_before_writing() {
    let db = TestDb::scenarios();
    db.client()
        .batch_execute("DROP TRIGGER deployment_events_refuse_delete ON deployment_events")
        .unwrap();
    let before = db.dump();
    let run = db.run(&["fail-safely", "d0000001", "--reason", "INC-14", "--yes"]);
    run.assert_code(4);
    assert!(run.stderr.contains("deployment_events"), "{}", run.stderr);
    assert!(run.stderr.contains("doctor"), "{}", run.stderr);
    assert_eq!(db.dump(), before);
    // A disabled trigger protects nothing either.
    let db = TestDb::scenarios();
    db.client()
        .batch_execute("ALTER TABLE jobs DISABLE TRIGGER jobs_refuse_delete")
        .unwrap();
    db.run(&["fail-safely", "d0000001", "--reason", "INC-14", "--yes"])
        .assert_code(4);
    assert_eq!(status_of(&db, &scenario(1)), "queued");
}

#[test]
fn the_fingerprint_from_diagnose_is_honoured() {
    let db = TestDb::scenarios();
    let diagnosis = db.run(&["diagnose", "d0000001", "-o", "json"]).json();
    let fingerprint = diagnosis["fingerprint"].as_str().unwrap().to_string();
    // The state changes after the diagnosis: a dispatch.
    db.client()
        .batch_execute(
            "UPDATE jobs SET target_node_id = 'a0000001-0000-4000-8000-000000000001'
             WHERE deployment_id = 'd0000001-0000-4000-8000-000000000001'",
        )
        .unwrap();
    let before = db.dump();
    let run = db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-6",
        "--yes",
        "--expect-path",
        "operator_failed",
        "--expect-fingerprint",
        &fingerprint,
    ]);
    // The path decided under the locks changed first: teardown, not failed.
    run.assert_code(5);
    assert!(run.stderr.contains("teardown_requested"), "{}", run.stderr);
    let run = db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-6",
        "--yes",
        "--expect-fingerprint",
        &fingerprint,
    ]);
    run.assert_code(5);
    assert_eq!(db.dump(), before);
    // With the current fingerprint it goes through.
    let fresh = db.run(&["diagnose", "d0000001", "-o", "json"]).json();
    db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-6",
        "--yes",
        "--expect-path",
        "teardown_requested",
        "--expect-fingerprint",
        fresh["fingerprint"].as_str().unwrap(),
    ])
    .assert_code(0);
    assert_eq!(status_of(&db, &scenario(1)), "teardown_queued");
}

#[test]
fn idempotent_replay_and_key_conflicts() {
    let db = TestDb::scenarios();
    let first = db.run(&[
        "fail-safely",
        "d0000002",
        "--reason",
        "INC-7 orphaned lease",
        "--yes",
        "-o",
        "json",
    ]);
    first.assert_code(0);
    let first = first.json();
    let after_first = db.dump();
    // The same command again: the original event, nothing written.
    let again = db.run(&[
        "fail-safely",
        "d0000002",
        "--reason",
        "INC-7 orphaned lease",
        "--yes",
        "-o",
        "json",
    ]);
    again.assert_code(0);
    let again = again.json();
    assert_eq!(again["replayed"], true);
    assert_eq!(again["applied"], true);
    assert_eq!(again["event"]["id"], first["event"]["id"]);
    assert_eq!(again["event"]["sequence"], first["event"]["sequence"]);
    assert_eq!(again["previous_status"], "building");
    assert_eq!(again["new_status"], "teardown_queued");
    assert_eq!(db.dump(), after_first);
    // The same explicit key with another reason, or another deployment: conflict.
    let key = first["idempotency_key"].as_str().unwrap();
    let run = db.run(&[
        "fail-safely",
        "d0000002",
        "--reason",
        "INC-8 other",
        "--yes",
        "--idempotency-key",
        key,
    ]);
    run.assert_code(5);
    assert!(run.stderr.contains("different reason"), "{}", run.stderr);
    let run = db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-7 orphaned lease",
        "--yes",
        "--idempotency-key",
        key,
    ]);
    run.assert_code(5);
    assert!(run.stderr.contains("d0000002"), "{}", run.stderr);
    assert_eq!(db.dump(), after_first);
}

#[test]
fn sixteen_concurrent_runs_write_one_event() {
    let db = Arc::new(TestDb::scenarios());
    let before = events_of(&db, &scenario(1)).len();
    let barrier = Arc::new(Barrier::new(16));
    let handles: Vec<_> = (0..16)
        .map(|_| {
            let db = Arc::clone(&db);
            let barrier = Arc::clone(&barrier);
            std::thread::spawn(move || {
                barrier.wait();
                db.run(&[
                    "fail-safely",
                    "d0000001",
                    "--reason",
                    "INC-16 race",
                    "--yes",
                    "-o",
                    "json",
                ])
            })
        })
        .collect();
    let runs: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let mut applied = 0;
    let mut replayed = 0;
    for run in &runs {
        match run.code {
            0 => {
                let json = run.json();
                if json["replayed"] == true {
                    replayed += 1;
                } else {
                    applied += 1;
                }
            }
            5 => assert!(
                run.stderr.contains("retry") || run.stderr.contains("Retry"),
                "{}",
                run.stderr
            ),
            other => panic!("exit {other}: {}", run.stderr),
        }
    }
    assert_eq!(applied, 1, "exactly one run applies");
    assert!(
        replayed >= 1,
        "the others replay (or get a retryable conflict)"
    );
    let events = events_of(&db, &scenario(1));
    assert_eq!(events.len(), before + 1, "exactly one event");
}

/// How a concurrent dispatcher makes a deployment "dispatched".
#[derive(Debug, Clone, Copy)]
enum Dispatch {
    Target,
    Lease,
    Result,
    ActiveNode,
}

const DISPATCH_SQL: [(Dispatch, &str); 4] = [
    (
        Dispatch::Target,
        "UPDATE jobs SET target_node_id = 'a0000001-0000-4000-8000-000000000001' WHERE id = $1",
    ),
    (
        Dispatch::Lease,
        "UPDATE jobs SET status = 'leased', lease_token = gen_random_uuid(), lease_expires_at = now() + interval '5 minutes' WHERE id = $1",
    ),
    (
        Dispatch::Result,
        "INSERT INTO agent_job_results VALUES (gen_random_uuid(), $1, 'a0000001-0000-4000-8000-000000000001', 1, gen_random_uuid(), 'failed', '{}', now())",
    ),
    (
        Dispatch::ActiveNode,
        "UPDATE application_instances SET active_node_id = 'a0000001-0000-4000-8000-000000000001' WHERE id = $2 AND $1::uuid IS NOT NULL",
    ),
];

#[test]
fn a_concurrent_dispatcher_never_ends_failed_with_earlier_dispatch() {
    let db = TestDb::scenarios();
    let mut setup = db.client();
    let iterations = 96;
    let mut failed_runs = 0;
    let mut teardowns = 0;
    for i in 0..iterations {
        let (dispatch, statement) = DISPATCH_SQL[i % 4];
        let deployment = Uuid::new_v4();
        let job = Uuid::new_v4();
        let instance = Uuid::new_v4();
        setup
            .execute(
                "WITH d AS (INSERT INTO deployments VALUES ($1, gen_random_uuid(), 'queued', now() - interval '1 hour', now() - interval '1 hour') RETURNING id)
                 INSERT INTO jobs (id, deployment_id, kind, status) SELECT $2, id, 'build', 'queued' FROM d",
                &[&deployment, &job],
            )
            .unwrap();
        setup
            .execute(
                "INSERT INTO application_instances VALUES ($1, $2, 'web', 'pending', NULL, 1)",
                &[&instance, &deployment],
            )
            .unwrap();
        let barrier = Arc::new(Barrier::new(2));
        let dispatcher = {
            let barrier = Arc::clone(&barrier);
            let mut client = db.client();
            std::thread::spawn(move || {
                barrier.wait();
                // Vary who goes first, and land inside fail-safely's
                // transaction as often as before or after it.
                // Every eighth round the dispatcher comes late for sure.
                let delay = if i % 8 == 0 {
                    80_000
                } else {
                    (i as u64 * 1_931) % 12_000
                };
                std::thread::sleep(Duration::from_micros(delay));
                let mut tx = client.transaction().unwrap();
                let changed = match dispatch {
                    Dispatch::ActiveNode => tx.execute(statement, &[&job, &instance]),
                    _ => tx.execute(statement, &[&job]),
                }
                .unwrap_or_else(|e| panic!("{dispatch:?}: {e:?}"));
                // What the dispatcher saw after its own write (read committed).
                let seen: String = tx
                    .query_one(
                        "SELECT status FROM deployments WHERE id = $1",
                        &[&deployment],
                    )
                    .unwrap()
                    .get(0);
                tx.commit().unwrap();
                (changed, seen)
            })
        };
        let mut client = Session::from(db.client());
        barrier.wait();
        std::thread::sleep(Duration::from_micros((i as u64 * 251) % 3_000));
        let outcome = fail_safely::execute(
            &mut client,
            &request(&deployment.to_string(), "INC-race"),
            &mut |_| {},
        )
        .expect("fail-safely decides one of the two paths");
        let (changed, seen_by_dispatcher) = dispatcher.join().unwrap();
        assert!(
            changed == 1 || matches!(dispatch, Dispatch::ActiveNode),
            "{dispatch:?}"
        );
        let final_status: String = setup
            .query_one(
                "SELECT status FROM deployments WHERE id = $1",
                &[&deployment],
            )
            .unwrap()
            .get(0);
        match outcome.path {
            Path::OperatorFailed => {
                failed_runs += 1;
                assert_eq!(final_status, "failed");
                // The dispatch committed, so it must have committed after us:
                // it waited for our locks and then saw `failed`.
                assert_eq!(
                    seen_by_dispatcher, "failed",
                    "iteration {i} ({dispatch:?}): a dispatch committed before the decision, yet the deployment was failed"
                );
            }
            Path::TeardownRequested => {
                teardowns += 1;
                assert_eq!(final_status, "teardown_queued");
            }
            Path::None => panic!("iteration {i}: no path"),
        }
    }
    eprintln!("dispatcher race: {failed_runs} operator_failed, {teardowns} teardown_requested");
    assert_eq!(failed_runs + teardowns, iterations);
    // Both orders happened, so the race was really run.
    assert!(
        failed_runs > 0 && teardowns > 0,
        "{failed_runs} failed, {teardowns} teardowns"
    );
}

#[test]
fn a_lock_held_elsewhere_times_out_with_exit_5_and_a_rerun_succeeds() {
    let db = TestDb::scenarios();
    let lock = db.lock_deployment(&scenario(1));
    let before = db.dump();
    let started = Instant::now();
    let run = db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-10",
        "--yes",
        "--lock-timeout",
        "1s",
    ]);
    let waited = started.elapsed();
    run.assert_code(5);
    assert!(
        run.stderr.contains("another transaction holds deployment"),
        "{}",
        run.stderr
    );
    assert!(
        waited < Duration::from_secs(10),
        "gave up on its own ({waited:?})"
    );
    assert_eq!(db.dump(), before, "nothing written");
    lock.release();
    db.run(&["fail-safely", "d0000001", "--reason", "INC-10", "--yes"])
        .assert_code(0);
    assert_eq!(status_of(&db, &scenario(1)), "failed");
}

#[test]
fn the_guard_rolls_back_when_a_trigger_touches_jobs() {
    // Qualified tables: trigger functions run with fail-safely's pinned
    // search path (pg_catalog, pg_temp).
    guard_case(
        "UPDATE public.jobs SET updated_at = now() WHERE deployment_id = NEW.id",
        "public.jobs",
        &["d0000001", "d0000003"],
    );
}

#[test]
fn the_guard_rolls_back_when_a_trigger_releases_allocations() {
    guard_case(
        "UPDATE public.fleet_allocations SET status = 'released', released_at = now()
         WHERE resource_id IN (SELECT id FROM public.application_instances WHERE deployment_id = NEW.id)",
        "public.fleet_allocations",
        &["d0000003", "d0000004"],
    );
}

fn guard_case(body: &str, table: &str, deployments: &[&str]) {
    let db = TestDb::scenarios();
    db.client()
        .batch_execute(&format!(
            "CREATE FUNCTION sneaky() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN {body}; RETURN NEW; END $$;
             CREATE TRIGGER sneaky AFTER UPDATE OF status ON deployments
             FOR EACH ROW EXECUTE FUNCTION sneaky();"
        ))
        .unwrap();
    let before = db.dump();
    for deployment in deployments {
        // Listed as vouched for, so that it fires and the counters catch
        // it (unlisted, fail-safely refuses before it can fire: guard.rs).
        let run = crate::support::Run::from(
            db.cmd()
                .env("PUSHLEFT_ALLOWED_TRIGGERS", "sneaky")
                .args([
                    "fail-safely",
                    deployment,
                    "--reason",
                    "INC-11 guard",
                    "--yes",
                ])
                .output()
                .expect("running pushleft-controller"),
        );
        run.assert_code(4);
        assert!(run.stderr.contains("guard"), "{}", run.stderr);
        assert!(run.stderr.contains(table), "names {table}: {}", run.stderr);
        assert_eq!(db.dump(), before, "rolled back");
    }
}

#[test]
fn role_with_privileges_works_and_without_fails_clearly() {
    let db = TestDb::scenarios();
    let suffix = &db.name;
    let owner = format!("owner_{suffix}");
    let reader = format!("reader_{suffix}");
    db.client()
        .batch_execute(&format!(
            "CREATE ROLE {owner} NOLOGIN;
             GRANT SELECT, UPDATE ON ALL TABLES IN SCHEMA public TO {owner};
             GRANT INSERT ON deployment_events TO {owner};
             CREATE ROLE {reader} NOLOGIN;
             GRANT SELECT ON ALL TABLES IN SCHEMA public TO {reader};"
        ))
        .unwrap();
    let before = db.dump();
    let run = db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-12",
        "--yes",
        "--role",
        &reader,
    ]);
    // A permission the role lacks is a refusal (4), never "unexpected".
    run.assert_code(4);
    assert!(run.stderr.contains("permission denied"), "{}", run.stderr);
    assert!(run.stderr.contains(&reader), "{}", run.stderr);
    assert_eq!(db.dump(), before);
    let run = db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-12",
        "--yes",
        "--role",
        "no_such_role_x",
    ]);
    run.assert_code(4);
    assert!(run.stderr.contains("no_such_role_x"), "{}", run.stderr);
    let run = db.run(&[
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-12",
        "--yes",
        "--role",
        &owner,
        "-o",
        "json",
    ]);
    run.assert_code(0);
    let json = run.json();
    assert_eq!(
        json["event"]["payload"]["audit"]["current_user"],
        owner.as_str()
    );
    assert_eq!(
        json["event"]["payload"]["audit"]["session_user"],
        "postgres"
    );
    let mut client = db.client();
    client
        .batch_execute(&format!(
            "DROP OWNED BY {owner}, {reader}; DROP ROLE {owner}; DROP ROLE {reader};"
        ))
        .unwrap();
}

mod prompt {
    //! The confirmation, under a real pseudo-terminal.
    use super::*;

    fn spawn(db: &TestDb, deployment: &str) -> rexpect::session::PtySession {
        let mut cmd = crate::support::bin();
        cmd.env("DATABASE_URL", &db.conninfo)
            .stdin(std::process::Stdio::inherit())
            .env("TERM", "dumb")
            .args([
                "fail-safely",
                deployment,
                "--reason",
                "INC-13 prompt",
                "--output",
                "table",
            ]);
        rexpect::session::spawn_command(cmd, Some(20_000)).expect("spawning under a pty")
    }

    fn exit_status(session: &mut rexpect::session::PtySession) -> String {
        let _ = session.exp_eof();
        format!("{:?}", session.process().wait().unwrap())
    }

    #[test]
    fn typing_the_wrong_id_writes_nothing() {
        let db = TestDb::scenarios();
        let before = db.dump();
        let mut session = spawn(&db, "d0000001");
        session.exp_string("PLAN for deployment").unwrap();
        session.exp_string("to apply").unwrap();
        session.send_line("d0000002").unwrap();
        session.exp_string("does not match").unwrap();
        let status = exit_status(&mut session);
        assert!(status.contains(", 4)"), "{status}");
        assert_eq!(db.dump(), before);
    }

    #[test]
    fn ctrl_c_at_the_prompt_writes_nothing() {
        let db = TestDb::scenarios();
        let before = db.dump();
        let mut session = spawn(&db, "d0000001");
        session.exp_string("to apply").unwrap();
        session.send_control('c').unwrap();
        let status = exit_status(&mut session);
        assert!(
            status.contains("130") || status.contains("SIGINT"),
            "{status}"
        );
        assert_eq!(db.dump(), before);
    }

    #[test]
    fn ctrl_c_while_waiting_for_a_lock_rolls_back_and_exits_130() {
        let db = TestDb::scenarios();
        let lock = db.lock_deployment(&scenario(1));
        let before = db.dump();
        let mut cmd = crate::support::bin();
        cmd.env("DATABASE_URL", &db.conninfo)
            .stdin(std::process::Stdio::inherit())
            .env("TERM", "dumb")
            .args([
                "fail-safely",
                "d0000001",
                "--reason",
                "INC-15",
                "--yes",
                "--lock-timeout",
                "3s",
            ]);
        let mut session = rexpect::session::spawn_command(cmd, Some(20_000)).unwrap();
        // Give it time to connect and block on the row lock.
        std::thread::sleep(Duration::from_millis(800));
        session.send_control('c').unwrap();
        session.exp_string("nothing was written").unwrap();
        let status = exit_status(&mut session);
        assert!(status.contains("130"), "{status}");
        lock.release();
        assert_eq!(db.dump(), before);
    }

    #[test]
    fn typing_the_short_id_applies_the_plan() {
        let db = TestDb::scenarios();
        let mut session = spawn(&db, "d0000001");
        session
            .exp_string("append event #4 operator_failed")
            .unwrap();
        session.exp_string("to apply").unwrap();
        session.send_line("d0000001").unwrap();
        session.exp_string("Applied operator_failed").unwrap();
        let status = exit_status(&mut session);
        assert!(status.contains(", 0)"), "{status}");
        assert_eq!(status_of(&db, &scenario(1)), "failed");
    }
}
