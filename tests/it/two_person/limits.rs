//! The plan file's limits (README, "When things go wrong"): `--apply`
//! reads only a small regular file, within a deadline, every field known,
//! no more deployments than `--max`; anything else is exit 2 within two
//! seconds, naming the file, and nothing is written.

use std::io::Write;
use std::time::{Duration, Instant};

use super::*;
use crate::clock::rebase_to_now;

/// `fail-safely --apply FILE --yes` and `extra`, expected to be refused
/// (exit 2) within two seconds, naming the file, nothing written.
#[track_caller]
fn refused_fast(db: &TestDb, file: &Path, extra: &[&str], says: &str) -> Run {
    let before = db.dump();
    let started = Instant::now();
    let run = Run::from(
        db.cmd()
            .args(["fail-safely", "--apply", file.to_str().unwrap(), "--yes"])
            .args(extra)
            .output()
            .unwrap(),
    );
    let took = started.elapsed();
    run.assert_code(2);
    assert!(took < Duration::from_secs(2), "took {took:?}");
    assert!(run.stderr.contains(says), "{says}: {}", run.stderr);
    assert!(run.stderr.contains("nothing was written"), "{}", run.stderr);
    assert_eq!(db.dump(), before, "nothing was written");
    run
}

#[test]
fn a_device_a_fifo_and_a_huge_file_are_refused_at_once() {
    let db = TestDb::scenarios();
    let dir = tempfile::tempdir().unwrap();
    let zero = dir.path().join("zero.json");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    refused_fast(&db, &zero, &[], "not a regular file but a character device");
    let fifo = dir.path().join("fifo.json");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    refused_fast(&db, &fifo, &[], "not a regular file but a FIFO");
    // 100 MB of padding around a real plan's start.
    let (plan, _) = make_plan(&db, &["d0000001"], &[]);
    let huge = dir.path().join("huge.json");
    let mut out = std::fs::File::create(&huge).unwrap();
    out.write_all(&std::fs::read(&plan.path).unwrap()[..1])
        .unwrap();
    let padding = vec![b' '; 1024 * 1024];
    for _ in 0..100 {
        out.write_all(&padding).unwrap();
    }
    drop(out);
    let run = refused_fast(&db, &huge, &[], "larger than 1048576 bytes");
    assert!(run.stderr.contains("huge.json"), "{}", run.stderr);
}

#[test]
fn an_unknown_field_at_any_level_is_refused() {
    let db = TestDb::scenarios();
    let (plan, _) = make_plan(&db, &["d0000001"], &[]);
    let original: Value = serde_json::from_slice(&std::fs::read(&plan.path).unwrap()).unwrap();
    for pointer in [
        "",
        "/target",
        "/requester",
        "/deployments/0",
        "/deployments/0/event",
    ] {
        let mut doc = original.clone();
        doc.pointer_mut(pointer)
            .unwrap()
            .as_object_mut()
            .unwrap()
            .insert("approved_by".into(), Value::from("someone"));
        std::fs::write(&plan.path, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
        refused_fast(&db, &plan.path, &[], "unknown field `approved_by`");
    }
    // The same document as written applies (exit 0): only the field was wrong.
    std::fs::write(&plan.path, serde_json::to_vec_pretty(&original).unwrap()).unwrap();
    db.run(&["fail-safely", "--apply", plan.arg(), "--yes"])
        .assert_code(0);
    assert_eq!(status_of(&db, &crate::support::scenario(1)), "failed");
}

#[test]
fn apply_honours_max_before_connecting() {
    let db = TestDb::scenarios();
    rebase_to_now(&mut db.client());
    let batch = stranded_batch(&db, 3);
    let (plan, printed) = make_plan(&db, &["--from", batch.path().to_str().unwrap()], &[]);
    assert_eq!(printed["deployments"].as_array().unwrap().len(), 3);
    let run = refused_fast(&db, &plan.path, &["--max", "2"], "more than --max 2");
    assert!(run.stderr.contains("names 3 deployments"), "{}", run.stderr);
    // Before connecting: with no database to reach, the same refusal.
    let nowhere = Run::from(
        db.cmd()
            .env(
                "DATABASE_URL",
                "postgresql://127.0.0.1:9/none?connect_timeout=1",
            )
            .args(["fail-safely", "--apply", plan.arg(), "--yes", "--max", "2"])
            .output()
            .unwrap(),
    );
    nowhere.assert_code(2);
    assert!(nowhere.stderr.contains("--max 2"), "{}", nowhere.stderr);
}
