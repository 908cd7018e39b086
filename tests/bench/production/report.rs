//! What the benchmark prints: aligned plain-text tables (pasteable into
//! the README), the phase timer.

use std::time::{Duration, Instant};

use crate::measure::{self, FlightSummary, GroupResult, Measured, Stats};
use crate::server::Sizes;
use crate::{BIN, Knobs};

/// The goals, checked in the summary (not in the exit status: the
/// exit status is for a broken plan or a command that failed).
pub const RATIO_GOAL: f64 = 0.5;
pub const RSS_LIMIT_KIB: i64 = 50 * 1024;

/// Plain aligned columns: the first and the text ones left-aligned, the
/// numbers right.
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
    left: Vec<bool>,
}

impl Table {
    pub fn new(header: &[&str]) -> Table {
        Table {
            header: header.iter().map(|s| s.to_string()).collect(),
            rows: Vec::new(),
            left: (0..header.len()).map(|i| i == 0).collect(),
        }
    }

    /// Column `column` holds text: align it left.
    pub fn left(mut self, column: usize) -> Table {
        if let Some(left) = self.left.get_mut(column) {
            *left = true;
        }
        self
    }

    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    pub fn print(&self) {
        let columns = self.header.len();
        let mut widths: Vec<usize> = self.header.iter().map(|h| h.chars().count()).collect();
        for row in &self.rows {
            for (i, cell) in row.iter().enumerate().take(columns) {
                widths[i] = widths[i].max(cell.chars().count());
            }
        }
        let line = |cells: &[String]| {
            let mut out = String::from("  ");
            for (i, cell) in cells.iter().enumerate().take(columns) {
                let pad = widths[i] - cell.chars().count();
                if i > 0 {
                    out.push_str("  ");
                }
                if self.left[i] {
                    out.push_str(cell);
                    out.push_str(&" ".repeat(pad));
                } else {
                    out.push_str(&" ".repeat(pad));
                    out.push_str(cell);
                }
            }
            println!("{}", out.trim_end());
        };
        line(&self.header);
        for row in &self.rows {
            line(row);
        }
    }
}

pub fn mb(kib: i64) -> String {
    let text = format!("{:.1} MB", kib as f64 / 1024.0);
    if kib > RSS_LIMIT_KIB {
        format!("{text} (>50!)")
    } else {
        text
    }
}

fn ms(stats: &Stats) -> String {
    format!("{:.1}", stats.median)
}

fn spread(stats: &Stats) -> String {
    format!("{:.1}–{:.1}", stats.p10, stats.p90)
}

/// Round trips as "start-up+rest" summed over connections ("2 conns" when
/// more than one; "~" when the runs did not all take the same).
pub fn flights(summary: Option<FlightSummary>) -> String {
    let Some(f) = summary else {
        return String::new();
    };
    let mut text = match f.startup {
        Some(startup) => format!("{startup}+{}", f.total.saturating_sub(startup)),
        None => format!("?+{}", f.total),
    };
    if f.connections != 1 {
        text.push_str(&format!(" ({} conns)", f.connections));
    }
    if f.varied {
        text.insert(0, '~');
    }
    text
}

fn outcome_cell(measured: &Measured, runs: usize) -> String {
    match &measured.outcome {
        Ok(stats) if stats.runs < runs => format!(
            "{} ({} run{})",
            ms(stats),
            stats.runs,
            if stats.runs == 1 { "" } else { "s" }
        ),
        Ok(stats) => ms(stats),
        Err(err) => match err {
            super::measure::RunError::TimedOut(_) => "TIMEOUT".into(),
            super::measure::RunError::Failed(_) => "FAILED".into(),
        },
    }
}

/// One state × distance: ours, psql, the ratio, round trips (through the
/// proxy), peak RSS. Returns the rows' ratios for the goals. `runs`: the
/// planned number; a case measured fewer times (its budget ran out) says so.
pub fn print_comparison(
    title: &str,
    results: &[GroupResult],
    far: bool,
    runs: usize,
) -> Vec<(String, f64)> {
    println!("\n{title}");
    let mut header = vec![
        "command",
        "ours ms",
        "p10–p90",
        "psql ms",
        "p10–p90",
        "ours/psql",
    ];
    if far {
        header.extend(["round trips ours", "psql"]);
    }
    header.extend(["peak RSS ours", "psql", "psql baseline"]);
    let last = header.len() - 1;
    let mut table = Table::new(&header).left(last);
    let mut ratios = Vec::new();
    let mut failures = Vec::new();
    for group in results {
        let baseline = group.baseline.as_ref();
        let base_stats = baseline.and_then(|b| b.outcome.as_ref().ok());
        if let Some(b) = baseline
            && let Err(err) = &b.outcome
        {
            failures.push(format!("{}: {err}", b.case.label));
        }
        for member in &group.members {
            let ours = member.outcome.as_ref().ok();
            if let Err(err) = &member.outcome {
                failures.push(format!("{}: {err}", member.case.label));
            }
            let ratio = match (ours, base_stats) {
                (Some(o), Some(b)) => {
                    let r = o.median / b.median;
                    ratios.push((member.case.label.clone(), r));
                    format!("{r:.2}")
                }
                _ => String::new(),
            };
            let mut row = vec![
                member.case.label.clone(),
                outcome_cell(member, runs),
                ours.map(spread).unwrap_or_default(),
                baseline.map(|b| outcome_cell(b, runs)).unwrap_or_default(),
                base_stats.map(spread).unwrap_or_default(),
                ratio,
            ];
            if far {
                row.push(flights(ours.and_then(|s| s.flights)));
                row.push(flights(base_stats.and_then(|s| s.flights)));
            }
            row.push(ours.map(|s| mb(s.max_rss_kib)).unwrap_or_default());
            row.push(base_stats.map(|s| mb(s.max_rss_kib)).unwrap_or_default());
            row.push(baseline.map(|b| b.case.label.clone()).unwrap_or_default());
            table.row(row);
        }
    }
    table.print();
    for failure in failures {
        println!("  ! {failure}");
    }
    ratios
}

/// The phase timer: what each phase took, printed as it goes and at the end.
pub struct Phases {
    started: Instant,
    current: Option<(String, Instant)>,
    done: Vec<(String, Duration)>,
}

impl Phases {
    pub fn new() -> Phases {
        Phases {
            started: Instant::now(),
            current: None,
            done: Vec::new(),
        }
    }

    pub fn begin(&mut self, name: &str) {
        self.end();
        let at = self.started.elapsed().as_secs();
        eprintln!("[{:>2}:{:02}] {name}…", at / 60, at % 60);
        self.current = Some((name.to_string(), Instant::now()));
    }

    fn end(&mut self) {
        if let Some((name, started)) = self.current.take() {
            self.done.push((name, started.elapsed()));
        }
    }

    pub fn total(&self) -> Duration {
        self.started.elapsed()
    }

    pub fn print(&mut self) {
        self.end();
        println!("\nPhases (wall time):");
        let mut table = Table::new(&["phase", "seconds"]);
        for (name, took) in &self.done {
            table.row(vec![name.clone(), format!("{:.1}", took.as_secs_f64())]);
        }
        table.row(vec![
            "total".into(),
            format!("{:.1}", self.total().as_secs_f64()),
        ]);
        table.print();
    }
}

pub fn print_sizes(title: &str, sizes: &[(f64, Sizes)]) {
    println!("\n{title}:");
    print_sizes_table(
        &sizes
            .iter()
            .map(|(scale, s)| (format!("scale {scale}"), *s))
            .collect::<Vec<_>>(),
    );
}

pub fn print_sizes_table(sizes: &[(String, Sizes)]) {
    let mut table = Table::new(&[
        "size",
        "deployments",
        "events",
        "nodes",
        "allocations in use",
        "stuck",
        "orphaned leases",
        "long trail",
    ]);
    for (label, s) in sizes {
        table.row(vec![
            label.clone(),
            s.deployments.to_string(),
            s.events.to_string(),
            s.nodes.to_string(),
            s.allocations_in_use.to_string(),
            s.stuck.to_string(),
            s.orphaned_leases.to_string(),
            s.long_trail_events.to_string(),
        ]);
    }
    table.print();
}

/// What each size holds, then one row per command (ours, and psql's
/// baseline rows), one column of "median ms (peak RSS)" per size.
pub fn print_scaling(columns: &[(String, Sizes, Vec<GroupResult>)]) {
    print_sizes_table(
        &columns
            .iter()
            .map(|(label, sizes, _)| (label.clone(), *sizes))
            .collect::<Vec<_>>(),
    );
    let mut header = vec!["command".to_string()];
    header.extend(columns.iter().map(|(label, _, _)| label.clone()));
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut table = Table::new(&header);
    let Some((_, _, first)) = columns.first() else {
        return;
    };
    let cell = |m: &measure::Measured| match &m.outcome {
        Ok(stats) => format!("{:.1} ({})", stats.median, mb(stats.max_rss_kib)),
        Err(err) => err.to_string(),
    };
    for (g, group) in first.iter().enumerate() {
        let rows: Vec<&measure::Measured> = group.members.iter().chain(&group.baseline).collect();
        for (m, measured) in rows.iter().enumerate() {
            let mut row = vec![measured.case.label.clone()];
            for (_, _, results) in columns {
                let at = results
                    .get(g)
                    .and_then(|group| group.members.iter().chain(&group.baseline).nth(m));
                row.push(at.map(cell).unwrap_or_default());
            }
            table.row(row);
        }
    }
    table.print();
}

pub fn print_header(knobs: &Knobs) {
    let host = nix::unistd::gethostname()
        .map(|h| h.to_string_lossy().into_owned())
        .unwrap_or_else(|_| "?".into());
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, model)| model.trim().to_string())
        })
        .unwrap_or_else(|| "?".into());
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(0);
    println!("pushleft-controller production benchmark");
    println!(
        "date:   {}",
        chrono::Utc::now().format("%Y-%m-%d %H:%M UTC")
    );
    println!("host:   {host}, {cores} cores, {cpu}");
    println!("binary: {BIN}");
    println!(
        "knobs:  scale {}, runs {} (quick {}), proxy delay {} ms, timeout {} s, skip [{}]",
        knobs.scale,
        knobs.runs,
        knobs.quick_runs,
        knobs.delay.as_millis(),
        knobs.timeout.as_secs(),
        knobs.skip.iter().cloned().collect::<Vec<_>>().join(",")
    );
}
