//! The no-index schema: a copy of the vacuumed database that keeps only
//! the indexes of its primary keys and unique constraints. The tool must
//! still work there, no slower than psql's obvious queries, and `doctor`
//! must name every missing index.

use anyhow::Result;

use crate::bench::{Bench, Tally};
use crate::measure::{self, Case, Group, GroupResult, Plan};
use crate::report::{self, Table};
use crate::server::{self, ScratchDatabase};
use crate::verdict::NO_INDEX_RATIO_GOAL;

/// A copy of the vacuumed database with only its keys' indexes.
pub fn no_index(
    bench: &Bench<'_>,
    tally: &mut Tally,
    database: &str,
    groups: &[Group],
    indexed: Option<&[GroupResult]>,
    plan: Plan,
) -> Result<()> {
    let copy =
        ScratchDatabase::create(bench.server, format!("{database}_noindex"), Some(database))?;
    let dropped = server::drop_plain_indexes(&mut bench.server.connect(&copy.name)?)?;
    println!(
        "\nno-index schema: a copy of the vacuumed database without its {} indexes that back no \
         key: {}",
        dropped.len(),
        dropped.join(", ")
    );
    // doctor warns (exit 0) and names every missing index.
    let (code, output) = measure::capture(
        &bench.target(&copy.name, false),
        // As a script reads it: the screen caps a line at 2,000 characters.
        &Case::ours("doctor", &["doctor", "-o", "json"]),
    )?;
    let unnamed: Vec<&String> = dropped
        .iter()
        .filter(|name| !output.contains(name.as_str()))
        .collect();
    println!(
        "doctor there: exit {code}; names {} of the {} missing indexes",
        dropped.len() - unnamed.len(),
        dropped.len()
    );
    if code != 0 {
        tally
            .verdict
            .problems
            .push(format!("no-index: doctor exits {code}, not 0"));
    }
    if !unnamed.is_empty() {
        tally.verdict.problems.push(format!(
            "no-index: doctor does not name {}",
            unnamed
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let results = bench.measure(&copy.name, false, groups, plan)?;
    let title = format!(
        "no-index schema · near · {plan} (a run over {}s is killed), ms",
        bench.knobs.timeout.as_secs()
    );
    let ratios = report::print_comparison(&title, &results, false, plan.runs);
    // "Degrades no worse than psql's obvious query on the same schema":
    // on that schema, ours is at most as slow as psql.
    tally
        .verdict
        .record("no-index", &results, &ratios, NO_INDEX_RATIO_GOAL);
    if let Some(indexed) = indexed {
        println!("\nno-index schema: how much slower than with the indexes (vacuumed, near)");
        let mut table = Table::new(&["command", "ours", "psql (its baseline)"]);
        for (without, with) in results.iter().zip(indexed) {
            let slower = |a: Option<&measure::Measured>, b: Option<&measure::Measured>| match (
                a.map(|m| &m.outcome),
                b.map(|m| &m.outcome),
            ) {
                (Some(Ok(a)), Some(Ok(b))) => format!("×{:.1}", a.median / b.median),
                (Some(Err(err)), _) => err.to_string(),
                _ => String::new(),
            };
            let psql = slower(without.baseline.as_ref(), with.baseline.as_ref());
            for (member_without, member_with) in without.members.iter().zip(&with.members) {
                table.row(vec![
                    member_without.case.label.clone(),
                    slower(Some(member_without), Some(member_with)),
                    psql.clone(),
                ]);
            }
        }
        table.print();
    }
    Ok(())
}
