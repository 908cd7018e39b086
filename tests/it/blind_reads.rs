//! Reads that cannot see every row (README, "Reads row-level security
//! filters"): where row-level security applies to the reading role,
//! `diagnose` names no path and no `fail-safely`, says which tables,
//! policies and role and how to read instead; `stuck` calls nothing stuck
//! and offers no command; `wait` never verifies. As the tables' owner
//! (whom the policies do not filter) the same deployment diagnoses as
//! usual, so the check does not over-fire. A role without SELECT on a
//! table gets a refusal naming the table and the role.

use serde_json::Value;

use crate::guard::run_with;
use crate::support::{Run, TestDb, scenario};

/// Stuck queued, nothing dispatched: operator_failed.
const QUEUED: u8 = 1;
/// Stuck building, its job targeted at build-03: teardown_requested.
const DISPATCHED: u8 = 2;
/// Failed yesterday, nothing held: `wait` verifies it at once.
const FAILED: u8 = 6;

/// Two login roles: `own_…` owns deployment_events and jobs (row-level
/// security does not filter an owner without FORCE), `op_…` may read
/// everything but is filtered. Their connection strings.
struct Roles {
    owner: String,
    operator: String,
    owner_url: String,
    operator_url: String,
}

fn roles(db: &TestDb) -> Roles {
    let (owner, operator) = (format!("own_{}", db.name), format!("op_{}", db.name));
    db.client()
        .batch_execute(&format!(
            "CREATE ROLE {owner} LOGIN;
             CREATE ROLE {operator} LOGIN;
             GRANT USAGE ON SCHEMA public TO {owner}, {operator};
             GRANT SELECT ON ALL TABLES IN SCHEMA public TO {owner}, {operator};
             ALTER TABLE deployment_events OWNER TO {owner};
             ALTER TABLE jobs OWNER TO {owner};"
        ))
        .unwrap();
    Roles {
        owner_url: format!("{} user={owner}", db.conninfo),
        operator_url: format!("{} user={operator}", db.conninfo),
        owner,
        operator,
    }
}

fn drop_roles(db: &TestDb, r: &Roles) {
    let mut client = db.client();
    let _ = client.batch_execute("ALTER TABLE deployment_events OWNER TO CURRENT_USER");
    let _ = client.batch_execute("ALTER TABLE jobs OWNER TO CURRENT_USER");
    for name in [&r.owner, &r.operator] {
        let _ = client.batch_execute(&format!(
            "DROP OWNED BY {name} CASCADE; DROP ROLE IF EXISTS {name}"
        ));
    }
}

fn as_role(db: &TestDb, url: &str, args: &[&str]) -> Run {
    run_with(db, &[("DATABASE_URL", url)], args)
}

/// `diagnose -o json` as `url`: exit 0 and the verdict.
fn verdict(db: &TestDb, url: &str, n: u8) -> Value {
    let run = as_role(db, url, &["diagnose", &scenario(n), "-o", "json"]);
    run.assert_code(0);
    run.json()["verdict"].clone()
}

#[track_caller]
fn cannot_vouch(v: &Value, role: &str, table: &str, policy: &str) {
    assert_eq!(v["path"], "none", "{v:#}");
    assert_eq!(v["decidable"], false, "{v:#}");
    assert_eq!(v["stuck"], false, "{v:#}");
    assert!(v["next_command"].is_null(), "{v:#}");
    let b = &v["cannot_vouch"];
    assert_eq!(b["reason"], "row_security", "{v:#}");
    assert_eq!(b["role"], role, "{v:#}");
    let t = b["tables"]
        .as_array()
        .and_then(|ts| ts.iter().find(|t| t["table"] == table))
        .unwrap_or_else(|| panic!("no {table} in {b:#}"));
    assert_eq!(t["policies"][0], policy, "{b:#}");
}

#[track_caller]
fn no_fail_safely(what: &str, text: &str) {
    assert!(
        !text.contains("fail-safely"),
        "{what} offers fail-safely:\n{text}"
    );
}

/// A policy hides the newest event (one just appended) from the operator:
/// to it the deployment looks quiet for 45m, to the owner it just moved.
#[test]
fn a_hidden_newest_event_is_no_verdict_and_no_stuck_deployment() {
    let db = TestDb::scenarios();
    let r = roles(&db);
    db.client()
        .batch_execute(&format!(
            "INSERT INTO deployment_events (sequence, id, org_id, deployment_id, kind, occurred_at)
             SELECT max(sequence) + 1, 'e1000001-0000-4000-8000-000000000001', max(org_id::text)::uuid,
                    deployment_id, 'build_progress', now()
             FROM deployment_events WHERE deployment_id = '{id}' GROUP BY deployment_id;
             ALTER TABLE deployment_events ENABLE ROW LEVEL SECURITY;
             CREATE POLICY hide_recent ON deployment_events
               USING (occurred_at < now() - interval '10 minutes');",
            id = scenario(QUEUED)
        ))
        .unwrap();

    // The owner sees the new event: a path, not stuck, nothing to vouch for.
    let owner = verdict(&db, &r.owner_url, QUEUED);
    assert_eq!(owner["path"], "operator_failed", "{owner:#}");
    assert_eq!(owner["decidable"], true, "{owner:#}");
    assert_eq!(owner["stuck"], false, "{owner:#}");
    assert!(owner["cannot_vouch"].is_null(), "{owner:#}");
    assert_eq!(owner["last_event"]["kind"], "build_progress", "{owner:#}");

    // The operator would see it stuck 45m: it gets no path instead.
    let op = verdict(&db, &r.operator_url, QUEUED);
    cannot_vouch(&op, &r.operator, "deployment_events", "hide_recent");
    let next = op["cannot_vouch"]["next_step"].as_str().unwrap_or_default();
    assert!(
        next.contains(&r.owner) && next.contains("BYPASSRLS"),
        "{next}"
    );

    // stuck: as the owner the deployment is not listed; as the operator
    // it is not called stuck either, only "cannot tell", without a command.
    let owned = as_role(&db, &r.owner_url, &["stuck", "-o", "json"]);
    owned.assert_code(0);
    let owned = owned.json();
    let ids = |list: &Value| -> Vec<String> {
        list.as_array()
            .map(|rows| {
                rows.iter()
                    .map(|d| d["deployment_id"].to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    assert!(
        !ids(&owned["deployments_stuck"])
            .iter()
            .any(|i| i.contains(&scenario(QUEUED)))
    );
    assert!(!owned["deployments_stuck"].as_array().unwrap().is_empty());
    assert!(owned["cannot_vouch"].is_null(), "{owned:#}");

    let scan = as_role(&db, &r.operator_url, &["stuck", "-o", "json"]);
    scan.assert_code(0);
    let scan = scan.json();
    assert_eq!(
        scan["deployments_stuck"],
        Value::Array(Vec::new()),
        "{scan:#}"
    );
    let unsure = scan["cannot_tell"].as_array().cloned().unwrap_or_default();
    let row = unsure
        .iter()
        .find(|d| d["deployment_id"] == scenario(QUEUED))
        .unwrap_or_else(|| panic!("{} not in cannot_tell: {scan:#}", scenario(QUEUED)));
    assert_eq!(row["path"], "none");
    assert!(row["next_command"].is_null(), "{row:#}");
    for lease in scan["leases_orphaned"]
        .as_array()
        .cloned()
        .unwrap_or_default()
    {
        assert!(lease["next_command"].is_null(), "{lease:#}");
    }
    assert_eq!(
        scan["cannot_vouch"]["tables"][0]["policies"][0],
        "hide_recent"
    );
    let table = as_role(&db, &r.operator_url, &["stuck"]);
    table.assert_code(0);
    no_fail_safely("stuck", &table.stdout);
    no_fail_safely(
        "stuck's hint",
        &table.stderr.replace("fail-safely refuses", ""),
    );
    assert!(
        table.stdout.contains("Cannot tell whether stuck"),
        "{}",
        table.stdout
    );
    assert!(table.stdout.contains("hide_recent"), "{}", table.stdout);
    let ticket = as_role(&db, &r.operator_url, &["stuck", "-o", "markdown"]);
    ticket.assert_code(0);
    let text = ticket.stdout.replace("\\_", "_");
    no_fail_safely("stuck -o markdown", &text);
    assert!(
        text.contains("Cannot vouch") && text.contains("hide_recent"),
        "{text}"
    );
    // An alert never goes quiet because rows are hidden from it.
    as_role(&db, &r.operator_url, &["stuck", "--exit-code"]).assert_code(10);
    let metrics = as_role(&db, &r.operator_url, &["stuck", "-o", "openmetrics"]);
    metrics.assert_code(0);
    let queued = "pushleft_deployments_stuck{status=\"queued\",path=\"none\"} ";
    let counted = metrics.stdout.lines().find_map(|l| l.strip_prefix(queued));
    assert!(counted.is_some_and(|n| n != "0"), "{}", metrics.stdout);
    drop_roles(&db, &r);
}

/// A policy hides the targeted job: to the operator the deployment looks
/// undispatched (operator_failed), though teardown_requested is right.
#[test]
fn a_hidden_dispatched_job_is_no_verdict_on_any_output() {
    let db = TestDb::scenarios();
    let r = roles(&db);
    db.client()
        .batch_execute(
            "ALTER TABLE jobs ENABLE ROW LEVEL SECURITY;
             CREATE POLICY hide_targeted ON jobs USING (target_node_id IS NULL);",
        )
        .unwrap();
    let owner = verdict(&db, &r.owner_url, DISPATCHED);
    assert_eq!(owner["path"], "teardown_requested", "{owner:#}");
    assert!(
        owner["next_command"]
            .as_str()
            .unwrap_or_default()
            .contains("fail-safely")
    );
    // The superuser the tests connect as bypasses row-level security.
    let run = db.run(&["diagnose", &scenario(DISPATCHED), "-o", "json"]);
    run.assert_code(0);
    assert_eq!(run.json()["verdict"]["path"], "teardown_requested");

    let op = verdict(&db, &r.operator_url, DISPATCHED);
    cannot_vouch(&op, &r.operator, "jobs", "hide_targeted");
    for format in ["table", "markdown"] {
        let run = as_role(
            &db,
            &r.operator_url,
            &[
                "diagnose",
                &scenario(DISPATCHED),
                "-o",
                format,
                "--no-pager",
            ],
        );
        run.assert_code(0);
        let out = &run.stdout.replace("\\_", "_");
        no_fail_safely(format, out);
        for words in [
            "cannot vouch",
            "hide_targeted",
            &r.operator,
            &r.owner,
            "BYPASSRLS",
        ] {
            assert!(out.contains(words), "{format}: no {words:?} in:\n{out}");
        }
        assert!(!out.contains("operator_failed"), "{format}:\n{out}");
        assert!(!out.contains("stuck: building"), "{format}:\n{out}");
    }
    drop_roles(&db, &r);
}

/// `wait` on a deployment failed yesterday verifies at once as the owner;
/// as the filtered operator it never verifies (the policy could hide a
/// live instance) and says why.
#[test]
fn wait_never_verifies_from_a_filtered_read() {
    let db = TestDb::scenarios();
    let r = roles(&db);
    db.client()
        .batch_execute(
            "ALTER TABLE jobs ENABLE ROW LEVEL SECURITY;
             CREATE POLICY hide_targeted ON jobs USING (target_node_id IS NULL);",
        )
        .unwrap();
    let id = scenario(FAILED);
    let args = ["wait", id.as_str(), "--timeout", "3s", "--interval", "1s"];
    as_role(&db, &r.owner_url, &args).assert_code(0);
    let run = as_role(&db, &r.operator_url, &args);
    run.assert_code(6);
    assert!(
        run.stderr.contains("row-level security applies to role")
            && run.stderr.contains("hide_targeted"),
        "{}",
        run.stderr
    );
    drop_roles(&db, &r);
}

/// No SELECT on one table the decision reads: a refusal that names the
/// table, the role and what to do, and no verdict from the rest.
#[test]
fn a_table_the_role_may_not_read_is_a_refusal_naming_table_and_role() {
    let db = TestDb::scenarios();
    let r = roles(&db);
    db.client()
        .batch_execute(&format!(
            "REVOKE SELECT ON agent_job_results FROM {}",
            r.operator
        ))
        .unwrap();
    for format in ["table", "json"] {
        let run = as_role(
            &db,
            &r.operator_url,
            &["diagnose", &scenario(DISPATCHED), "-o", format],
        );
        run.assert_code(4);
        for words in [
            "permission denied",
            "agent_job_results",
            &format!("as role {}", r.operator),
            "GRANT SELECT",
        ] {
            assert!(
                run.stderr.contains(words),
                "{format}: no {words:?}: {}",
                run.stderr
            );
        }
        no_fail_safely(format, &run.stdout);
        assert!(!run.stdout.contains("\"verdict\""), "{}", run.stdout);
    }
    let scan = as_role(&db, &r.operator_url, &["stuck"]);
    scan.assert_code(4);
    assert!(scan.stderr.contains("agent_job_results"), "{}", scan.stderr);
    assert!(
        scan.stderr.contains(&format!("as role {}", r.operator)),
        "{}",
        scan.stderr
    );
    drop_roles(&db, &r);
}
