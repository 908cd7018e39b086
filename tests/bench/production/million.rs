//! A 1,000,000-event trail: a copy of the vacuumed database where the
//! typical deployment gets a million more events (ANALYZEd, not vacuumed,
//! as a trail that just grew is), and `diagnose` of it as JSON (the whole
//! trail, streamed) and as a table, beside psql running the runbook's
//! Diagnosis on the same deployment. The goal: ours ≤ 0.5 × psql and a peak
//! RSS under 50 MB.

use anyhow::{Context, Result};

use crate::bench::{Bench, Tally};
use crate::cases::runbook;
use crate::measure::{Case, Group, Plan};
use crate::report::{self, RATIO_GOAL};
use crate::server::ScratchDatabase;

/// How many events the phase adds.
pub const EVENTS: i64 = 1_000_000;

pub fn million(
    bench: &Bench<'_>,
    tally: &mut Tally,
    database: &str,
    typical: &str,
    plan: Plan,
) -> Result<()> {
    let copy =
        ScratchDatabase::create(bench.server, format!("{database}_million"), Some(database))?;
    let started = std::time::Instant::now();
    let mut client = bench.server.connect(&copy.name)?;
    client
        .execute(
            "INSERT INTO public.deployment_events
                 (sequence, id, org_id, deployment_id, kind, payload, occurred_at)
             SELECT last.sequence + g, gen_random_uuid(), d.org_id, d.id, 'build_log_line',
                    jsonb_build_object('line', g, 'log', repeat('x', 120)),
                    last.occurred_at - interval '1 hour' + g * interval '1 ms'
             FROM public.deployments d,
                  LATERAL (SELECT max(sequence) AS sequence, max(occurred_at) AS occurred_at
                           FROM public.deployment_events WHERE deployment_id = d.id) last,
                  generate_series(1, $2::int8) g
             WHERE d.id = $1::text::uuid",
            &[&typical, &EVENTS],
        )
        .context("adding a million events")?;
    client.batch_execute("ANALYZE public.deployment_events")?;
    drop(client);
    println!(
        "\n{EVENTS} events added to {typical} in a copy of the vacuumed database, ANALYZEd, \
         in {:.1}s",
        started.elapsed().as_secs_f64()
    );
    let label = format!(" ({EVENTS} more ev)");
    let group = Group {
        baseline: Some(runbook("million", typical, &label)),
        members: vec![
            Case::ours(
                format!("diagnose million{label} -o json"),
                &["diagnose", typical, "-o", "json"],
            ),
            Case::ours(
                format!("diagnose million{label} -o table"),
                &["diagnose", typical, "-o", "table"],
            ),
        ],
    };
    let results = bench.measure(&copy.name, false, &[group], plan)?;
    let title = format!("a {EVENTS}-event trail · near · {plan}, ms");
    let ratios = report::print_comparison(&title, &results, false, plan.runs);
    tally
        .verdict
        .record("million-event trail", &results, &ratios, RATIO_GOAL);
    Ok(())
}
