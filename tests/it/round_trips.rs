//! Round trips, not time (README, "Performance"): each command through a
//! proxy that counts how often the client waited for the server, held to
//! the numbers the folds reached, so a statement that slips back into a
//! flight of its own fails the build. Counted after connecting (start-up,
//! one round trip with trust authentication and `sslmode=disable`, is not
//! the command's).

use std::io::Write;
use std::time::Duration;

use pushleft_controller::testing::round_trips::{CountingProxy, Flights};

use crate::clock::rebase_to_now;
use crate::support::{self, Run, TestDb, scenario, strand_on_edge_07};

/// fail-safely of one deployment given by its full id, fresh session: the
/// one-message read of where it writes (README, "Two-person break-glass"),
/// then the guarded transaction's six (seven with a write's COMMIT). A
/// replay's transaction ends at its fourth, and the fresh diagnosis it
/// reports is one flight.
const FAIL_SAFELY_DRY_RUN: u32 = 7;
const FAIL_SAFELY_WRITE: u32 = 8;
const FAIL_SAFELY_REPLAY: u32 = 6;
/// doctor's read, one flight (no `--role`, no plans recorded here).
const DOCTOR: u32 = 1;
/// Per deployment of a batch, beyond the first: planning (`--dry-run`)
/// and applying (`--yes`).
const BATCH_PLAN_EACH: u32 = 6;
const BATCH_APPLY_EACH: u32 = 7;

/// The counting proxy in front of the tests' own cluster; None (and
/// SKIPPED) with `PUSHLEFT_TEST_DATABASE_URL`.
fn proxy() -> Option<CountingProxy> {
    let Some((dir, port)) = support::cluster_socket() else {
        eprintln!(
            "SKIPPED: PUSHLEFT_TEST_DATABASE_URL is set; the round-trip test puts its proxy in \
             front of the tests' own throwaway cluster"
        );
        return None;
    };
    Some(CountingProxy::start(dir.join(format!(".s.PGSQL.{port}"))).expect("starting the proxy"))
}

/// Runs the binary through `proxy` and returns its run and the round
/// trips of its one connection after start-up.
fn counted(proxy: &CountingProxy, db: &TestDb, args: &[&str]) -> (Run, u32) {
    let url = format!(
        "host=127.0.0.1 port={} user=postgres dbname={} sslmode=disable",
        proxy.port(),
        db.name
    );
    let output = support::bin()
        .env("DATABASE_URL", url)
        .args(args)
        .output()
        .expect("running pushleft-controller");
    let run = Run::from(output);
    let flights: Vec<Flights> = proxy
        .take(Duration::from_secs(10))
        .expect("the connections");
    assert_eq!(
        flights.len(),
        1,
        "one connection: {flights:?}\n{}",
        run.stderr
    );
    (run, flights[0].after_startup())
}

#[test]
fn fail_safely_dry_run_write_and_replay() {
    let Some(proxy) = proxy() else { return };
    let db = TestDb::scenarios();
    let id = scenario(2);
    let base = ["fail-safely", id.as_str(), "--reason", "INC-25 round trips"];
    let dry: Vec<&str> = base
        .iter()
        .copied()
        .chain(["--dry-run", "-o", "json"])
        .collect();
    let (run, dry_run) = counted(&proxy, &db, &dry);
    run.assert_code(0);
    let write: Vec<&str> = base
        .iter()
        .copied()
        .chain(["--yes", "-o", "json"])
        .collect();
    let (run, written) = counted(&proxy, &db, &write);
    run.assert_code(0);
    assert_eq!(run.json()["replayed"], false, "{}", run.stdout);
    let (run, replayed) = counted(&proxy, &db, &write);
    run.assert_code(0);
    assert_eq!(run.json()["replayed"], true, "{}", run.stdout);
    eprintln!(
        "round trips after connecting: dry run {dry_run}, write {written}, replay {replayed}"
    );
    assert_eq!(dry_run, FAIL_SAFELY_DRY_RUN, "fail-safely --dry-run");
    assert_eq!(written, FAIL_SAFELY_WRITE, "fail-safely --yes");
    assert_eq!(replayed, FAIL_SAFELY_REPLAY, "fail-safely replay");
}

#[test]
fn doctor() {
    let Some(proxy) = proxy() else { return };
    let db = TestDb::scenarios();
    let (run, doctor) = counted(&proxy, &db, &["doctor", "-o", "json"]);
    run.assert_code(0);
    eprintln!("round trips after connecting: doctor {doctor}");
    assert_eq!(doctor, DOCTOR, "doctor");
}

fn stranded(g: u32) -> String {
    format!("e{g:07x}-0000-4000-8000-000000000000")
}

/// A batch of `n` stranded deployments, planned (`--dry-run`) or applied
/// (`--yes`) on a database of its own.
fn batch(proxy: &CountingProxy, n: u32, mode: &str) -> u32 {
    let db = TestDb::scenarios();
    rebase_to_now(&mut db.client());
    strand_on_edge_07(&db, n);
    let mut file = tempfile::NamedTempFile::new().expect("a batch file");
    for g in 1..=n {
        writeln!(file, "{}", stranded(g)).expect("writing the batch");
    }
    let path = file.path().to_str().expect("a UTF-8 path").to_string();
    let args = [
        "fail-safely",
        "--from",
        &path,
        "--reason",
        "INC-25 edge-07 died",
        mode,
        "-o",
        "json",
    ];
    let (run, trips) = counted(proxy, &db, &args);
    run.assert_code(0);
    trips
}

#[test]
fn a_batch_of_ten() {
    let Some(proxy) = proxy() else { return };
    for (mode, each) in [("--dry-run", BATCH_PLAN_EACH), ("--yes", BATCH_APPLY_EACH)] {
        let one = batch(&proxy, 1, mode);
        let ten = batch(&proxy, 10, mode);
        eprintln!(
            "round trips after connecting, batch {mode}: 1 → {one}, 10 → {ten} ({} more each)",
            (ten - one) / 9
        );
        assert_eq!(
            (ten - one) % 9,
            0,
            "{mode}: every deployment costs the same"
        );
        assert_eq!((ten - one) / 9, each, "{mode}: per deployment");
    }
}
