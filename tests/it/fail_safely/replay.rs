//! The idempotency key: a rerun replays instead of writing twice, a key
//! used for something else is a conflict, and sixteen runs at once write
//! one event.

use super::*;

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
