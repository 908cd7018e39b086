//! A big incident's break-glass: `fail-safely --from FILE` over 500 stuck
//! deployments, `--dry-run` and then `--yes`, in a data set of its own
//! (generated at 1.8× the scale, so that at 1× more than 500 deployments
//! are stuck; freshly loaded and ANALYZEd). The time and the round trips
//! per deployment are reported; there is no psql to compare with. Every
//! run goes through a second proxy that holds nothing (0 ms): it only
//! counts the round trips, the time is the near one plus the proxy's
//! copying.

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result, anyhow};

use crate::BIN;
use crate::bench::{Bench, Tally};
use crate::measure::{self, Case, Target};
use crate::report::{self, Table};
use crate::server::{self, ScratchDatabase};
use pushleft_controller::testing::proxy::Proxy;

/// How many deployments the batch holds (fewer when the data set has
/// fewer stuck ones).
pub const SIZE: usize = 500;

/// How much larger than the main data set the batch's is.
const SCALE_FACTOR: f64 = 1.8;

/// How long one batch may take before it is killed.
const TIMEOUT: Duration = Duration::from_secs(600);

pub fn batch(bench: &Bench<'_>, tally: &mut Tally, database: &str) -> Result<()> {
    let copy = ScratchDatabase::create(bench.server, format!("{database}_batch"), None)?;
    let scale = bench.knobs.scale * SCALE_FACTOR;
    let loaded = server::load(&mut bench.server.connect(&copy.name)?, scale, None)?;
    println!(
        "\nbatch: a data set at {scale:.2}× generated and ANALYZEd in {:.1}s",
        loaded.seconds
    );
    let counter = Proxy::start(bench.server.upstream.clone())?;
    let target = Target {
        ours: Path::new(BIN),
        psql: bench.psql,
        conninfo: bench.server.conninfo_via(&copy.name, counter.port()),
        proxy: Some(&counter),
        timeout: TIMEOUT,
    };
    let ids = stuck_ids(&target)?;
    let mut file = tempfile::NamedTempFile::new().context("creating the batch file")?;
    for id in &ids {
        writeln!(file, "{id}").context("writing the batch file")?;
    }
    file.flush().context("writing the batch file")?;
    let path = file.path().display().to_string();
    let n = ids.len().to_string();
    let args = |last: &'static str| {
        vec![
            "fail-safely",
            "--from",
            path.as_str(),
            "--max",
            n.as_str(),
            "--reason",
            "BENCH-2 batch",
            last,
            // The tool's own cost, not the pace it keeps by default
            // (--rate 5/s, README "Two-person break-glass").
            "--rate",
            "1000/s",
            "-o",
            "json",
        ]
    };
    let cases = [
        Case::ours(
            format!("fail-safely --from ({n}) --dry-run"),
            &args("--dry-run"),
        ),
        Case::ours(format!("fail-safely --from ({n}) --yes"), &args("--yes")),
    ];
    let mut table = Table::new(&[
        "command",
        "deployments",
        "total s",
        "ms per deployment",
        "round trips",
        "per deployment",
        "peak RSS",
    ])
    .left(0);
    let mut stderr = tempfile::tempfile().context("creating a file for stderr")?;
    for case in &cases {
        let sample = measure::run_once(&target, case, &mut stderr, &|| {
            bench.server.terminate_backends(&copy.name)
        })?;
        let sample = match sample {
            Ok(sample) => sample,
            Err(err) => {
                tally
                    .verdict
                    .problems
                    .push(format!("batch: {}: {err}", case.label));
                continue;
            }
        };
        let flights = sample.flights.unwrap_or_default();
        let startup: u32 = flights.iter().filter_map(|f| f.startup).sum();
        let total: u32 = flights.iter().map(|f| f.round_trips).sum();
        let per = ids.len().max(1) as f64;
        table.row(vec![
            case.label.clone(),
            ids.len().to_string(),
            format!("{:.1}", sample.ms / 1000.0),
            format!("{:.1}", sample.ms / per),
            format!("{startup}+{}", total - startup),
            format!("{:.1}", f64::from(total - startup) / per),
            report::mb(sample.rss_kib),
        ]);
    }
    println!(
        "\nbatch · near through a counting proxy (0 ms) · one run each, the dry run first · \
         round trips: start-up+rest"
    );
    table.print();
    Ok(())
}

/// The first [`SIZE`] deployments `stuck -o json` lists.
fn stuck_ids(target: &Target<'_>) -> Result<Vec<String>> {
    let output = std::process::Command::new(target.ours)
        .env("DATABASE_URL", &target.conninfo)
        .args(["stuck", "-o", "json"])
        .output()
        .context("running stuck for the batch's deployments")?;
    if let Some(proxy) = target.proxy {
        proxy.take(Duration::from_secs(5))?;
    }
    let doc: serde_json::Value =
        serde_json::from_slice(&output.stdout).context("reading stuck's JSON")?;
    let rows = doc["deployments_stuck"]
        .as_array()
        .ok_or_else(|| anyhow!("stuck -o json has no deployments_stuck"))?;
    Ok(rows
        .iter()
        .filter_map(|row| row["deployment_id"].as_str().map(str::to_string))
        .take(SIZE)
        .collect())
}
