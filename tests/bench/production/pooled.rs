//! The near table again through PgBouncer in transaction mode (README,
//! "Poolers and server versions in the tests"), on the vacuumed database:
//! what pooling costs, and what pinning every transaction's settings costs
//! behind a pooler (the same pinned transactions, each handed a server
//! connection of the pool). psql goes through the same PgBouncer.

use anyhow::{Context, Result};
use pushleft_controller::testing::pgbouncer::{Pgbouncer, PgbouncerOptions, PoolMode};

use crate::bench::{Bench, Tally};
use crate::measure::{Group, Plan, measure_groups};
use crate::report::{self, RATIO_GOAL};

pub fn pooled(
    bench: &Bench<'_>,
    tally: &mut Tally,
    database: &str,
    groups: &[Group],
    plan: Plan,
) -> Result<()> {
    let (host, port, user) = bench.server.address();
    let options = PgbouncerOptions::new(host, port, PoolMode::Transaction).user(user);
    let pgbouncer = Pgbouncer::start_with(&options).context("starting PgBouncer")?;
    let mut target = bench.target(database, false);
    target.conninfo = format!("{} sslmode=disable", pgbouncer.conninfo(database, user));
    let results = measure_groups(&target, groups, plan, &|| {
        bench.server.terminate_backends(database)
    })?;
    let title = format!(
        "vacuumed · through PgBouncer (transaction pooling, 127.0.0.1:{}) · {plan}, ms",
        pgbouncer.port()
    );
    let ratios = report::print_comparison(&title, &results, false, plan.runs);
    tally
        .verdict
        .record("pgbouncer near", &results, &ratios, RATIO_GOAL);
    Ok(())
}
