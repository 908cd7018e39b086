//! What operators type back (README, "Durations and times"): every
//! duration option takes the compounds the tool prints (`2h30m`, `29d8h`),
//! `history` takes the times it prints and local times (TZ), and the id
//! as `history ID`; `--plan-out` never overwrites a plan; a replay is not
//! paced.

use serde_json::Value;

use crate::cli::bash_complete_with;
use crate::support::{TestDb, scenario};
use crate::two_person::stranded_batch;

fn actions(db: &TestDb, args: &[&str]) -> Vec<String> {
    let mut all = vec!["history", "-o", "json"];
    all.extend_from_slice(args);
    let doc: Value = db.run(&all).assert_code(0).json();
    doc["actions"]
        .as_array()
        .unwrap_or_else(|| panic!("actions: {doc:#}"))
        .iter()
        .map(|a| a["deployment_id"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn every_duration_option_takes_the_compounds_the_tool_prints() {
    let db = TestDb::scenarios();
    for args in [
        &["history", "--since", "2h30m"][..],
        &["history", "--since", "3h15m ago", "--until", "1m30s"],
        &["stuck", "--for", "1h30m", "--grace", "1m30s"],
        &[
            "stuck", "--for", "29d8h", "--watch", "1m30s", "--count", "1",
        ],
        &["fleet", "list", "--stale-after", "2m30s"],
        &["diagnose", "d0000009", "--stale-after", "1h30m"],
        &["doctor", "--statement-timeout", "1m30s"],
        &[
            "fail-safely",
            "d0000002",
            "--reason",
            "INC-9 dur",
            "--dry-run",
        ],
    ] {
        let mut all = args.to_vec();
        all.extend(
            ["--lock-timeout", "1s500ms"]
                .iter()
                .filter(|_| args[0] == "fail-safely"),
        );
        all.extend(["--connect-timeout", "1m30s", "-o", "json"]);
        let run = db.run(&all);
        assert!(
            [0, 10].contains(&run.code),
            "{all:?}: {}\n{}",
            run.code,
            run.stderr
        );
    }
    // wait's timeout: 1h30m accepted (d0000006 is failed already: done).
    db.run(&[
        "wait",
        "d0000006",
        "--timeout",
        "1h30m",
        "--interval",
        "1s500ms",
    ])
    .assert_code(0);
    // A bad part is named, with an example.
    let run = db.run(&["wait", "d0000006", "--timeout", "1h30x"]);
    run.assert_code(2);
    assert!(
        run.stderr
            .contains("`1h30x`: `30x` has an unknown unit `x`")
            && run.stderr.contains("as in 1h30m"),
        "{}",
        run.stderr
    );
}

#[test]
fn history_takes_the_times_it_prints_and_local_times_in_tz() {
    let db = TestDb::scenarios();
    let all = actions(&db, &[]);
    assert!(!all.is_empty());
    for since in [
        "1970-01-01T00:00:00Z",
        "1970-01-01 00:00:00Z",
        "1970-01-01 00:00Z",
        "1970-01-01 00:00:00 UTC",
        "1970-01-02 01:00",
        "1970-01-02 01:00:30",
        "1970-01-02",
    ] {
        assert_eq!(actions(&db, &["--since", since]), all, "{since}");
    }
    // In the future: nothing, in UTC as in the local zone.
    for since in ["2999-12-01 20:05", "2999-12-01 20:05Z", "2999-12-01"] {
        assert!(actions(&db, &["--since", since]).is_empty(), "{since}");
    }
    // A local time is read in TZ: the same instant given two ways.
    let local = |tz: &str, args: &[&str]| {
        let mut cmd = db.cmd();
        cmd.env("TZ", tz)
            .arg("history")
            .args(args)
            .args(["-o", "json"]);
        crate::support::Run::from(cmd.output().expect("running history"))
    };
    let berlin = local("Europe/Berlin", &["--since", "2026-12-01 21:05"]);
    let utc = local("UTC", &["--since", "2026-12-01 20:05"]);
    assert_eq!(
        berlin.assert_code(0).json()["actions"],
        utc.assert_code(0).json()["actions"]
    );
    // Daylight saving: refused, never guessed.
    let twice = local("Europe/Berlin", &["--since", "2026-10-25 02:30"]);
    twice.assert_code(2);
    assert!(
        twice
            .stderr
            .contains("happens twice in the local time zone (TZ=Europe/Berlin)")
            && twice.stderr.contains(
                "2026-10-25 00:30:00Z (the first time) or 2026-10-25 01:30:00Z (the second)"
            ),
        "{}",
        twice.stderr
    );
    let skipped = local("Europe/Berlin", &["--until", "2026-03-29 02:30"]);
    skipped.assert_code(2);
    assert!(
        skipped
            .stderr
            .contains("does not exist in the local time zone"),
        "{}",
        skipped.stderr
    );
    // --help says which zone a time without one means.
    let help = db.run(&["history", "--help"]);
    assert!(
        help.stdout
            .contains("local time zone: TZ, else the system's"),
        "{}",
        help.stdout
    );
}

#[test]
fn history_takes_the_deployment_as_its_argument() {
    let db = TestDb::scenarios();
    db.run(&[
        "fail-safely",
        "d0000002",
        "--reason",
        "INC-9 positional",
        "--yes",
    ])
    .assert_code(0);
    let by_flag = actions(&db, &["--deployment", "d0000002"]);
    assert_eq!(by_flag, [scenario(2)]);
    assert_eq!(actions(&db, &["d0000002"]), by_flag);
    assert_eq!(actions(&db, &[&scenario(2)]), by_flag);
    let both = db.run(&["history", "d0000002", "--deployment", "d0000002"]);
    both.assert_code(2);
    assert!(
        both.stderr.contains("cannot be used with"),
        "{}",
        both.stderr
    );
    // Completed from the database, as diagnose's id.
    let env = [("DATABASE_URL", db.conninfo.as_str())];
    let offered = bash_complete_with(&env, &["pushleft-controller", "history", "d"]);
    assert!(offered.contains(&scenario(1)), "{offered:?}");
    let flag = bash_complete_with(
        &env,
        &["pushleft-controller", "history", "--deployment", "d"],
    );
    assert!(flag.contains(&scenario(1)), "{flag:?}");
}

#[test]
fn a_second_plan_out_to_the_same_file_is_refused_and_force_replaces_it() {
    let db = TestDb::scenarios();
    let dir = tempfile::tempdir().expect("a directory");
    let out = dir.path().join("plan.json");
    let out = out.to_str().expect("a UTF-8 path");
    let plan = |reason: &str, extra: &[&str]| {
        let mut args = vec![
            "fail-safely",
            "d0000002",
            "--reason",
            reason,
            "--plan-out",
            out,
        ];
        args.extend_from_slice(extra);
        db.run(&args)
    };
    plan("INC-9 first", &[]).assert_code(0);
    let first = std::fs::read_to_string(out).expect("the plan");
    let again = plan("INC-9 second", &[]);
    again.assert_code(2);
    assert!(
        again.stderr.contains("exists and is not overwritten")
            && again
                .stderr
                .contains("give another name, or --force to replace it"),
        "{}",
        again.stderr
    );
    assert_eq!(std::fs::read_to_string(out).expect("the plan"), first);
    plan("INC-9 second", &["--force"]).assert_code(0);
    let second = std::fs::read_to_string(out).expect("the plan");
    assert!(second.contains("INC-9 second") && !second.contains("INC-9 first"));
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .expect("the directory")
        .collect();
    assert_eq!(names.len(), 1, "no temporary file left: {names:?}");
}

#[test]
fn a_replay_of_an_applied_plan_is_not_paced() {
    let db = TestDb::scenarios();
    crate::clock::rebase_to_now(&mut db.client());
    let n = 8;
    let batch = stranded_batch(&db, n);
    let dir = tempfile::tempdir().expect("a directory");
    let plan = dir.path().join("plan.json");
    let plan = plan.to_str().expect("a UTF-8 path");
    let from = batch.path().to_str().expect("a UTF-8 path");
    db.run(&[
        "fail-safely",
        "--from",
        from,
        "--reason",
        "INC-9 replay",
        "--plan-out",
        plan,
    ])
    .assert_code(0);
    let apply = [
        "fail-safely",
        "--apply",
        plan,
        "--yes",
        "--rate",
        "50/s",
        "-o",
        "json",
    ];
    let first = db.run(&apply).assert_code(0).json();
    assert_eq!(first["summary"]["applied"], n);
    // At 1/s the eight writes would take 7 s; the eight replays do not wait.
    let slow = [
        "fail-safely",
        "--apply",
        plan,
        "--yes",
        "--rate",
        "1/s",
        "-o",
        "json",
    ];
    let started = std::time::Instant::now();
    let again = db.run(&slow).assert_code(0).json();
    let took = started.elapsed();
    assert_eq!(again["summary"]["replayed"], n);
    assert!(took.as_secs_f64() < 3.5, "the replay took {took:?}");
    // A batch of replays with --yes (found only in the transaction) too.
    let started = std::time::Instant::now();
    let rerun = [
        "fail-safely",
        "--from",
        from,
        "--reason",
        "INC-9 replay",
        "--yes",
    ];
    let report = db
        .run(&[&rerun[..], &["--rate", "1/s", "-o", "json"]].concat())
        .assert_code(0)
        .json();
    assert_eq!(report["summary"]["replayed"], n);
    assert!(
        started.elapsed().as_secs_f64() < 3.5,
        "{:?}",
        started.elapsed()
    );
}
