//! Round trips, not time (README, "Performance"): each command through the
//! test proxy (`testing::proxy`), which counts how often the client waited
//! for the server, held to the numbers the folds reached, so a statement
//! that slips back into a flight of its own fails the build. Counted after
//! connecting (start-up, one round trip with trust authentication and
//! `sslmode=disable`, is not the command's). And the proxy's drop mode: a
//! connection lost in the middle of a read's flight is a lost connection.

use std::io::Write;
use std::time::Duration;

use pushleft_controller::testing::proxy::{Direction, Fault, Flights, Options, Proxy, Upstream};

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

/// The link's one-way latency while counting: a client that sends one
/// flight in several writes and is descheduled between two of them still
/// has them all at the server before its first reply comes back.
const COUNTING_LINK: Duration = Duration::from_millis(2);

/// A proxy in front of the tests' own cluster; None (and SKIPPED) with
/// `PUSHLEFT_TEST_DATABASE_URL`.
fn proxy_with(fault: Option<Fault>) -> Option<Proxy> {
    let Some((dir, port)) = support::cluster_socket() else {
        eprintln!(
            "SKIPPED: PUSHLEFT_TEST_DATABASE_URL is set; the round-trip test puts its proxy in \
             front of the tests' own throwaway cluster"
        );
        return None;
    };
    let options = Options {
        upstream: Upstream::Unix(dir.join(format!(".s.PGSQL.{port}"))),
        delay: COUNTING_LINK,
        fault,
    };
    Some(Proxy::start_with(options).expect("starting the proxy"))
}

fn proxy() -> Option<Proxy> {
    proxy_with(None)
}

/// Runs the binary through `proxy` and returns its run and the round
/// trips of its one connection after start-up.
fn counted(proxy: &Proxy, db: &TestDb, args: &[&str]) -> (Run, u32) {
    let run = through(proxy, db, args);
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

/// The binary through `proxy`.
fn through(proxy: &Proxy, db: &TestDb, args: &[&str]) -> Run {
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
    Run::from(output)
}

/// Every read the operator runs in an incident, one round trip each after
/// connecting: its transaction's first message, the proof, the read and
/// the COMMIT leave together (README, "Performance").
#[test]
fn every_read_is_one_round_trip() {
    let Some(proxy) = proxy() else { return };
    let db = TestDb::scenarios();
    let id = scenario(2);
    let reads: [&[&str]; 9] = [
        &["diagnose", &id],
        &["diagnose", "d0000002"],
        &["diagnose", &id, "-o", "json"],
        &["stuck", "-o", "json"],
        &["fleet", "list", "-o", "json"],
        &["history", "-o", "json"],
        &["history", "--deployment", &id, "-o", "json"],
        &["doctor", "-o", "json"],
        &["stuck", "-o", "openmetrics"],
    ];
    for args in reads {
        let (run, trips) = counted(&proxy, &db, args);
        run.assert_code(0);
        eprintln!("round trips after connecting: {args:?} {trips}");
        // openmetrics reads the fleet too: a flight for each.
        let expected = if args.contains(&"openmetrics") { 2 } else { 1 };
        assert_eq!(trips, expected, "{args:?}\n{}", run.stderr);
    }
    // A prefix where the rest of the flight needs the whole id: the
    // look-up goes first, in a flight of its own.
    let prefixed: [&[&str]; 2] = [
        &["diagnose", "d0000002", "-o", "json"],
        &["history", "--deployment", "d0000002", "-o", "json"],
    ];
    for args in prefixed {
        let (run, trips) = counted(&proxy, &db, args);
        run.assert_code(0);
        assert_eq!(trips, 2, "{args:?}\n{}", run.stderr);
    }
}

/// The connection goes away right after the read's first message reached
/// the server: a lost connection (exit 1, and the sentence that says so),
/// never a pooler the operator would go looking for.
#[test]
fn a_connection_lost_after_the_first_message_is_not_called_pooling() {
    let drop_after_first = Fault::Drop {
        direction: Direction::ToServer,
        after: 1,
    };
    let Some(proxy) = proxy_with(Some(drop_after_first)) else {
        return;
    };
    let db = TestDb::scenarios();
    let id = scenario(2);
    let reads: [&[&str]; 5] = [
        &["diagnose", &id],
        &["diagnose", &id, "-o", "json"],
        &["stuck"],
        &["fleet", "list"],
        &["history"],
    ];
    for args in reads {
        let run = through(&proxy, &db, args);
        run.assert_code(1);
        let said = format!("{}{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains("lost the connection"),
            "{args:?}: {}",
            run.stderr
        );
        assert!(
            !said.to_lowercase().contains("pooling"),
            "{args:?} blames a pooler: {said}"
        );
        eprintln!("{args:?}: {}", run.stderr.trim());
        proxy
            .take(Duration::from_secs(10))
            .expect("the connections");
    }
    // doctor reports it as a check that could not run (exit 4, as every
    // failed check), and blames no pooler either.
    let run = through(&proxy, &db, &["doctor"]);
    run.assert_code(4);
    let said = format!("{}{}", run.stdout, run.stderr);
    assert!(!said.to_lowercase().contains("pooling"), "doctor: {said}");
    eprintln!("doctor: {}", run.stdout.trim());
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
fn batch(proxy: &Proxy, n: u32, mode: &str) -> u32 {
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
