//! The documents of the commands that act or follow an action:
//! fail-safely (applied, replayed, dry run) and wait.

use super::*;

#[test]
fn fail_safely_documents_every_key_it_prints() {
    let db = TestDb::scenarios();
    let run = |id: &str, flag: &str| {
        let args = ["fail-safely", id, "--reason", "INC-4711 json docs", flag];
        json(&db, &args, 0)
    };
    // A dry run on the operator_failed path; a teardown (with `operator`
    // in the payload, and evidence); and a replay of that teardown.
    let dry_run = run("d0000001", "--dry-run");
    let teardown = run("d0000002", "--yes");
    let replay = run("d0000002", "--yes");
    assert_eq!(dry_run["dry_run"], true);
    assert_eq!(teardown["path"], "teardown_requested");
    assert_eq!(replay["replayed"], true);
    // A batch: one applied, one refused (already failed), one planned.
    let mut file = tempfile::NamedTempFile::new().unwrap();
    std::io::Write::write_all(&mut file, b"d0000001\nd0000006\n").unwrap();
    let batch_args = [
        "fail-safely",
        "--from",
        file.path().to_str().unwrap(),
        "--reason",
        "INC-4711 json docs",
        "--yes",
        "--keep-going",
    ];
    let batch = json(&db, &batch_args, 4);
    assert_eq!(batch["summary"]["refused"], 1);
    // A plan (with one deployment left out), its apply, and a write alone
    // under the two-person rule (the audit's approval keys).
    let dir = tempfile::tempdir().unwrap();
    let plan_path = dir.path().join("plan.json");
    let plan_file = plan_path.to_str().unwrap();
    let mut planned = tempfile::NamedTempFile::new().unwrap();
    std::io::Write::write_all(&mut planned, b"d0000003\nd0000006\n").unwrap();
    let plan_args = [
        "fail-safely",
        "--from",
        planned.path().to_str().unwrap(),
        "--reason",
        "INC-4711 json docs",
        "--keep-going",
        "--plan-out",
        plan_file,
    ];
    let plan = json(&db, &plan_args, 0);
    assert_eq!(plan["left_out"][0]["deployment"], "d0000006");
    let applied = json(&db, &["fail-safely", "--apply", plan_file, "--yes"], 0);
    assert_eq!(applied["plan_id"], plan["plan_id"]);
    let alone_args = [
        "fail-safely",
        "d0000004",
        "--reason",
        "INC-4711 json docs",
        "--yes",
        "--break-glass-alone",
    ];
    let alone = json(&db, &alone_args, 0);
    assert_eq!(alone["event"]["payload"]["audit"]["self_approved"], true);
    // A plan recorded by the server (`approvals install`): its `record`.
    let recording = TestDb::scenarios();
    json(&recording, &["approvals", "install"], 0);
    let recorded_path = dir.path().join("recorded.json");
    let recorded_args = [
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-4711 json docs",
        "--plan-out",
        recorded_path.to_str().unwrap(),
    ];
    let recorded = json(&recording, &recorded_args, 0);
    assert_eq!(recorded["record"]["schema"], "pushleft_approvals");
    assert_documented(
        "pushleft-controller-fail-safely",
        &[
            dry_run, teardown, replay, batch, plan, applied, alone, recorded,
        ],
    );
}

#[test]
fn wait_documents_every_key_it_prints() {
    let db = TestDb::scenarios();
    // Verified at once (failed, nothing reserved), and timed out (an
    // instance still stopping): exit 0 and exit 6.
    let verified = json(&db, &["wait", "d0000006", "--timeout", "5s"], 0);
    let timed_out = json(
        &db,
        &["wait", "d0000007", "--timeout", "1s", "--interval", "200ms"],
        6,
    );
    assert_eq!(verified["verified"], true);
    assert_eq!(timed_out["timed_out"], true);
    // The other kinds of pending and blocked: a teardown that waits for a
    // dead node (d0000003), reservations a network attachment keeps
    // (d0000004), and, once that attachment is gone, reservations the
    // reaper has yet to release.
    for n in [3, 4] {
        let args = [
            "fail-safely",
            &scenario(n),
            "--reason",
            "INC-4711 json docs",
            "--yes",
        ];
        json(&db, &args, 0);
    }
    let wait = |n: u8, code: i32| {
        json(
            &db,
            &[
                "wait",
                &scenario(n),
                "--timeout",
                "1s",
                "--interval",
                "200ms",
            ],
            code,
        )
    };
    // Kept waiting through the node's reboot: it times out (6).
    let dead_node = json(
        &db,
        &[
            "wait",
            &scenario(3),
            "--wait-for-node",
            "--timeout",
            "1s",
            "--interval",
            "200ms",
        ],
        6,
    );
    let attachment = wait(4, 0);
    assert_eq!(
        dead_node["blocked"][0]["kind"], "dead_node",
        "{dead_node:#}"
    );
    assert_eq!(attachment["blocked"][0]["kind"], "network_attachment");
    db.client()
        .batch_execute(&format!(
            "DELETE FROM network_attachments WHERE deployment_id = '{}'",
            scenario(4)
        ))
        .unwrap();
    let reaper = wait(4, 6);
    assert_eq!(
        reaper["pending"][0]["kind"], "reservations_held",
        "{reaper:#}"
    );
    // Read through row-level security: never verified, and says why.
    let filtered = super::reads::filtered_role(&db);
    let args = ["wait", "d0000006", "--timeout", "1s", "--interval", "200ms"];
    let blind = super::reads::json_as_code(&db, &filtered, &args, 6);
    assert_eq!(blind["blocked"][0]["kind"], "row_security", "{blind:#}");
    super::reads::drop_filtered_role(&db);
    assert_documented(
        "pushleft-controller-wait",
        &[verified, timed_out, dead_node, attachment, reaper, blind],
    );
}
