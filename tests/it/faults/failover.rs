//! The failover drill (README, "When things go wrong"): the primary killed
//! (SIGKILL) in the middle of a paced batch, its hot standby promoted,
//! the same batch rerun through a multi-host connection string with
//! target_session_attrs=read-write: exactly one break-glass event per
//! deployment on the promoted server, none written twice.

use std::io::Write;
use std::time::{Duration, Instant};

use postgres::{Client, NoTls};
use pushleft_controller::db::sql;
use pushleft_controller::sandbox::cluster::{Cluster, ClusterOptions};

use crate::clock::rebase_to_now;
use crate::support::{Run, bin};

const STRANDED: u32 = 20;

fn stranded(g: u32) -> String {
    format!("e{g:07x}-0000-4000-8000-000000000000")
}

#[test]
fn a_primary_killed_mid_batch_then_a_promoted_standby_gets_each_write_once() {
    let primary = Cluster::start(&ClusterOptions::default()).expect("starting the primary");
    let mut admin = Client::connect(&primary.conninfo("postgres"), NoTls).unwrap();
    admin.batch_execute("CREATE DATABASE control").unwrap();
    let mut control = Client::connect(&primary.conninfo("control"), NoTls).unwrap();
    control.batch_execute(sql::scripts::SCHEMA.text).unwrap();
    control.batch_execute(sql::sandbox::SCENARIOS.text).unwrap();
    rebase_to_now(&mut control);
    control
        .batch_execute(&format!(
            "INSERT INTO deployments (id, org_id, status, created_at, updated_at)
             SELECT ('e' || lpad(to_hex(g), 7, '0') || '-0000-4000-8000-000000000000')::uuid,
                    'c0000009-0000-4000-8000-000000000009', 'deploying',
                    now() - interval '2 hours', now() - interval '2 hours'
             FROM generate_series(1, {STRANDED}) g;
             INSERT INTO application_instances (id, deployment_id, role_name, status,
                                                active_node_id, generation)
             SELECT ('f' || lpad(to_hex(g), 7, '0') || '-0000-4000-8000-000000000000')::uuid,
                    ('e' || lpad(to_hex(g), 7, '0') || '-0000-4000-8000-000000000000')::uuid,
                    'web', 'running', 'a0000012-0000-4000-8000-000000000012', 1
             FROM generate_series(1, {STRANDED}) g;"
        ))
        .unwrap();
    let standby = Cluster::start_standby_of(&primary).expect("starting a hot standby");
    let mut replica = Client::connect(&standby.conninfo("control"), NoTls).unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while replica
        .query_one(
            "SELECT count(*) FROM deployments WHERE id::text LIKE 'e%'",
            &[],
        )
        .map(|row| row.get::<_, i64>(0))
        .unwrap_or(0)
        < i64::from(STRANDED)
    {
        assert!(Instant::now() < deadline, "the standby did not catch up");
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(replica);

    let mut file = tempfile::NamedTempFile::new().unwrap();
    for g in 1..=STRANDED {
        writeln!(file, "{}", stranded(g)).unwrap();
    }
    let path = file.path().to_str().unwrap().to_string();
    let batch = |url: &str| {
        let mut cmd = bin();
        cmd.env("DATABASE_URL", url).args([
            "fail-safely",
            "--from",
            &path,
            "--reason",
            "INC-10 failover drill",
            "--yes",
            "--rate",
            "4/s",
            "-o",
            "json",
        ]);
        cmd
    };
    // The paced batch on the primary, killed with it about half-way.
    let child = batch(&primary.url("control"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(2500));
    let pid_file = std::fs::read_to_string(primary.data_dir().join("postmaster.pid")).unwrap();
    let postmaster: i32 = pid_file
        .lines()
        .next()
        .unwrap_or("0")
        .trim()
        .parse()
        .unwrap();
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(postmaster),
        nix::sys::signal::Signal::SIGKILL,
    )
    .unwrap();
    let killed = Run::from(child.wait_with_output().unwrap());
    assert_ne!(killed.code, 0, "{}", killed.stderr);
    assert!(killed.stderr.contains("error:"), "{}", killed.stderr);
    // Its report: some applied, the rest failed or not run, and the next
    // step is the same batch again.
    let report = killed.json();
    let applied = report["summary"]["applied"].as_u64().unwrap_or(0);
    assert!((1..u64::from(STRANDED)).contains(&applied), "{report:#}");
    let next = report["next_command"].as_str().unwrap_or_default();
    assert!(
        next.starts_with("pushleft-controller fail-safely --from"),
        "{report:#}"
    );

    // Promote the standby; rerun through both hosts, read-write wanted.
    let mut promoted = Client::connect(&standby.conninfo("postgres"), NoTls).unwrap();
    let done: bool = promoted
        .query_one("SELECT pg_promote(true, 30)", &[])
        .unwrap()
        .get(0);
    assert!(done, "the standby was promoted");
    let both = format!(
        "host={},{} port={},{} dbname=control user=postgres connect_timeout=2 \
         target_session_attrs=read-write",
        primary.socket_dir().display(),
        standby.socket_dir().display(),
        primary.port(),
        standby.port()
    );
    let started = Instant::now();
    let rerun = Run::from(batch(&both).output().unwrap());
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "{:?}",
        started.elapsed()
    );
    rerun.assert_code(0);
    let doc = rerun.json();
    assert_eq!(doc["summary"]["total"], STRANDED, "{doc:#}");
    let done = doc["summary"]["applied"].as_u64().unwrap_or(0)
        + doc["summary"]["replayed"].as_u64().unwrap_or(0);
    assert_eq!(done, u64::from(STRANDED), "{doc:#}");

    // Exactly one break-glass event per deployment on the promoted server.
    let mut control = Client::connect(&standby.conninfo("control"), NoTls).unwrap();
    let rows = control
        .query(
            "SELECT d.id::text, d.status, count(e.id) FILTER (WHERE e.payload ? 'idempotency_key')
             FROM deployments d LEFT JOIN deployment_events e ON e.deployment_id = d.id
             WHERE d.id::text LIKE 'e%' GROUP BY d.id, d.status ORDER BY d.id",
            &[],
        )
        .unwrap();
    assert_eq!(rows.len(), STRANDED as usize);
    for row in rows {
        let (id, status, events): (String, String, i64) = (row.get(0), row.get(1), row.get(2));
        assert_eq!(events, 1, "{id} ({status})");
        assert_eq!(status, "teardown_queued", "{id}");
    }
    drop((control, promoted, admin));
    standby.stop();
    primary.stop();
}
