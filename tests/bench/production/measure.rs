//! Measuring cases side by side: rounds of a baseline and the commands
//! compared with it, each case's statistics (median, p10–p90, peak RSS,
//! round trips), and the run plan. One run of a process is `process`.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use anyhow::{Context, Result};

// The cases and their runs, named here as they always were.
pub use super::process::{Case, Program, RunError, Sample, Target, run_once};

/// The samples of one case, or why it has none.
#[derive(Debug, Clone)]
pub struct Measured {
    pub case: Case,
    pub outcome: std::result::Result<Stats, RunError>,
}

#[derive(Debug, Clone)]
pub struct Stats {
    pub runs: usize,
    pub median: f64,
    pub p10: f64,
    pub p90: f64,
    pub max_rss_kib: i64,
    /// The most frequent round-trip count over the runs (connections,
    /// start-up, total), when the runs went through the proxy.
    pub flights: Option<FlightSummary>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlightSummary {
    pub connections: usize,
    /// Start-up round trips, summed over the connections (None: one never
    /// reached ReadyForQuery).
    pub startup: Option<u32>,
    pub total: u32,
    /// Not every run took the same number.
    pub varied: bool,
}

impl Stats {
    fn of(samples: &[Sample]) -> Stats {
        let mut times: Vec<f64> = samples.iter().map(|s| s.ms).collect();
        times.sort_by(f64::total_cmp);
        let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
        let per_run: Vec<FlightSummary> = samples
            .iter()
            .filter_map(|s| s.flights.as_ref())
            .map(|connections| FlightSummary {
                connections: connections.len(),
                startup: connections.iter().map(|c| c.startup).sum(),
                total: connections.iter().map(|c| c.round_trips).sum(),
                varied: false,
            })
            .collect();
        let flights = per_run
            .iter()
            .max_by_key(|candidate| per_run.iter().filter(|other| other == candidate).count())
            .map(|most| FlightSummary {
                varied: per_run.iter().any(|other| other != most),
                ..*most
            });
        Stats {
            runs: samples.len(),
            median: at(0.5),
            p10: at(0.1),
            p90: at(0.9),
            max_rss_kib: samples.iter().map(|s| s.rss_kib).max().unwrap_or(0),
            flights,
        }
    }
}

/// A psql baseline and the commands of ours compared with it (or none).
#[derive(Debug, Clone)]
pub struct Group {
    pub baseline: Option<Case>,
    pub members: Vec<Case>,
}

#[derive(Debug, Clone)]
pub struct GroupResult {
    pub baseline: Option<Measured>,
    pub members: Vec<Measured>,
}

/// How many runs, and how long one may take.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    pub warmups: usize,
    pub runs: usize,
    /// A case stops being repeated once its runs (warm-ups included) have
    /// taken this long and it has one measured run: a command that takes
    /// 20 s on the no-index schema is measured, not waited for ten times.
    pub case_budget: Option<Duration>,
}

impl std::fmt::Display for Plan {
    /// "median of 15 runs after 1 warm-up", for the tables' titles.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        write!(
            f,
            "median of {} run{} after {} warm-up{}",
            self.runs,
            plural(self.runs),
            self.warmups,
            plural(self.warmups)
        )
    }
}

/// Measures each group side by side: in every round the baseline and then
/// each member once, so that ours and psql see the same moment of the
/// machine (caches, the neighbour's load). A case that fails or times out
/// is not run again.
pub fn measure_groups(
    target: &Target<'_>,
    groups: &[Group],
    plan: Plan,
    on_timeout: &dyn Fn(),
) -> Result<Vec<GroupResult>> {
    let mut stderr_file = tempfile::tempfile().context("creating a file for stderr")?;
    let mut results = Vec::new();
    for group in groups {
        let cases: Vec<&Case> = group.baseline.iter().chain(&group.members).collect();
        let mut samples: Vec<Vec<Sample>> = vec![Vec::new(); cases.len()];
        let mut errors: Vec<Option<RunError>> = vec![None; cases.len()];
        let mut spent = vec![Duration::ZERO; cases.len()];
        for round in 0..plan.warmups + plan.runs {
            for (i, case) in cases.iter().enumerate() {
                let over_budget = plan
                    .case_budget
                    .is_some_and(|budget| spent[i] > budget && !samples[i].is_empty());
                if errors[i].is_some() || over_budget {
                    continue;
                }
                match run_once(target, case, &mut stderr_file, on_timeout)? {
                    Ok(sample) => {
                        spent[i] += Duration::from_secs_f64(sample.ms / 1000.0);
                        if round >= plan.warmups {
                            samples[i].push(sample);
                        }
                    }
                    Err(err) => errors[i] = Some(err),
                }
            }
        }
        let mut measured: Vec<Measured> = cases
            .iter()
            .zip(samples.iter().zip(errors))
            .map(|(case, (samples, error))| Measured {
                case: (*case).clone(),
                outcome: match error {
                    Some(err) => Err(err),
                    None => Ok(Stats::of(samples)),
                },
            })
            .collect();
        let baseline = if group.baseline.is_some() {
            Some(measured.remove(0))
        } else {
            None
        };
        results.push(GroupResult {
            baseline,
            members: measured,
        });
    }
    Ok(results)
}

/// Runs a command once, untimed, and returns its exit code and everything
/// it printed (stdout then stderr).
pub fn capture(target: &Target<'_>, case: &Case) -> Result<(i32, String)> {
    let output = target
        .command(case)
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("running {}", case.label))?;
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    if let Some(proxy) = target.proxy {
        proxy.take(Duration::from_secs(5))?;
    }
    Ok((output.status.code().unwrap_or(-1), text))
}

/// `program` on PATH.
pub fn which(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}
