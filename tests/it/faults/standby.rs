//! A real hot standby (pg_basebackup -R from a throwaway primary): diagnose
//! reads it and shows the replay lag; fail-safely refuses there (exit 4) and
//! sends the operator to the primary.

use std::time::{Duration, Instant};

use postgres::NoTls;
use pushleft_controller::db::sql;
use pushleft_controller::sandbox::cluster::{Cluster, ClusterOptions};

use super::assert_clean;
use crate::support::{Run, bin, scenario};

fn run(url: &str, args: &[&str]) -> Run {
    Run::from(
        bin()
            .env("DATABASE_URL", url)
            .env("RUST_BACKTRACE", "1")
            .args(args)
            .output()
            .expect("running pushleft-controller"),
    )
}

#[test]
fn diagnose_reads_a_standby_and_fail_safely_refuses_there() {
    let primary = Cluster::start(&ClusterOptions::default()).expect("starting the primary");
    let mut admin = postgres::Client::connect(&primary.conninfo("postgres"), NoTls).unwrap();
    admin.batch_execute("CREATE DATABASE control").unwrap();
    let mut control = postgres::Client::connect(&primary.conninfo("control"), NoTls).unwrap();
    control.batch_execute(sql::scripts::SCHEMA.text).unwrap();
    control.batch_execute(sql::sandbox::SCENARIOS.text).unwrap();

    let standby = Cluster::start_standby_of(&primary).expect("starting a hot standby");
    // A transaction after the base backup, so the standby has a replay
    // timestamp to measure its lag from.
    control
        .batch_execute("CREATE TABLE replication_probe (at timestamptz DEFAULT now()); INSERT INTO replication_probe DEFAULT VALUES;")
        .unwrap();
    let mut replica = postgres::Client::connect(&standby.conninfo("control"), NoTls).unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let row = replica
            .query_one(
                "SELECT pg_is_in_recovery(), to_regclass('replication_probe') IS NOT NULL,
                        pg_last_xact_replay_timestamp() IS NOT NULL",
                &[],
            )
            .unwrap();
        let (in_recovery, probed, replayed): (bool, bool, bool) =
            (row.get(0), row.get(1), row.get(2));
        assert!(in_recovery, "the standby is in recovery");
        if probed && replayed {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the standby did not replay within 30s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let url = standby.url("control");

    // diagnose works on the standby and says it read one.
    let d = run(&url, &["diagnose", "d0000002", "-o", "json"]);
    d.assert_code(0);
    assert_clean("diagnose on a standby", &d, &[]);
    let json = d.json();
    assert_eq!(json["snapshot"]["in_recovery"], true);
    let lag = json["snapshot"]["replay_lag_seconds"]
        .as_f64()
        .unwrap_or_else(|| panic!("replay lag is a number: {}", json["snapshot"]));
    assert!((0.0..600.0).contains(&lag), "replay lag {lag}");
    assert_eq!(
        json["verdict"]["path"], "teardown_requested",
        "the same verdict as on the primary"
    );
    let findings = json["verdict"]["findings"].as_array().unwrap();
    let standby_finding = findings
        .iter()
        .find(|f| f["code"] == "standby")
        .unwrap_or_else(|| panic!("a `standby` finding: {findings:?}"));
    let message = standby_finding["message"].as_str().unwrap();
    assert!(message.contains("replay lag"), "{message}");
    assert!(message.contains("primary"), "{message}");
    let table = run(&url, &["diagnose", "d0000002", "-o", "table"]);
    table.assert_code(0);
    assert!(
        table.stdout.contains("standby (replay lag"),
        "{}",
        table.stdout
    );

    // stuck and fleet list say so too, with the lag in whole seconds.
    for args in [&["stuck"][..], &["fleet", "list"]] {
        let json = run(&url, &[args, &["-o", "json"]].concat()).json();
        assert_eq!(json["snapshot"]["in_recovery"], true, "{args:?}");
        assert!(
            json["snapshot"]["replay_lag_seconds"].is_i64(),
            "{args:?}: {json:#}"
        );
        let table = run(&url, &[args, &["-o", "table"]].concat());
        assert!(
            table.stdout.contains("read from a standby (replay lag"),
            "{args:?}: {}",
            table.stdout
        );
    }

    // fail-safely refuses on the standby, dry run or not, and names the primary.
    for extra in [
        &["--yes"][..],
        &["--dry-run"],
        &["--yes", "--role", "postgres"],
    ] {
        let args = [
            &[
                "fail-safely",
                "d0000001",
                "--reason",
                "INC-8 on a standby",
                "-o",
                "json",
            ][..],
            extra,
        ]
        .concat();
        let refused = run(&url, &args);
        refused.assert_code(4);
        assert_clean("fail-safely on a standby", &refused, &[]);
        for says in [
            "standby",
            "must run against the primary",
            "Point DATABASE_URL at the primary",
            "nothing was written",
        ] {
            assert!(
                refused.stderr.contains(says),
                "{extra:?} lacks `{says}`: {}",
                refused.stderr
            );
        }
        // No result on stdout: the error document (with -o json).
        assert_eq!(refused.json()["error"]["kind"], "refused");
        // The primary is named, from the standby's primary_conninfo.
        let primary_socket = primary.socket_dir().display().to_string();
        assert!(
            refused.stderr.contains(&primary_socket),
            "names the primary {primary_socket}: {}",
            refused.stderr
        );
    }

    // Nothing reached the primary.
    let row = control
        .query_one(
            "SELECT d.status, (SELECT count(*) FROM deployment_events e WHERE e.deployment_id = d.id)
             FROM deployments d WHERE d.id = $1::text::uuid",
            &[&scenario(1)],
        )
        .unwrap();
    assert_eq!(row.get::<_, String>(0), "queued");
    assert_eq!(row.get::<_, i64>(1), 3);

    // The same command against the primary works.
    let primary_url = primary.url("control");
    run(
        &primary_url,
        &[
            "fail-safely",
            "d0000001",
            "--reason",
            "INC-8 on a standby",
            "--yes",
        ],
    )
    .assert_code(0);

    drop(replica);
    drop(control);
    drop(admin);
    standby.stop();
    primary.stop();
}
