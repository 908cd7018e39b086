//! `fail-safely --from`: a big incident's batch, each deployment in its
//! own guarded transaction, exactly as the single command would.

use std::io::Write;

use crate::clock::rebase_to_now;
use crate::support::{TestDb, scenario, strand_on_edge_07};

/// The scenarios (rebased) plus `n` deployments stranded on edge-07: each
/// deploying for 2 hours with no event, its instance active on edge-07.
fn stranded_db(n: u32) -> TestDb {
    let db = TestDb::scenarios();
    rebase_to_now(&mut db.client());
    strand_on_edge_07(&db, n);
    db
}

fn stranded(g: u32) -> String {
    format!("e{g:07x}-0000-4000-8000-000000000000")
}

fn batch_file(ids: &[String]) -> tempfile::NamedTempFile {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    writeln!(file, "# INC-7 edge-07 died").unwrap();
    for id in ids {
        writeln!(file, "{id}").unwrap();
    }
    file
}

fn run_batch(db: &TestDb, file: &tempfile::NamedTempFile, extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "fail-safely",
        "--from",
        file.path().to_str().unwrap(),
        "--reason",
        "INC-7 edge-07 died",
        "--output",
        "json",
    ];
    args.extend_from_slice(extra);
    let run = db.run(&args);
    let doc = run.json();
    assert_eq!(doc["exit_code"], run.code, "{}", run.stderr);
    doc
}

fn results(doc: &serde_json::Value) -> Vec<String> {
    doc["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["result"].as_str().unwrap().to_string())
        .collect()
}

/// What the break-glass writes, comparable across databases.
fn written(db: &TestDb) -> (Vec<(String, String)>, Vec<String>) {
    let mut client = db.client();
    let statuses = client
        .query("SELECT id::text, status FROM deployments ORDER BY id", &[])
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    let events = client
        .query(
            "SELECT deployment_id::text || ' #' || sequence || ' ' || kind || ' '
                    || (payload #- '{audit,host}' #- '{audit,stuck_for_seconds}')::text
             FROM deployment_events
             WHERE kind IN ('operator_failed', 'teardown_requested')
             ORDER BY deployment_id, sequence",
            &[],
        )
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    (statuses, events)
}

#[test]
fn a_batch_over_max_is_refused_before_anything_is_written() {
    let db = stranded_db(60);
    let before = db.dump();
    let ids: Vec<String> = (1..=60).map(stranded).collect();
    let file = batch_file(&ids);
    let run = db.run(&[
        "fail-safely",
        "--from",
        file.path().to_str().unwrap(),
        "--reason",
        "INC-7 edge-07 died",
        "--yes",
    ]);
    run.assert_code(4);
    assert!(run.stderr.contains("more than --max 50"), "{}", run.stderr);
    assert_eq!(db.dump(), before, "nothing written");
}

#[test]
fn forty_deployments_get_exactly_what_forty_single_runs_would_write() {
    let (batch_db, single_db) = (stranded_db(38), stranded_db(38));
    let mut ids: Vec<String> = (1..=38).map(stranded).collect();
    ids.push(scenario(1));
    ids.push(scenario(4));
    let file = batch_file(&ids);
    let doc = run_batch(&batch_db, &file, &["--yes"]);
    assert_eq!(doc["exit_code"], 0, "{doc:#}");
    assert_eq!(doc["summary"]["applied"], 40);
    for id in &ids {
        single_db
            .run(&["fail-safely", id, "--reason", "INC-7 edge-07 died", "--yes"])
            .assert_code(0);
    }
    assert_eq!(written(&batch_db), written(&single_db));
    // A rerun of the same batch writes nothing: every one is a replay.
    let before = batch_db.dump();
    let again = run_batch(&batch_db, &file, &["--yes"]);
    assert_eq!(again["summary"]["replayed"], 40, "{again:#}");
    assert_eq!(again["exit_code"], 0);
    assert_eq!(batch_db.dump(), before);
}

#[test]
fn a_refusal_mid_batch_stops_it_unless_keep_going() {
    // d0000006 is already failed: nothing to do, refused.
    let ids = [scenario(1), scenario(6), scenario(4)];
    let file = batch_file(&ids);
    let db = stranded_db(0);
    let stopped = run_batch(&db, &file, &["--yes"]);
    assert_eq!(results(&stopped), ["applied", "refused", "skipped"]);
    assert_eq!(stopped["exit_code"], 4);
    // The rerun goes on past it: the first is a replay now.
    let resumed = run_batch(&db, &file, &["--yes", "--keep-going"]);
    assert_eq!(results(&resumed), ["replayed", "refused", "applied"]);
    assert_eq!(resumed["exit_code"], 4);
    let (statuses, _) = written(&db);
    let status = |n: u8| {
        statuses
            .iter()
            .find(|(id, _)| *id == scenario(n))
            .map(|(_, s)| s.clone())
    };
    assert_eq!(status(1).as_deref(), Some("failed"));
    assert_eq!(status(4).as_deref(), Some("failed"));
}

#[test]
fn a_dry_run_plans_every_deployment_and_writes_nothing() {
    let db = stranded_db(3);
    let before = db.dump();
    // The JSON of `stuck` works as a batch.
    let stuck = db.run(&["stuck", "--node", "edge-07", "--output", "json"]);
    stuck.assert_code(0);
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(stuck.stdout.as_bytes()).unwrap();
    let doc = run_batch(&db, &file, &["--dry-run"]);
    // The three stranded and d0000003 wait on edge-07.
    assert_eq!(doc["summary"]["planned"], 4, "{doc:#}");
    assert_eq!(doc["dry_run"], true);
    assert_eq!(db.dump(), before);
}

#[test]
fn sixteen_runs_of_the_same_batch_write_each_event_once() {
    let db = stranded_db(10);
    let ids: Vec<String> = (1..=10).map(stranded).collect();
    let file = batch_file(&ids);
    let runs: Vec<_> = (0..16)
        .map(|_| {
            db.cmd()
                .args([
                    "fail-safely",
                    "--from",
                    file.path().to_str().unwrap(),
                    "--reason",
                    "INC-7 edge-07 died",
                    "--yes",
                    "--output",
                    "json",
                ])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for run in runs {
        let out = run.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let events: i64 = db
        .client()
        .query_one(
            "SELECT count(*) FROM deployment_events WHERE kind = 'teardown_requested'
               AND deployment_id::text LIKE 'e%'",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(events, 10);
}

/// On a terminal: one plan, one question — the number of deployments.
fn spawn_batch(db: &TestDb, file: &tempfile::NamedTempFile) -> rexpect::session::PtySession {
    let mut cmd = crate::support::bin();
    cmd.env("DATABASE_URL", &db.conninfo)
        .stdin(std::process::Stdio::inherit())
        .env("TERM", "dumb")
        .args([
            "fail-safely",
            "--from",
            file.path().to_str().unwrap(),
            "--reason",
            "INC-7 edge-07 died",
            "--output",
            "table",
        ]);
    rexpect::session::spawn_command(cmd, Some(20_000)).expect("spawning under a pty")
}

#[test]
fn on_a_terminal_the_operator_types_the_number_of_deployments() {
    let db = stranded_db(2);
    let file = batch_file(&[stranded(1), stranded(2), scenario(1)]);
    let before = db.dump();
    let mut wrong = spawn_batch(&db, &file);
    // The waits grouped, then the counts directly above the prompt.
    wrong
        .exp_string("teardown will wait for node edge-07")
        .unwrap();
    wrong
        .exp_string("PLAN for 3 deployments: 3 to write")
        .unwrap();
    wrong.exp_string("deployments to write (3)").unwrap();
    wrong.send_line("2").unwrap();
    wrong.exp_string("is not 3: nothing was written").unwrap();
    let _ = wrong.exp_eof();
    assert_eq!(db.dump(), before, "a wrong number writes nothing");

    let mut right = spawn_batch(&db, &file);
    right.exp_string("deployments to write (3)").unwrap();
    right.send_line("3").unwrap();
    right.exp_string("3 deployments: 3 applied").unwrap();
    let _ = right.exp_eof();
    let status = format!("{:?}", right.process().wait().unwrap());
    assert!(
        status.starts_with("Exited(") && status.ends_with(", 0)"),
        "{status}"
    );
}

#[test]
fn an_ambiguous_prefix_in_a_batch_reads_as_one_line() {
    let db = TestDb::scenarios();
    let file = batch_file(&["d000000".to_string()]);
    let run = db.run(&[
        "fail-safely",
        "--from",
        file.path().to_str().unwrap(),
        "--reason",
        "INC-7 edge-07 died",
        "--dry-run",
        "--keep-going",
        "-o",
        "table",
    ]);
    let line = run
        .stdout
        .lines()
        .find(|l| l.contains("d000000 "))
        .unwrap_or_else(|| panic!("a line for the prefix: {}", run.stdout));
    assert!(!run.stdout.contains("\\n"), "a literal \\n: {}", run.stdout);
    assert!(line.contains("; "), "the candidates on one line: {line}");
}

#[test]
fn a_batch_that_did_not_finish_names_its_rerun_and_each_failure_on_stderr() {
    let ids = [scenario(1), scenario(6), scenario(4)];
    let file = batch_file(&ids);
    let path = file.path().to_str().unwrap();
    let db = stranded_db(0);
    let batch = [
        "fail-safely",
        "--from",
        path,
        "--reason",
        "INC-7 edge-07 died",
    ];
    let started = std::time::Instant::now();
    for output in ["json", "table"] {
        let run = db.run(&[&batch[..], &["--yes", "--output", output]].concat());
        run.assert_code(4);
        // The refusal is an error line on stderr too, whatever the format.
        let refused = format!("error: deployment {} refused: ", scenario(6));
        assert!(run.stderr.contains(&refused), "{output}: {}", run.stderr);
        // The next step is the same batch again, past the refusal (it
        // would stop there again), never `wait --from`.
        let rerun = format!(
            "pushleft-controller fail-safely --from {path} --reason 'INC-7 edge-07 died' \
             --keep-going"
        );
        if output == "json" {
            let doc = run.json();
            assert_eq!(results(&doc), ["applied", "refused", "skipped"]);
            assert_eq!(doc["next_command"], rerun.as_str(), "{doc:#}");
            assert_eq!(doc["summary"]["in_doubt"], 0);
        } else {
            // A command too long for the screen continues with ` \`
            // between its arguments: read it back as one line.
            let joined = run
                .stdout
                .split(" \\\n")
                .map(str::trim_start)
                .collect::<Vec<_>>()
                .join(" ");
            assert!(joined.contains(&format!("Next: {rerun}")), "{}", run.stdout);
            assert!(
                run.stdout.contains("did not finish: rerun it"),
                "{}",
                run.stdout
            );
            assert!(!run.stdout.contains("wait --from"), "{}", run.stdout);
        }
    }
    // The rerun it names replays what was applied and does the rest; once
    // finished, the next step is wait for what was written.
    let resumed = run_batch(&db, &file, &["--yes", "--keep-going"]);
    assert_eq!(results(&resumed), ["replayed", "refused", "applied"]);
    let next = resumed["next_command"].as_str().unwrap_or_default();
    assert!(
        next.starts_with("pushleft-controller wait --from"),
        "{next}"
    );
    let (statuses, _) = written(&db);
    let failed = statuses.iter().filter(|(_, s)| s == "failed").count();
    assert!(failed >= 2, "{statuses:?}");
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
}
