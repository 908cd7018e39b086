//! What the run found: the problems that make the exit status non-zero
//! (a plan that fails the EXPLAIN check, a command that failed or timed
//! out) and the goals, met or missed (reported, not fatal).

use std::time::Duration;

use crate::measure::{self, GroupResult};
use crate::report::{self, RATIO_GOAL, RSS_LIMIT_KIB};

/// On the no-index schema the goal is not to be slower than psql there:
/// "degrades no worse than psql's obvious query on the same schema".
pub const NO_INDEX_RATIO_GOAL: f64 = 1.0;

/// `stuck` is held to more than the other reads: ≤ 0.4 of psql's alert
/// queries (near and far, both states, through PgBouncer).
pub const STUCK_RATIO_GOAL: f64 = 0.4;

/// What makes the exit status non-zero, and the goals missed.
#[derive(Default)]
pub struct Verdict {
    pub problems: Vec<String>,
    goals_missed: Vec<String>,
    goals_met: usize,
}

impl Verdict {
    /// Records the failed commands of a table, and the goals: peak RSS,
    /// and each ratio ours / psql at most `ratio_goal`.
    pub fn record(
        &mut self,
        title: &str,
        results: &[GroupResult],
        ratios: &[(String, f64)],
        ratio_goal: f64,
    ) {
        for measured in results
            .iter()
            .flat_map(|g| g.baseline.iter().chain(&g.members))
        {
            match &measured.outcome {
                Err(err) => self
                    .problems
                    .push(format!("{title}: {}: {err}", measured.case.label)),
                Ok(stats) if stats.max_rss_kib > RSS_LIMIT_KIB => {
                    if measured.case.program == measure::Program::Ours {
                        self.goals_missed.push(format!(
                            "{title}: {}: peak RSS {}",
                            measured.case.label,
                            report::mb(stats.max_rss_kib)
                        ));
                    }
                }
                Ok(_) => {}
            }
        }
        for (label, ratio) in ratios {
            let ratio_goal = if label.starts_with("stuck") && ratio_goal == RATIO_GOAL {
                STUCK_RATIO_GOAL
            } else {
                ratio_goal
            };
            if *ratio <= ratio_goal {
                self.goals_met += 1;
            } else {
                self.goals_missed.push(format!(
                    "{title}: {label}: ours / psql = {ratio:.2} (goal ≤ {ratio_goal})"
                ));
            }
        }
    }

    /// The summary at the end: goals met and missed, the problems.
    pub fn print(&self, total: Duration) {
        println!(
            "\nGoals: ours / psql ≤ {RATIO_GOAL} (stuck: ≤ {STUCK_RATIO_GOAL}; no-index: ≤ \
             {NO_INDEX_RATIO_GOAL}) met by {} row(s); \
             peak RSS under 50 MB; missed:",
            self.goals_met
        );
        if self.goals_missed.is_empty() {
            println!("  none");
        }
        for missed in &self.goals_missed {
            println!("  - {missed}");
        }
        println!("Problems (non-zero exit):");
        if self.problems.is_empty() {
            println!("  none");
        }
        for problem in &self.problems {
            println!("  - {problem}");
        }
        println!(
            "Total wall time {:.0}s{}",
            total.as_secs_f64(),
            if total > Duration::from_secs(20 * 60) {
                " (over the 20-minute budget)"
            } else {
                ""
            }
        );
    }
}
