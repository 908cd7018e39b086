//! `--rate`: a batch's writes paced, the pace shown in the events' times
//! and reported in the summary.

use super::*;
use crate::clock::rebase_to_now;

#[test]
fn rate_4_per_second_paces_ten_deployments() {
    let db = TestDb::scenarios();
    rebase_to_now(&mut db.client());
    let batch = stranded_batch(&db, 10);
    let started = std::time::Instant::now();
    let run = db.run(&[
        "fail-safely",
        "--from",
        batch.path().to_str().unwrap(),
        "--reason",
        "INC-26 paced",
        "--yes",
        "--rate",
        "4/s",
        "-o",
        "json",
    ]);
    let took = started.elapsed();
    run.assert_code(0);
    assert!(took.as_secs_f64() >= 2.25, "took {took:?}");
    let report = run.json();
    assert_eq!(report["summary"]["applied"], 10);
    let rate = &report["rate"];
    assert_eq!(rate["limit_per_second"], 4.0);
    assert_eq!(rate["runs"], 10);
    assert!(rate["kept_per_second"].as_f64().unwrap() <= 4.05, "{rate}");
    // The events' own times show the pace: a quarter second apart.
    let times: Vec<f64> = db
        .client()
        .query(
            "SELECT extract(epoch FROM occurred_at)::float8 FROM deployment_events
             WHERE payload ->> 'reason' = 'INC-26 paced' ORDER BY occurred_at",
            &[],
        )
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(times.len(), 10);
    for pair in times.windows(2) {
        assert!(pair[1] - pair[0] >= 0.2, "{times:?}");
    }
    assert!(times[9] - times[0] >= 2.2, "{times:?}");
}

#[test]
fn ctrl_c_stops_a_paced_batch_between_deployments_and_a_rerun_resumes() {
    let db = TestDb::scenarios();
    rebase_to_now(&mut db.client());
    let batch = stranded_batch(&db, 10);
    let file = batch.path().to_str().unwrap();
    let args = [
        "fail-safely",
        "--from",
        file,
        "--reason",
        "INC-26 stop",
        "--yes",
    ];
    let mut cmd = crate::support::bin();
    cmd.env("DATABASE_URL", &db.conninfo)
        .stdin(std::process::Stdio::inherit())
        .env("TERM", "dumb")
        .args(args)
        .args(["--rate", "2/s", "-o", "json"]);
    let mut session = rexpect::session::spawn_command(cmd, Some(20_000)).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1800));
    session.send_control('c').unwrap();
    let _ = session.exp_eof();
    let status = format!("{:?}", session.process().wait().unwrap());
    assert!(status.contains("130"), "{status}");
    let written = |db: &TestDb| -> i64 {
        db.client()
            .query_one(
                "SELECT count(*) FROM deployment_events WHERE payload ->> 'reason' = 'INC-26 stop'",
                &[],
            )
            .unwrap()
            .get(0)
    };
    let done = written(&db);
    assert!((1..10).contains(&done), "{done} written before Ctrl-C");
    // The rerun replays what was done and does the rest.
    let mut rerun = args.to_vec();
    rerun.extend(["--rate", "50/s", "-o", "json"]);
    let report = db.run(&rerun).assert_code(0).json();
    assert_eq!(report["summary"]["replayed"], done);
    assert_eq!(report["summary"]["applied"], 10 - done);
    assert_eq!(written(&db), 10);
}
