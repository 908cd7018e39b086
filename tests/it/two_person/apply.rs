//! `--apply` under the two-person rule: the requester alone is refused,
//! someone else applies it, `--break-glass-alone` applies it marked
//! self-approved, and a big incident's plan goes through the same way.

use std::io::Write;

use super::*;
use crate::clock::rebase_to_now;
use crate::support::{scenario, strand_on_edge_07};

const RULE: (&str, &str) = ("PUSHLEFT_REQUIRE_APPROVAL", "1");

fn history(db: &TestDb, extra: &[&str]) -> Value {
    let mut args = vec!["history", "-o", "json"];
    args.extend_from_slice(extra);
    db.run(&args).assert_code(0).json()
}

#[test]
fn under_the_rule_the_requester_alone_is_refused_and_nothing_is_written() {
    let db = TestDb::scenarios();
    // Making the plan writes nothing, so the rule allows it.
    let plan = {
        let (dir, path) = plan_dir();
        let run = Run::from(
            db.cmd()
                .env(RULE.0, RULE.1)
                .args(["fail-safely", "d0000002", "--reason", "INC-26 alone"])
                .args(["--plan-out", path.to_str().unwrap()])
                .output()
                .unwrap(),
        );
        run.assert_code(0);
        (dir, path)
    };
    let before = db.dump();
    let apply = Run::from(
        db.cmd()
            .env(RULE.0, RULE.1)
            .args(["fail-safely", "--apply", plan.1.to_str().unwrap(), "--yes"])
            .output()
            .unwrap(),
    );
    apply.assert_code(4);
    assert!(apply.stderr.contains("someone else"), "{}", apply.stderr);
    // Nor can the rule be side-stepped by writing without a plan.
    let direct = Run::from(
        db.cmd()
            .env(RULE.0, RULE.1)
            .args([
                "fail-safely",
                "d0000002",
                "--reason",
                "INC-26 alone",
                "--yes",
            ])
            .output()
            .unwrap(),
    );
    direct.assert_code(4);
    assert!(direct.stderr.contains("needs a plan"), "{}", direct.stderr);
    assert_eq!(db.dump(), before);
}

#[test]
fn another_os_user_applies_the_plan_and_history_names_requester_and_approver() {
    if !other_user_available() {
        return;
    }
    let db = TestDb::scenarios();
    let (plan, printed) = make_plan(&db, &["d0000002"], &[]);
    let apply = as_postgres(
        &db.conninfo,
        &["fail-safely", "--apply", plan.arg(), "--yes", "-o", "json"],
        &[RULE],
    );
    apply.assert_code(0);
    let report = apply.json();
    assert_eq!(report["summary"]["applied"], 1, "{report:#}");
    assert_eq!(report["plan_id"], printed["plan_id"]);
    assert_eq!(status_of(&db, &scenario(2)), "teardown_queued");
    let me = pushleft_controller::db::connect::os_user();
    let action = &history(&db, &["--deployment", "d0000002"])["actions"][0];
    let approval = &action["audit"]["approval"];
    assert_eq!(approval["plan_id"], printed["plan_id"]);
    assert_eq!(approval["requester"]["os_user"], me.as_str());
    assert_eq!(approval["approver"]["os_user"], "postgres");
    assert_eq!(approval["self_approved"], false);
    assert_eq!(action["audit"]["os_user"], "postgres");
    let table = db.run(&["history", "--deployment", "d0000002", "-o", "wide"]);
    assert!(
        table.stdout.contains(&format!(
            "asked by {me} (postgres), approved by postgres (postgres)"
        )),
        "{}",
        table.stdout
    );
    // Approved by someone else: not among the self-approved writes (the
    // scenarios' own events, written without a plan, are).
    assert_eq!(
        history(&db, &["--self-approved", "--deployment", "d0000002"])["actions"],
        serde_json::json!([])
    );
    // A rerun replays: nothing is written twice.
    let before = db.dump();
    let again = as_postgres(
        &db.conninfo,
        &["fail-safely", "--apply", plan.arg(), "--yes", "-o", "json"],
        &[RULE],
    );
    again.assert_code(0);
    assert_eq!(again.json()["summary"]["replayed"], 1);
    assert_eq!(db.dump(), before);
}

#[test]
fn break_glass_alone_applies_and_is_marked_self_approved() {
    let db = TestDb::scenarios();
    let (plan, printed) = make_plan(&db, &["d0000001"], &[]);
    let run = Run::from(
        db.cmd()
            .env(RULE.0, RULE.1)
            .args([
                "fail-safely",
                "--apply",
                plan.arg(),
                "--yes",
                "--break-glass-alone",
            ])
            .output()
            .unwrap(),
    );
    run.assert_code(0);
    assert_eq!(status_of(&db, &scenario(1)), "failed");
    let listed = history(&db, &["--self-approved", "--deployment", "d0000001"]);
    let actions = listed["actions"].as_array().unwrap();
    assert_eq!(actions.len(), 1, "{listed:#}");
    let approval = &actions[0]["audit"]["approval"];
    assert_eq!(approval["self_approved"], true);
    assert_eq!(approval["break_glass_alone"], true);
    assert_eq!(approval["plan_id"], printed["plan_id"]);
    let table = db.run(&["history", "--self-approved", "-o", "wide"]);
    assert!(table.stdout.contains("SELF-APPROVED"), "{}", table.stdout);
    // Without a plan, alone, the same mark.
    Run::from(
        db.cmd()
            .env(RULE.0, RULE.1)
            .args(["fail-safely", "d0000002", "--reason", "INC-26 night"])
            .args(["--yes", "--break-glass-alone"])
            .output()
            .unwrap(),
    )
    .assert_code(0);
    let mut both = Vec::new();
    for id in ["d0000001", "d0000002"] {
        let listed = history(&db, &["--self-approved", "--deployment", id]);
        both.extend(listed["actions"].as_array().unwrap().clone());
    }
    both.sort_by_key(|a| std::cmp::Reverse(a["occurred_at"].as_str().unwrap_or("").to_string()));
    let both = serde_json::json!({ "actions": both });
    assert_eq!(both["actions"].as_array().unwrap().len(), 2, "{both:#}");
    assert_eq!(
        both["actions"][0]["audit"]["approval"]["plan_id"],
        Value::Null
    );
}

#[test]
fn a_forty_deployment_plan_is_applied_by_a_second_person() {
    if !other_user_available() {
        return;
    }
    let db = TestDb::scenarios();
    rebase_to_now(&mut db.client());
    strand_on_edge_07(&db, 38);
    let mut ids: Vec<String> = (1..=38)
        .map(|g| format!("e{g:07x}-0000-4000-8000-000000000000"))
        .collect();
    ids.extend([scenario(1), scenario(4)]);
    let mut batch = tempfile::NamedTempFile::new().unwrap();
    for id in &ids {
        writeln!(batch, "{id}").unwrap();
    }
    let (plan, printed) = make_plan(&db, &["--from", batch.path().to_str().unwrap()], &[]);
    assert_eq!(printed["deployments"].as_array().unwrap().len(), 40);
    let apply = as_postgres(
        &db.conninfo,
        &[
            "fail-safely",
            "--apply",
            plan.arg(),
            "--yes",
            "--rate",
            "50/s",
            "-o",
            "json",
        ],
        &[RULE],
    );
    apply.assert_code(0);
    let report = apply.json();
    assert_eq!(report["summary"]["applied"], 40, "{report:#}");
    let approvers: i64 = db
        .client()
        .query_one(
            "SELECT count(*) FROM deployment_events
             WHERE payload -> 'audit' ->> 'plan_id' = $1
               AND payload -> 'audit' -> 'approver' ->> 'os_user' = 'postgres'
               AND payload -> 'audit' -> 'self_approved' = 'false'::jsonb",
            &[&printed["plan_id"].as_str().unwrap()],
        )
        .unwrap()
        .get(0);
    assert_eq!(approvers, 40);
}
