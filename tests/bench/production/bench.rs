//! What every phase needs: where the server is, how to run a command
//! near or far, the EXPLAIN check, the two states of the main database.

use std::path::Path;

use anyhow::{Context, Result};
use pushleft_controller::db::sql;
use pushleft_controller::testing::plans;

use crate::measure::{self, Case, Group, GroupResult, Plan, Target, measure_groups};
use crate::report::{self, Phases, RATIO_GOAL, Table};
use crate::server::{self, Examples, Server};
use crate::verdict::Verdict;
use crate::{BIN, Knobs};
use pushleft_controller::testing::proxy::Proxy;

/// The phase timer and the findings, carried through the phases.
pub struct Tally {
    pub phases: Phases,
    pub verdict: Verdict,
}

/// Everything a phase needs to run commands.
pub struct Bench<'a> {
    pub knobs: &'a Knobs,
    pub server: &'a Server,
    pub psql: &'a Path,
    pub proxy: Option<&'a Proxy>,
}

impl Bench<'_> {
    pub fn target(&self, database: &str, far: bool) -> Target<'_> {
        let (conninfo, proxy) = match (far, self.proxy) {
            (true, Some(proxy)) => (
                self.server.conninfo_via(database, proxy.port()),
                Some(proxy),
            ),
            _ => (self.server.conninfo(database), None),
        };
        Target {
            ours: Path::new(BIN),
            psql: self.psql,
            conninfo,
            proxy,
            timeout: self.knobs.timeout,
        }
    }

    pub fn measure(
        &self,
        database: &str,
        far: bool,
        groups: &[Group],
        plan: Plan,
    ) -> Result<Vec<GroupResult>> {
        let target = self.target(database, far);
        measure_groups(&target, groups, plan, &|| {
            self.server.terminate_backends(database)
        })
    }

    /// The EXPLAIN check on a plain session (the server's defaults, JIT
    /// included), printed; the statements with problems are returned.
    pub fn explain(&self, database: &str, examples: &Examples, state: &str) -> Result<Vec<String>> {
        let mut client = self.server.connect(database)?;
        let jit: String = client.query_one("SHOW jit", &[])?.get(0);
        let checks = plans::explain_all(&mut client, &sql::Schema::public(), examples.long_trail.0)
            .context("the EXPLAIN check")?;
        println!(
            "\nEXPLAIN check, {state} (jit = {jit}; fails on a Seq Scan of {} or a JIT-compiled plan), \
             for the long trail:",
            plans::BIG_TABLES.join(", ")
        );
        let mut table = Table::new(&["statement", "cost", "verdict"]).left(2);
        let mut bad = Vec::new();
        for check in &checks {
            let problems = check.problems();
            table.row(vec![
                check.name.clone(),
                format!("{:.0}", check.total_cost),
                if problems.is_empty() {
                    "ok".into()
                } else {
                    format!("FAIL: {}", problems.join("; "))
                },
            ]);
            if !problems.is_empty() {
                bad.push(format!(
                    "EXPLAIN {state}: {}: {}",
                    check.name,
                    problems.join("; ")
                ));
            }
        }
        table.print();
        println!("  {} statements, {} with problems", checks.len(), bad.len());
        Ok(bad)
    }
}

/// Loads the main database unless it already holds a data set; true when
/// it was loaded now (so that "fresh" is really fresh).
pub fn load_main(server: &Server, database: &str, scale: f64, provided: bool) -> Result<bool> {
    let mut client = server.connect(database)?;
    if provided {
        // Two statements: the second cannot even be planned without the table.
        let has_schema: bool = client
            .query_one("SELECT to_regclass('public.deployments') IS NOT NULL", &[])
            .context("looking for the reference schema")?
            .get(0);
        let filled = has_schema
            && client
                .query_one("SELECT EXISTS (SELECT 1 FROM public.deployments)", &[])
                .context("looking for a data set")?
                .get::<_, bool>(0);
        if filled {
            println!("\n{database} already holds a data set: reused as it is");
            return Ok(false);
        }
    }
    let loaded = server::load(&mut client, scale, None)?;
    println!(
        "\ngenerated and ANALYZEd in {:.1}s (no VACUUM; autovacuum off on every table):",
        loaded.seconds
    );
    for (table, count) in &loaded.counts {
        println!("  {table:<26} {count:>10}");
    }
    Ok(true)
}

/// One state: the EXPLAIN check, then every command near and far.
pub fn measure_state(
    bench: &Bench<'_>,
    tally: &mut Tally,
    database: &str,
    state: &str,
    examples: &Examples,
    groups: &[Group],
    plan: Plan,
) -> Result<Vec<GroupResult>> {
    tally.phases.begin(&format!("{state}: EXPLAIN check"));
    tally
        .verdict
        .problems
        .extend(bench.explain(database, examples, state)?);
    tally.phases.begin(&format!("{state}: near"));
    let near = bench.measure(database, false, groups, plan)?;
    let title = format!("{state} · near ({}) · {plan}, ms", bench.server.near);
    let ratios = report::print_comparison(&title, &near, false, plan.runs);
    tally
        .verdict
        .record(&format!("{state} near"), &near, &ratios, RATIO_GOAL);
    if bench.proxy.is_some() {
        tally.phases.begin(&format!("{state}: far"));
        let far = bench.measure(database, true, groups, plan)?;
        let title = format!(
            "{state} · far (proxy, +{} ms each way) · {plan}, ms · round trips: start-up+rest",
            bench.knobs.delay.as_millis()
        );
        let ratios = report::print_comparison(&title, &far, true, plan.runs);
        tally
            .verdict
            .record(&format!("{state} far"), &far, &ratios, RATIO_GOAL);
    }
    Ok(near)
}

/// The proxy's own cost: one trivial query through it.
pub fn calibrate_proxy(bench: &Bench<'_>, database: &str, proxy: &Proxy) -> Result<()> {
    let target = bench.target(database, true);
    let case = Case::psql("psql -c 'SELECT 1'", &["-c", "SELECT 1"]);
    let mut stderr = tempfile::tempfile().context("creating a file for stderr")?;
    let sample = measure::run_once(&target, &case, &mut stderr, &|| {})?
        .map_err(|err| anyhow::anyhow!("psql through the proxy: {err}"))?;
    let summary = sample.flights.as_ref().map(|c| measure::FlightSummary {
        connections: c.len(),
        startup: c.iter().map(|f| f.startup).sum(),
        total: c.iter().map(|f| f.round_trips).sum(),
        varied: false,
    });
    println!(
        "proxy:  127.0.0.1:{} holds every chunk {} ms each way; `psql -c 'SELECT 1'` through it: \
         {:.1} ms, round trips {} (start-up+rest)",
        proxy.port(),
        bench.knobs.delay.as_millis(),
        sample.ms,
        report::flights(summary)
    );
    Ok(())
}

/// The fresh state (when the database was loaded by this run), VACUUM
/// ANALYZE, the vacuumed state; returns the vacuumed near results, the
/// reference for the no-index and scaling phases.
pub fn both_states(
    bench: &Bench<'_>,
    tally: &mut Tally,
    database: &str,
    fresh_possible: bool,
    examples: &Examples,
    groups: &[Group],
    plan: Plan,
) -> Result<Option<Vec<GroupResult>>> {
    if !bench.knobs.runs("fresh") {
        println!("\nstate fresh: skipped (PUSHLEFT_BENCH_SKIP)");
    } else if !fresh_possible {
        println!(
            "\nstate fresh: skipped (the database was filled before this run, so it is not \
             freshly loaded)"
        );
    } else {
        measure_state(bench, tally, database, "fresh", examples, groups, plan)?;
    }
    tally.phases.begin("VACUUM ANALYZE");
    let vacuum_seconds = server::vacuum(&mut bench.server.connect(database)?)?;
    println!("\nVACUUM ANALYZE took {vacuum_seconds:.1}s; autovacuum is back on");
    if !bench.knobs.runs("vacuumed") {
        println!("\nstate vacuumed: skipped (PUSHLEFT_BENCH_SKIP)");
        return Ok(None);
    }
    measure_state(bench, tally, database, "vacuumed", examples, groups, plan).map(Some)
}
