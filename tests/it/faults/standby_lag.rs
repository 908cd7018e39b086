//! Drills against a real primary and hot standby (pg_basebackup -R): a
//! caught-up standby shows no lag; with replay paused while the primary
//! moves on, diagnose says so on its first line, JSON in `read_from`,
//! doctor and stuck too; fail-safely, with or without --apply, refuses
//! there with a headline that says standby first (README, "Connecting").

use std::time::{Duration, Instant};

use postgres::{Client, NoTls};
use pushleft_controller::db::sql;
use pushleft_controller::sandbox::cluster::{Cluster, ClusterOptions};

use super::assert_clean;
use crate::support::{Run, bin, scenario};

fn run(url: &str, args: &[&str]) -> Run {
    let started = Instant::now();
    let run = Run::from(
        bin()
            .env("DATABASE_URL", url)
            .env("RUST_BACKTRACE", "1")
            .args(args)
            .output()
            .expect("running pushleft-controller"),
    );
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{args:?} took {:?}",
        started.elapsed()
    );
    run
}

/// Polls `replica` until `condition` (one boolean) holds, within 30 s.
fn wait_until(replica: &mut Client, condition: &str, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !replica.query_one(condition, &[]).unwrap().get::<_, bool>(0) {
        assert!(
            Instant::now() < deadline,
            "{what} did not happen within 30s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

const CAUGHT_UP: &str = "SELECT to_regclass('replication_probe') IS NOT NULL
        AND pg_last_wal_replay_lsn() >= pg_last_wal_receive_lsn()";

#[test]
fn a_standby_says_how_stale_it_is_first_and_refuses_writes_with_a_standby_headline() {
    let primary = Cluster::start(&ClusterOptions::default()).expect("starting the primary");
    let mut admin = Client::connect(&primary.conninfo("postgres"), NoTls).unwrap();
    admin.batch_execute("CREATE DATABASE control").unwrap();
    let mut control = Client::connect(&primary.conninfo("control"), NoTls).unwrap();
    control.batch_execute(sql::scripts::SCHEMA.text).unwrap();
    control.batch_execute(sql::sandbox::SCENARIOS.text).unwrap();
    let standby = Cluster::start_standby_of(&primary).expect("starting a hot standby");
    control
        .batch_execute("CREATE TABLE replication_probe (at timestamptz DEFAULT now()); INSERT INTO replication_probe DEFAULT VALUES;")
        .unwrap();
    let mut replica = Client::connect(&standby.conninfo("control"), NoTls).unwrap();
    wait_until(&mut replica, CAUGHT_UP, "the standby catching up");
    let (url, primary_url) = (standby.url("control"), primary.url("control"));

    // Caught up: no lag, whatever the age of the last transaction.
    std::thread::sleep(Duration::from_secs(2));
    let caught_up = run(&url, &["diagnose", "d0000002", "-o", "json"]);
    caught_up.assert_code(0);
    let json = caught_up.json();
    assert_eq!(json["read_from"]["server"], "standby", "{json:#}");
    assert_eq!(json["read_from"]["lag_seconds"], 0, "{}", json["read_from"]);
    assert_eq!(json["read_from"]["paused"], false);
    let table = run(&url, &["diagnose", "d0000002", "-o", "table"]);
    assert!(table.stdout.starts_with("VERDICT"), "{}", table.stdout);
    assert!(table.stdout.contains("replay lag none"), "{}", table.stdout);
    let doctor = run(&url, &["doctor"]);
    assert!(
        doctor.stdout.contains("replay lag none"),
        "{}",
        doctor.stdout
    );

    // Replay paused, then the primary tears d0000001 down: the standby
    // still shows it queued, and says first that it is behind.
    replica
        .batch_execute("SELECT pg_wal_replay_pause()")
        .unwrap();
    wait_until(
        &mut replica,
        "SELECT pg_get_wal_replay_pause_state() = 'paused'",
        "pausing",
    );
    // The write is acknowledged, and says that its one (asynchronous,
    // paused) standby does not have it yet.
    let args = [
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-9 drill",
        "--yes",
        "-o",
        "json",
    ];
    let written = run(&primary_url, &args);
    written.assert_code(0);
    let replication = &written.json()["replication"];
    assert_eq!(replication["standbys"], 1, "{replication}");
    assert_eq!(replication["synchronous"], 0, "{replication}");
    let replayed: String = replica
        .query_one("SELECT pg_last_wal_replay_lsn()::text", &[])
        .unwrap()
        .get(0);
    assert_eq!(
        replication["confirmed"], 0,
        "{replication} (replayed {replayed})"
    );
    wait_until(
        &mut replica,
        "SELECT pg_last_wal_receive_lsn() > pg_last_wal_replay_lsn()",
        "the standby receiving the write",
    );
    std::thread::sleep(Duration::from_secs(3));
    let behind = run(&url, &["diagnose", "d0000001", "-o", "table"]);
    behind.assert_code(0);
    assert_clean("diagnose on a paused standby", &behind, &[]);
    // The first line, and its continuation (wrapped at the screen's width).
    let unwrapped = behind.stdout.replace("\n  ", " ");
    let first = unwrapped.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("! read from a standby "),
        "{}",
        behind.stdout
    );
    for says in [
        "behind",
        "the primary may already have moved on",
        "replay paused",
    ] {
        assert!(first.contains(says), "{says}: {}", behind.stdout);
    }
    let json = run(&url, &["diagnose", "d0000001", "-o", "json"]).json();
    assert_eq!(json["read_from"]["paused"], true);
    let lag = json["read_from"]["lag_seconds"].as_i64().unwrap_or(-1);
    assert!((3..600).contains(&lag), "{}", json["read_from"]);
    assert_eq!(
        json["deployment"]["status"], "queued",
        "the standby's stale view"
    );
    let markdown = run(&url, &["diagnose", "d0000001", "-o", "markdown"]);
    assert!(
        markdown.stdout.contains("read from a standby"),
        "{}",
        markdown.stdout
    );
    let doctor = run(&url, &["doctor"]);
    assert!(doctor.stdout.contains("replay paused"), "{}", doctor.stdout);
    let stuck = run(&url, &["stuck", "-o", "table"]);
    let header: String = stuck.stdout.lines().take(4).collect::<Vec<_>>().join("\n");
    assert!(header.contains("replay paused"), "{}", stuck.stdout);
    let stuck = run(&url, &["stuck", "-o", "json"]).json();
    assert_eq!(stuck["snapshot"]["replay_paused"], true);

    // fail-safely on the standby, and --apply of a plan made on the
    // primary: standby first, exit 4, nothing written.
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("plan.json");
    let plan = plan.to_str().unwrap();
    let args = [
        "fail-safely",
        "d0000003",
        "--reason",
        "INC-9 drill",
        "--plan-out",
        plan,
    ];
    run(&primary_url, &args).assert_code(0);
    for args in [
        &[
            "fail-safely",
            "d0000003",
            "--reason",
            "INC-9 drill",
            "--yes",
        ][..],
        &["fail-safely", "--apply", plan, "--yes"],
    ] {
        let refused = run(&url, args);
        refused.assert_code(4);
        let headline = refused.stderr.lines().next().unwrap_or_default();
        assert!(
            headline.starts_with("error: this is a standby (read-only replica) of the primary"),
            "{args:?}: {}",
            refused.stderr
        );
        for says in [
            "writes go to the primary",
            "target_session_attrs=read-write",
        ] {
            assert!(
                refused.stderr.contains(says),
                "{args:?}: {}",
                refused.stderr
            );
        }
        assert!(
            !refused.stderr.contains("no longer holds"),
            "{}",
            refused.stderr
        );
    }

    // Replay resumed: caught up again, no lag, the teardown shows.
    replica
        .batch_execute("SELECT pg_wal_replay_resume()")
        .unwrap();
    wait_until(&mut replica, CAUGHT_UP, "the standby catching up again");
    let json = run(&url, &["diagnose", "d0000001", "-o", "json"]).json();
    assert_eq!(json["read_from"]["lag_seconds"], 0, "{}", json["read_from"]);
    assert_eq!(json["read_from"]["paused"], false);
    assert_eq!(
        json["events_total"], 4,
        "the teardown replayed on the standby"
    );
    let row = control
        .query_one(
            "SELECT count(*) FROM deployment_events WHERE deployment_id = $1::text::uuid",
            &[&scenario(1)],
        )
        .unwrap();
    assert_eq!(row.get::<_, i64>(0), 4, "one event written on the primary");

    drop((replica, control, admin));
    standby.stop();
    primary.stop();
}
