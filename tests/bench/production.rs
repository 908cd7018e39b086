//! The production-size benchmark (README, "Performance").
//!
//!     cargo bench --bench production
//!
//! Whole processes, side by side in one run: `pushleft-controller` (the
//! release build cargo makes for this bench) against what an operator types
//! into psql today — the runbook's queries verbatim
//! (`sql/runbook/diagnose.sql`), the two alerts (`sql/runbook/alerts.sql`)
//! and the obvious GROUP BY for capacity (`sql/runbook/fleet.sql`) — on the
//! same database, alternating run by run. Reported per command: median and
//! p10–p90 wall time, ours / psql, peak RSS (wait4), and through the delay
//! proxy the round trips each needs.
//!
//! Phases, in order:
//!
//! 1. a throwaway PostgreSQL (durability settings off; planner, JIT and
//!    autovacuum at the server's defaults) listening on 127.0.0.1;
//! 2. the data set at PUSHLEFT_BENCH_SCALE (1.0: 100,000 deployments, ~2.1M
//!    events with five 12,000-event trails, 200,000 jobs, ~150,000
//!    instances and allocations, 5,000 nodes), ANALYZEd, not vacuumed;
//! 3. state "fresh": autovacuum is off on every table (it would otherwise
//!    vacuum the new tables during the measurement); the EXPLAIN check on
//!    a plain session (JIT on, as the server has it), then every command
//!    near (straight TCP to 127.0.0.1) and far (through a proxy in this
//!    process that holds every chunk 5 ms in each direction);
//! 4. state "vacuumed": VACUUM ANALYZE, autovacuum back on, the same again;
//! 5. no-index schema: a copy of the vacuumed database keeping only the
//!    indexes of primary keys and unique constraints; every command near,
//!    `doctor` must exit 0 and name each missing index;
//! 6. a million-event trail: a copy of the vacuumed database with 1,000,000
//!    more events on the typical deployment, `diagnose` as JSON and table
//!    beside the runbook in psql;
//! 5. the near table again through PgBouncer in transaction mode;
//! 6. no-index schema (as below), 7. a million-event trail (as below);
//! 8. a batch: `fail-safely --from FILE` over 500 stuck deployments of a
//!    data set of its own (1.8× the scale), --dry-run then --yes, with the
//!    time and the round trips per deployment;
//! 9. scaling: the same commands at 0.25× and 2× the scale (vacuumed, near),
//!    and `fleet list` at 50,000 nodes.
//!
//! The exit status is non-zero (after everything is printed) when a plan
//! has problems (a sequential scan of a big table, or a JIT-compiled plan)
//! or a command failed; the goals (ours / psql ≤ 0.5, peak RSS
//! under 50 MB) are summed up at the end but do not change it.
//!
//! Knobs (environment):
//!
//! * PUSHLEFT_BENCH_DATABASE_URL — use this server instead of a throwaway
//!   one. An empty database is filled (schema and data); one already filled
//!   by generate.sql is reused, and then "fresh" is skipped (it is not
//!   freshly loaded). The role needs CREATEDB: the other phases make
//!   sibling databases (`<db>_noindex`, `<db>_x0_25`, …) and drop them.
//!   The server must accept `sslmode=disable` (the proxy speaks no TLS).
//! * PUSHLEFT_BENCH_SCALE — the data set's size (default 1.0).
//! * PUSHLEFT_BENCH_RUNS — measured runs per command in the fresh and
//!   vacuumed tables, after one warm-up (default 15).
//! * PUSHLEFT_BENCH_QUICK_RUNS — the same for the no-index and scaling
//!   phases (default 7; a command stops being repeated there once its runs
//!   have taken 20 s).
//! * PUSHLEFT_BENCH_DELAY_MS — the proxy's delay each way (default 5).
//! * PUSHLEFT_BENCH_TIMEOUT_S — a run taking longer is killed, its server
//!   session terminated, and the command reported as timed out (default
//!   30; only the no-index schema comes near it).
//! * PUSHLEFT_BENCH_SKIP — phases to leave out, comma-separated: fresh,
//!   vacuumed, far, pgbouncer, noindex, million, batch, scaling, nodes.

#[path = "production/batch.rs"]
mod batch;
#[path = "production/bench.rs"]
mod bench;
#[path = "production/cases.rs"]
mod cases;
#[path = "production/measure.rs"]
mod measure;
#[path = "production/million.rs"]
mod million;
#[path = "production/noindex.rs"]
mod noindex;
#[path = "production/pooled.rs"]
mod pooled;
#[path = "production/process.rs"]
mod process;
#[path = "production/report.rs"]
mod report;
#[path = "production/scaling.rs"]
mod scaling;
#[path = "production/server.rs"]
mod server;
#[path = "production/verdict.rs"]
mod verdict;

use std::collections::BTreeSet;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result, bail};

use bench::{Bench, Tally};
use measure::{Plan, which};
use pushleft_controller::testing::proxy::{Options, Proxy};
use report::Phases;
use server::Server;
use verdict::Verdict;

const BIN: &str = env!("CARGO_BIN_EXE_pushleft-controller");

/// The environment's knobs (see the top of this file).
struct Knobs {
    database_url: Option<String>,
    scale: f64,
    runs: usize,
    quick_runs: usize,
    delay: Duration,
    timeout: Duration,
    skip: BTreeSet<String>,
}

const PHASES: &[&str] = &[
    "fresh",
    "vacuumed",
    "far",
    "pgbouncer",
    "noindex",
    "million",
    "batch",
    "scaling",
    "nodes",
];

fn env_parse<T: std::str::FromStr>(name: &str, default: T) -> Result<T> {
    match std::env::var(name) {
        Ok(text) if !text.trim().is_empty() => text
            .trim()
            .parse()
            .ok()
            .with_context(|| format!("{name}={text} is not a valid value")),
        _ => Ok(default),
    }
}

impl Knobs {
    fn from_env() -> Result<Knobs> {
        let skip: BTreeSet<String> = std::env::var("PUSHLEFT_BENCH_SKIP")
            .unwrap_or_default()
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect();
        if let Some(unknown) = skip.iter().find(|s| !PHASES.contains(&s.as_str())) {
            bail!(
                "PUSHLEFT_BENCH_SKIP: unknown phase {unknown} (known: {})",
                PHASES.join(", ")
            );
        }
        let scale: f64 = env_parse("PUSHLEFT_BENCH_SCALE", 1.0)?;
        if !(scale > 0.0 && scale <= 100.0) {
            bail!("PUSHLEFT_BENCH_SCALE must be in (0, 100]");
        }
        Ok(Knobs {
            database_url: std::env::var("PUSHLEFT_BENCH_DATABASE_URL")
                .ok()
                .filter(|url| !url.is_empty()),
            scale,
            runs: env_parse("PUSHLEFT_BENCH_RUNS", 15usize)?.max(1),
            quick_runs: env_parse("PUSHLEFT_BENCH_QUICK_RUNS", 7usize)?.max(1),
            delay: Duration::from_millis(env_parse("PUSHLEFT_BENCH_DELAY_MS", 5u64)?),
            timeout: Duration::from_secs(env_parse("PUSHLEFT_BENCH_TIMEOUT_S", 30u64)?.max(1)),
            skip,
        })
    }

    fn runs(&self, phase: &str) -> bool {
        !self.skip.contains(phase)
    }
}

fn main() -> ExitCode {
    // Everything (the proxy, the scratch databases, the server) is dropped
    // inside run(), before the exit status is decided.
    match run() {
        Ok(0) => ExitCode::SUCCESS,
        Ok(problems) => {
            eprintln!("error: {problems} problem(s), listed above");
            ExitCode::FAILURE
        }
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// The whole benchmark; returns the number of problems found.
fn run() -> Result<usize> {
    let knobs = Knobs::from_env()?;
    let mut tally = Tally {
        phases: Phases::new(),
        verdict: Verdict::default(),
    };
    report::print_header(&knobs);

    tally.phases.begin("start the server");
    let (server, database, provided) = start_server(&knobs)?;
    println!("server: {}", server.version()?);
    println!("near:   {}", server.near);
    let psql = which("psql")
        .context("psql is needed for the comparison (apt-get install postgresql-client)")?;

    tally
        .phases
        .begin(&format!("generate the data set at {}", knobs.scale));
    let fresh_possible = bench::load_main(&server, &database, knobs.scale, provided)?;
    let (examples, sizes) = {
        let mut client = server.connect(&database)?;
        (server::examples(&mut client)?, server::sizes(&mut client)?)
    };
    report::print_sizes("data set", &[(knobs.scale, sizes)]);
    println!(
        "diagnosed: typical {} ({} events), long trail {} ({} events)",
        examples.typical.0, examples.typical.1, examples.long_trail.0, examples.long_trail.1
    );

    let proxy = if knobs.runs("far") {
        Some(Proxy::start_with(Options {
            upstream: server.upstream.clone(),
            delay: knobs.delay,
            fault: None,
        })?)
    } else {
        None
    };
    let bench = Bench {
        knobs: &knobs,
        server: &server,
        psql: &psql,
        proxy: proxy.as_ref(),
    };
    if let Some(proxy) = &proxy {
        bench::calibrate_proxy(&bench, &database, proxy)?;
    }
    let groups = cases::groups(&examples, true);
    let main_plan = Plan {
        warmups: 1,
        runs: knobs.runs,
        case_budget: None,
    };
    let vacuumed_near = bench::both_states(
        &bench,
        &mut tally,
        &database,
        fresh_possible,
        &examples,
        &groups,
        main_plan,
    )?;

    if knobs.runs("pgbouncer") {
        tally.phases.begin("vacuumed: through PgBouncer");
        pooled::pooled(&bench, &mut tally, &database, &groups, main_plan)?;
    }
    let quick_plan = Plan {
        warmups: 1,
        runs: knobs.quick_runs,
        case_budget: Some(Duration::from_secs(20)),
    };
    if knobs.runs("noindex") {
        tally.phases.begin("no-index schema");
        let indexed = vacuumed_near.as_deref();
        noindex::no_index(&bench, &mut tally, &database, &groups, indexed, quick_plan)?;
    }
    if knobs.runs("million") {
        tally.phases.begin("a million-event trail");
        let typical = examples.typical.0.to_string();
        million::million(&bench, &mut tally, &database, &typical, quick_plan)?;
    }
    if knobs.runs("batch") {
        tally.phases.begin("a batch of 500 through fail-safely");
        batch::batch(&bench, &mut tally, &database)?;
    }
    let one = (sizes, vacuumed_near.as_deref());
    if knobs.runs("scaling") {
        scaling::scaling(&bench, &mut tally, &database, one, quick_plan)?;
    }
    if knobs.runs("nodes") {
        tally.phases.begin("fleet list at 50,000 nodes");
        scaling::fleet_at_50k_nodes(&bench, &mut tally, &database, one, quick_plan)?;
    }

    drop(proxy);
    tally.phases.begin("stop the server");
    drop(server);
    tally.phases.print();
    tally.verdict.print(tally.phases.total());
    Ok(tally.verdict.problems.len())
}

/// The throwaway cluster with an empty database `bench`, or the server
/// of PUSHLEFT_BENCH_DATABASE_URL; true when the database was provided.
fn start_server(knobs: &Knobs) -> Result<(Server, String, bool)> {
    Ok(match &knobs.database_url {
        Some(url) => {
            let (server, database) = Server::external(url)?;
            (server, database, true)
        }
        None => {
            let server = Server::throwaway()?;
            server.create_database("bench", None)?;
            (server, "bench".to_string(), false)
        }
    })
}
