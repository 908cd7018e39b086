//! Plans recorded by the server (README, "Two-person break-glass"): with
//! `approvals install`, `--apply` applies the server's copy only, refuses
//! (4, nothing written) every edit of the file, and the policy is the
//! database's whatever the environment says. The requester and the
//! approver are two login roles (two `session_user`s), as an attacker with
//! the operator's own accounts would have them.

use serde_json::Value;

use super::*;
use crate::support::scenario;

/// The database with the schema installed and two operators, `alice`
/// (asks) and `bob` (approves), each a login role with what fail-safely
/// needs. Their roles are dropped with the guard.
struct Server {
    db: TestDb,
    alice: String,
    bob: String,
    roles: [String; 2],
}

impl Drop for Server {
    fn drop(&mut self) {
        let mut client = self.db.client();
        for role in &self.roles {
            let _ = client.batch_execute(&format!(
                "DROP OWNED BY {role} CASCADE; DROP ROLE IF EXISTS {role}"
            ));
        }
    }
}

fn server(install: &[&str]) -> Server {
    let db = TestDb::scenarios();
    let mut args = vec!["approvals", "install"];
    args.extend_from_slice(install);
    let run = db.run(&args);
    run.assert_code(0);
    assert!(
        run.stdout.contains("schema pushleft_approvals"),
        "{}",
        run.stdout
    );
    let roles = [format!("alice_{}", db.name), format!("bob_{}", db.name)];
    for role in &roles {
        db.client()
            .batch_execute(&format!(
                "CREATE ROLE {role} LOGIN;
                 GRANT USAGE ON SCHEMA public TO {role};
                 GRANT SELECT, UPDATE, INSERT ON ALL TABLES IN SCHEMA public TO {role};"
            ))
            .unwrap();
    }
    Server {
        alice: format!("{} user={}", db.conninfo, roles[0]),
        bob: format!("{} user={}", db.conninfo, roles[1]),
        roles,
        db,
    }
}

fn as_role(conninfo: &str, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut cmd = crate::support::bin();
    cmd.env("DATABASE_URL", conninfo).args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    Run::from(cmd.output().unwrap())
}

/// Every table of the control plane and of pushleft_approvals.
fn dump(db: &TestDb) -> String {
    let mut out = db.dump();
    for table in ["plans", "applications", "policy"] {
        let row = db
            .client()
            .query_one(
                &format!(
                    "SELECT coalesce(jsonb_agg(to_jsonb(t) ORDER BY t::text), '[]')::text \
                     FROM pushleft_approvals.{table} t"
                ),
                &[],
            )
            .unwrap();
        out.push_str(&row.get::<_, String>(0));
    }
    out
}

/// alice's plan for `targets`, recorded by the server.
fn plan(s: &Server, targets: &[&str]) -> (PlanFile, Value) {
    let (dir, path) = plan_dir();
    let batch = dir.path().join("batch.txt");
    std::fs::write(&batch, targets.join("\n")).unwrap();
    let mut args = vec!["fail-safely"];
    match targets {
        [one] => args.push(one),
        _ => args.extend(["--from", batch.to_str().unwrap()]),
    }
    args.extend([
        "--reason",
        "INC-30 server",
        "--plan-out",
        path.to_str().unwrap(),
    ]);
    args.extend(["-o", "json"]);
    let run = as_role(&s.alice, &args, &[]);
    run.assert_code(0);
    let file: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    (PlanFile { _dir: dir, path }, file)
}

/// `--apply FILE --yes -o json` as the role of `conninfo`.
fn apply(conninfo: &str, file: &std::path::Path, env: &[(&str, &str)]) -> Run {
    as_role(
        conninfo,
        &[
            "fail-safely",
            "--apply",
            file.to_str().unwrap(),
            "--yes",
            "-o",
            "json",
        ],
        env,
    )
}

#[test]
fn the_server_records_the_plan_and_another_session_user_applies_it() {
    let s = server(&["--require-approval"]);
    // Installing again changes nothing, and says so.
    let again = s.db.run(&["approvals", "install", "--require-approval"]);
    again.assert_code(0);
    assert!(
        again.stdout.contains("completed schema pushleft_approvals"),
        "{}",
        again.stdout
    );
    assert!(again.stdout.contains("(unchanged)"), "{}", again.stdout);
    let (plan, file) = plan(&s, &["d0000002"]);
    let record = &file["record"];
    assert_eq!(record["schema"], "pushleft_approvals");
    assert_eq!(record["requested_by"], s.roles[0].as_str());
    assert_eq!(file["requester"]["session_user"], s.roles[0].as_str());
    // The requester alone is refused by the database's policy, with no
    // PUSHLEFT_REQUIRE_APPROVAL in the environment.
    let before = dump(&s.db);
    let alone = apply(&s.alice, &plan.path, &[]);
    alone.assert_code(4);
    assert!(alone.stderr.contains("someone else"), "{}", alone.stderr);
    assert_eq!(dump(&s.db), before);
    // bob applies it: both named in history.
    let applied = apply(&s.bob, &plan.path, &[]);
    applied.assert_code(0);
    assert_eq!(
        applied.json()["summary"]["applied"],
        1,
        "{}",
        applied.stdout
    );
    assert_eq!(status_of(&s.db, &scenario(2)), "teardown_queued");
    let history =
        s.db.run(&["history", "--deployment", "d0000002", "-o", "json"])
            .json();
    let approval = &history["actions"][0]["audit"]["approval"];
    assert_eq!(approval["requester"]["session_user"], s.roles[0].as_str());
    assert_eq!(approval["approver"]["session_user"], s.roles[1].as_str());
    assert_eq!(approval["self_approved"], false);
    let applications: i64 = s
        .db
        .client()
        .query_one(
            "SELECT count(*) FROM pushleft_approvals.applications WHERE plan_id = $1 AND applied_by = $2",
            &[&file["plan_id"].as_str().unwrap(), &s.roles[1]],
        )
        .unwrap()
        .get(0);
    assert_eq!(applications, 1);
    // Applied once: a second apply replays and writes nothing.
    let before = dump(&s.db);
    let again = apply(&s.bob, &plan.path, &[]);
    again.assert_code(0);
    assert_eq!(again.json()["summary"]["replayed"], 1, "{}", again.stdout);
    assert_eq!(dump(&s.db), before);
}

/// One edit of a plan file, by an attacker with the operator's accounts.
type Edit = Box<dyn Fn(&mut Value)>;

/// Each edit of a recorded plan's file: exit 4, nothing written.
#[test]
fn every_edit_of_a_recorded_plan_is_refused_and_nothing_is_written() {
    let s = server(&[]);
    let (plan, file) = plan(&s, &["d0000002", "d0000001"]);
    let healthy = s.db.run(&["diagnose", "d0000005", "-o", "json"]).json();
    let edits: Vec<(&str, Edit)> = vec![
        (
            "expires_at",
            Box::new(|p| p["expires_at"] = "2099-01-01T00:00:00Z".into()),
        ),
        (
            "reason",
            Box::new(|p| p["reason"] = "INC-30 something else".into()),
        ),
        (
            "deployments",
            Box::new(|p| {
                let d = p["deployments"].as_array_mut().unwrap();
                d.swap(0, 1);
            }),
        ),
        (
            "deployments",
            Box::new(|p| {
                let d = p["deployments"].as_array_mut().unwrap();
                d.truncate(1);
            }),
        ),
        (
            "deployments",
            Box::new(move |p| {
                let mut extra = p["deployments"][0].clone();
                extra["deployment_id"] = healthy["deployment"]["id"].clone();
                extra["fingerprint"] = healthy["fingerprint"].clone();
                extra["stuck"] = true.into();
                p["deployments"].as_array_mut().unwrap().push(extra);
                p["even_if_not_stuck"] = true.into();
            }),
        ),
        ("role", Box::new(|p| p["role"] = "postgres".into())),
        (
            "target.database_oid",
            Box::new(|p| p["target"]["database_oid"] = 1.into()),
        ),
        (
            "idempotency_key",
            Box::new(|p| {
                p["deployments"][0]["idempotency_key"] = "k\u{1b}[8m".into();
            }),
        ),
        (
            "requester.os_user",
            Box::new(|p| p["requester"]["os_user"] = "nobody".into()),
        ),
        (
            "requester.session_user",
            Box::new(|p| p["requester"]["session_user"] = "postgres".into()),
        ),
    ];
    let before = dump(&s.db);
    for (what, edit) in edits {
        let mut edited = file.clone();
        edit(&mut edited);
        std::fs::write(&plan.path, serde_json::to_string_pretty(&edited).unwrap()).unwrap();
        let run = apply(&s.bob, &plan.path, &[]);
        assert_eq!(run.code, 4, "{what}: {}\n{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains("Nothing was written"),
            "{what}: {}",
            run.stderr
        );
        assert_eq!(dump(&s.db), before, "{what}");
    }
}

#[test]
fn a_plan_recorded_in_another_database_or_missing_its_record_is_refused() {
    let s = server(&[]);
    let other = server(&[]);
    let (plan, file) = plan(&s, &["d0000002"]);
    let before = (dump(&s.db), dump(&other.db));
    // Another database that also records plans: not its record.
    let there = apply(&other.bob, &plan.path, &[]);
    there.assert_code(4);
    assert!(
        there.stderr.contains("not recorded in this database"),
        "{}",
        there.stderr
    );
    // The record taken out of the file: refused where plans are recorded.
    let mut bare = file.clone();
    bare.as_object_mut().unwrap().remove("record");
    std::fs::write(&plan.path, serde_json::to_string(&bare).unwrap()).unwrap();
    let bare = apply(&s.bob, &plan.path, &[]);
    bare.assert_code(4);
    assert!(bare.stderr.contains("names no record"), "{}", bare.stderr);
    assert_eq!((dump(&s.db), dump(&other.db)), before);
}

#[test]
fn the_policy_refuses_a_write_without_a_plan_with_the_variable_unset() {
    let s = server(&["--require-approval", "--forbid-break-glass-alone"]);
    let before = dump(&s.db);
    for extra in [&[][..], &["--break-glass-alone"][..]] {
        let mut args = vec![
            "fail-safely",
            "d0000002",
            "--reason",
            "INC-30 alone",
            "--yes",
        ];
        args.extend_from_slice(extra);
        let run = as_role(&s.alice, &args, &[("PUSHLEFT_REQUIRE_APPROVAL", "0")]);
        run.assert_code(4);
        assert_eq!(dump(&s.db), before, "{extra:?}");
    }
    // A dry run and a plan write nothing and stay allowed.
    as_role(
        &s.alice,
        &["fail-safely", "d0000002", "--reason", "INC-30", "--dry-run"],
        &[],
    )
    .assert_code(0);
}

#[test]
fn enforce_refuses_operator_events_without_a_plan_even_from_psql() {
    let s = server(&["--enforce"]);
    let doctor = s.db.run(&["doctor", "-o", "json"]);
    assert!(
        doctor.stdout.contains("pushleft_approvals"),
        "{}",
        doctor.stdout
    );
    // psql, as alice: the event is refused at COMMIT.
    let mut client = postgres::Client::connect(&s.alice, postgres::NoTls).unwrap();
    let err = client
        .batch_execute(&format!(
            "BEGIN;
             UPDATE public.deployments SET status = 'failed' WHERE id = '{0}';
             INSERT INTO public.deployment_events (sequence, id, org_id, deployment_id, kind, payload)
             SELECT 100, gen_random_uuid(), org_id, id, 'operator_failed', '{{\"reason\": \"by hand\"}}'
             FROM public.deployments WHERE id = '{0}';
             COMMIT;",
            scenario(1)
        ))
        .unwrap_err();
    assert!(
        err.to_string().contains("needs a plan") || format!("{err:?}").contains("PXA02"),
        "{err:?}"
    );
    assert_eq!(status_of(&s.db, &scenario(1)), "queued");
    // The tool: a dry run and a plan still work; the plan applied by bob lands.
    as_role(
        &s.alice,
        &["fail-safely", "d0000001", "--reason", "INC-30", "--dry-run"],
        &[],
    )
    .assert_code(0);
    let (plan, _) = plan(&s, &["d0000001"]);
    apply(&s.bob, &plan.path, &[]).assert_code(0);
    assert_eq!(status_of(&s.db, &scenario(1)), "failed");
}

#[test]
fn a_file_only_plan_edited_without_its_hash_is_refused() {
    let db = TestDb::scenarios();
    let (plan, printed) = make_plan(&db, &["d0000002"], &[]);
    let mut edited = printed.clone();
    edited["reason"] = "INC-30 edited".into();
    std::fs::write(&plan.path, serde_json::to_string(&edited).unwrap()).unwrap();
    let before = db.dump();
    let run = db.run(&["fail-safely", "--apply", plan.arg(), "--yes"]);
    run.assert_code(4);
    assert!(
        run.stderr.contains("changed after it was made"),
        "{}",
        run.stderr
    );
    assert_eq!(db.dump(), before);
}
