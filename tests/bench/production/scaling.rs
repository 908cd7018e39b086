//! Scaling: the commands at 0.25× and 2× the data set (vacuumed, near)
//! beside 1×, and `fleet list` at 50,000 nodes beside 5,000. diagnose
//! should stay flat in the size of the database, fleet list grow with the
//! nodes, stuck with what it finds; peak RSS stay under 50 MB everywhere.

use anyhow::Result;

use crate::bench::{Bench, Tally};
use crate::cases::{fleet_group, groups};
use crate::measure::{GroupResult, Plan};
use crate::report::{RATIO_GOAL, print_scaling};
use crate::server::{self, ScratchDatabase, Sizes};

/// The commands at 0.25× and 2× the scale (vacuumed, near), next to 1×.
pub fn scaling(
    bench: &Bench<'_>,
    tally: &mut Tally,
    database: &str,
    (one_sizes, one): (Sizes, Option<&[GroupResult]>),
    plan: Plan,
) -> Result<()> {
    let scale = bench.knobs.scale;
    let mut columns: Vec<(String, Sizes, Vec<GroupResult>)> = Vec::new();
    for factor in [0.25, 2.0] {
        tally.phases.begin(&format!("scaling: {factor}×"));
        let name = format!("{database}_x{}", format!("{factor}").replace('.', "_"));
        let scratch = ScratchDatabase::create(bench.server, name, None)?;
        let (sizes, examples, seconds) = {
            let mut client = bench.server.connect(&scratch.name)?;
            let loaded = server::load(&mut client, scale * factor, None)?;
            let vacuumed = server::vacuum(&mut client)?;
            (
                server::sizes(&mut client)?,
                server::examples(&mut client)?,
                loaded.seconds + vacuumed,
            )
        };
        println!(
            "\n{factor}× ({}): generated, ANALYZEd and vacuumed in {seconds:.1}s",
            scale * factor
        );
        let results = bench.measure(&scratch.name, false, &groups(&examples, false), plan)?;
        tally
            .verdict
            .record(&format!("scaling {factor}×"), &results, &[], RATIO_GOAL);
        columns.push((format!("{factor}×"), sizes, results));
    }
    if let Some(one) = one {
        columns.insert(1, ("1×".into(), one_sizes, one.to_vec()));
    }
    println!("\nscaling · vacuumed · near · {plan}, ms (peak RSS); 1×: the vacuumed near table");
    print_scaling(&columns);
    Ok(())
}

/// `fleet list` at 50,000 nodes (the data set otherwise at 1×), next to
/// the 1× fleet.
pub fn fleet_at_50k_nodes(
    bench: &Bench<'_>,
    tally: &mut Tally,
    database: &str,
    (one_sizes, one): (Sizes, Option<&[GroupResult]>),
    plan: Plan,
) -> Result<()> {
    const NODES: i32 = 50_000;
    let scratch = ScratchDatabase::create(bench.server, format!("{database}_nodes{NODES}"), None)?;
    let (sizes, seconds) = {
        let mut client = bench.server.connect(&scratch.name)?;
        let loaded = server::load(&mut client, bench.knobs.scale, Some(NODES))?;
        let vacuumed = server::vacuum(&mut client)?;
        (server::sizes(&mut client)?, loaded.seconds + vacuumed)
    };
    println!("\n{NODES} nodes: generated, ANALYZEd and vacuumed in {seconds:.1}s");
    let results = bench.measure(&scratch.name, false, &[fleet_group()], plan)?;
    tally
        .verdict
        .record("fleet at 50k nodes", &results, &[], RATIO_GOAL);
    let mut columns = Vec::new();
    if let Some(one) = one {
        // The fleet group of the 1× table (the fourth).
        let fleet_at_one: Vec<GroupResult> = one.iter().skip(3).take(1).cloned().collect();
        columns.push((
            format!("{} nodes", one_sizes.nodes),
            one_sizes,
            fleet_at_one,
        ));
    }
    columns.push((format!("{NODES} nodes"), sizes, results));
    println!("\nfleet list by node count · vacuumed · near · {plan}, ms (peak RSS)");
    print_scaling(&columns);
    Ok(())
}
