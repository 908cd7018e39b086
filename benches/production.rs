//! The production-size benchmark.
//!
//!     cargo bench --bench production
//!
//! Starts a throwaway PostgreSQL (or uses PUSHLEFT_BENCH_DATABASE_URL),
//! fills the reference schema with `sql/bench/generate.sql` at
//! PUSHLEFT_BENCH_SCALE (default 1.0: 200,000 deployments, ~4.2M events,
//! 800,000 jobs, ...), checks every statement's plan at that size, then
//! times whole processes — `pushleft-controller` (release build) against
//! the runbook's queries run by `psql -f`, on the same deployments — and
//! prints median and spread (p10-p90) over PUSHLEFT_BENCH_RUNS runs
//! (default 15), the ratio ours / psql, and the peak RSS of diagnose.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use postgres::{Client, NoTls};
use pushleft_controller::db::sql;
use pushleft_controller::sandbox::cluster::{Cluster, ClusterOptions};
use pushleft_controller::testing::plans;
use uuid::Uuid;

const BIN: &str = env!("CARGO_BIN_EXE_pushleft-controller");
const RUNBOOK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/sql/runbook/diagnose.sql");

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One whole-process run: wall time and peak RSS (KiB).
fn run_once(program: &str, args: &[String], database: &str) -> Result<(Duration, i64)> {
    let started = Instant::now();
    let child = Command::new(program)
        .args(args)
        .env("DATABASE_URL", database)
        .env_remove("PGHOST")
        .env_remove("PGDATABASE")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("starting {program}"))?;
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: pid is our own child; status and usage are valid pointers.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let elapsed = started.elapsed();
    if waited != pid {
        bail!("wait4 failed for {program}");
    }
    if !libc::WIFEXITED(status) || libc::WEXITSTATUS(status) != 0 {
        let mut stderr = String::new();
        if let Some(mut pipe) = child.stderr {
            use std::io::Read;
            let _ = pipe.read_to_string(&mut stderr);
        }
        bail!("{program} {} failed: {stderr}", args.join(" "));
    }
    Ok((elapsed, usage.ru_maxrss))
}

struct Stats {
    median: f64,
    p10: f64,
    p90: f64,
    max_rss_kib: i64,
}

fn measure(program: &str, args: &[String], database: &str, runs: usize) -> Result<Stats> {
    for _ in 0..2 {
        run_once(program, args, database)?;
    }
    let mut times = Vec::with_capacity(runs);
    let mut max_rss_kib = 0;
    for _ in 0..runs {
        let (t, rss) = run_once(program, args, database)?;
        times.push(t.as_secs_f64() * 1000.0);
        max_rss_kib = max_rss_kib.max(rss);
    }
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    Ok(Stats {
        median: at(0.5),
        p10: at(0.1),
        p90: at(0.9),
        max_rss_kib,
    })
}

fn ours(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

fn main() -> Result<()> {
    // `cargo bench` passes --bench; nothing else is expected.
    let scale: f64 = env_or("PUSHLEFT_BENCH_SCALE", 1.0);
    let runs: usize = env_or("PUSHLEFT_BENCH_RUNS", 15).max(3);
    let mut _cluster = None;
    let database = match std::env::var("PUSHLEFT_BENCH_DATABASE_URL") {
        Ok(url) if !url.is_empty() => url,
        _ => {
            eprintln!("starting a throwaway PostgreSQL for the benchmark...");
            let cluster = Cluster::start(&ClusterOptions::default())?;
            let mut admin = Client::connect(&cluster.conninfo("postgres"), NoTls)?;
            admin.batch_execute("CREATE DATABASE bench")?;
            let conninfo = cluster.conninfo("bench");
            _cluster = Some(cluster);
            conninfo
        }
    };
    let mut client =
        Client::connect(&database, NoTls).context("connecting to the benchmark database")?;
    let loaded: bool = client
        .query_one("SELECT to_regclass('public.deployments') IS NOT NULL", &[])?
        .get(0);
    if !loaded {
        client.batch_execute(sql::scripts::SCHEMA.text)?;
    }
    let generated: bool = client
        .query_one("SELECT EXISTS (SELECT 1 FROM deployments)", &[])?
        .get(0);
    if !generated {
        client.batch_execute(sql::scripts::BENCH_GENERATE.text)?;
        eprintln!("generating the data set at scale {scale} (a few minutes at 1.0)...");
        let started = Instant::now();
        let rows = client.query("SELECT * FROM bench.generate($1)", &[&scale])?;
        // As autovacuum would have long done in production: the visibility
        // map makes index-only scans possible, ANALYZE the statistics.
        client.batch_execute("VACUUM ANALYZE")?;
        println!(
            "generated and vacuumed in {:.0}s:",
            started.elapsed().as_secs_f64()
        );
        for row in rows {
            println!(
                "  {:<26} {:>10}",
                row.get::<_, String>(0),
                row.get::<_, i64>(1)
            );
        }
    }

    // The stuck deployments with the shortest and the longest trails.
    let pick = |client: &mut Client, order: &str| -> Result<(Uuid, i64)> {
        let row = client.query_one(
            &format!(
                "SELECT d.id, (SELECT count(*) FROM deployment_events e WHERE e.deployment_id = d.id) AS events
                 FROM deployments d WHERE d.status IN ('queued', 'building', 'deploying')
                 ORDER BY events {order}, d.id LIMIT 1"
            ),
            &[],
        )?;
        Ok((row.get(0), row.get(1)))
    };
    let (small, small_events) = pick(&mut client, "ASC")?;
    let (huge, huge_events) = pick(&mut client, "DESC")?;
    let counts = client.query_one(
        "SELECT (SELECT count(*) FROM fleet_nodes), (SELECT count(*) FROM fleet_allocations),
                (SELECT count(*) FROM deployments), (SELECT count(*) FROM deployment_events)",
        &[],
    )?;
    println!(
        "\ndata: {} nodes, {} allocations, {} deployments, {} events",
        counts.get::<_, i64>(0),
        counts.get::<_, i64>(1),
        counts.get::<_, i64>(2),
        counts.get::<_, i64>(3)
    );
    println!(
        "small trail: {small} ({small_events} events); long trail: {huge} ({huge_events} events)"
    );

    // The real plans at this size.
    println!(
        "\nEXPLAIN check (no sequential scan on {}):",
        plans::BIG_TABLES.join(", ")
    );
    let mut bad = 0;
    for check in plans::explain_all(&mut client, &sql::Schema::public(), huge)? {
        if check.seq_scans.is_empty() {
            println!("  ok   {}", check.name);
        } else {
            bad += 1;
            println!(
                "  FAIL {}: Seq Scan on {}",
                check.name,
                check.seq_scans.join(", ")
            );
        }
    }
    drop(client);

    let psql = which("psql").context("psql is needed for the comparison")?;
    let psql = psql.to_string_lossy().to_string();
    let runbook = |id: Uuid| -> Vec<String> {
        vec![
            "-X".into(),
            "-q".into(),
            "-d".into(),
            database.clone(),
            "-v".into(),
            format!("D={id}"),
            "-f".into(),
            RUNBOOK.into(),
        ]
    };
    let small_s = small.to_string();
    let huge_s = huge.to_string();
    let psql_small = measure(&psql, &runbook(small), &database, runs)?;
    let psql_huge = measure(&psql, &runbook(huge), &database, runs)?;
    let cases: Vec<(String, Vec<String>, Option<&Stats>)> = vec![
        (
            format!("diagnose, {small_events} events (table)"),
            ours(&["diagnose", &small_s, "-o", "table"]),
            Some(&psql_small),
        ),
        (
            format!("diagnose, {small_events} events (json)"),
            ours(&["diagnose", &small_s, "-o", "json"]),
            Some(&psql_small),
        ),
        (
            format!("diagnose, {huge_events} events (table)"),
            ours(&["diagnose", &huge_s, "-o", "table"]),
            Some(&psql_huge),
        ),
        (
            format!("diagnose, {huge_events} events (json)"),
            ours(&["diagnose", &huge_s, "-o", "json"]),
            Some(&psql_huge),
        ),
        (
            "fleet list (json)".into(),
            ours(&["fleet", "list", "-o", "json"]),
            None,
        ),
        (
            "fleet list (table)".into(),
            ours(&["fleet", "list", "-o", "table"]),
            None,
        ),
        ("stuck (json)".into(), ours(&["stuck", "-o", "json"]), None),
        (
            format!("fail-safely --dry-run, {small_events} events"),
            ours(&[
                "fail-safely",
                &small_s,
                "--reason",
                "BENCH dry run",
                "--dry-run",
                "-o",
                "json",
            ]),
            None,
        ),
        (
            format!("fail-safely --dry-run, {huge_events} events"),
            ours(&[
                "fail-safely",
                &huge_s,
                "--reason",
                "BENCH dry run",
                "--dry-run",
                "-o",
                "json",
            ]),
            None,
        ),
    ];
    println!("\nwhole-process wall time, {runs} runs each after 2 warm-ups (ms):");
    println!(
        "  {:<38} {:>8} {:>15} {:>9} {:>11} {:>10}",
        "command", "median", "p10-p90", "psql", "ours/psql", "peak RSS"
    );
    for (events, stats) in [(small_events, &psql_small), (huge_events, &psql_huge)] {
        println!(
            "  {:<38} {:>8.1} {:>15} {:>9} {:>11} {:>10}",
            format!("psql -f runbook, {events} events"),
            stats.median,
            format!("{:.1}-{:.1}", stats.p10, stats.p90),
            "",
            "",
            format!("{:.1} MB", stats.max_rss_kib as f64 / 1024.0)
        );
    }
    for (name, args, baseline) in &cases {
        let stats = measure(BIN, args, &database, runs)?;
        println!(
            "  {:<38} {:>8.1} {:>15} {:>9} {:>11} {:>10}",
            name,
            stats.median,
            format!("{:.1}-{:.1}", stats.p10, stats.p90),
            baseline
                .map(|b| format!("{:.1}", b.median))
                .unwrap_or_default(),
            baseline
                .map(|b| format!("{:.2}", stats.median / b.median))
                .unwrap_or_default(),
            format!("{:.1} MB", stats.max_rss_kib as f64 / 1024.0)
        );
    }
    if bad > 0 {
        bail!("{bad} statement(s) scan a big table sequentially at this size");
    }
    Ok(())
}

fn which(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}
