//! `stuck` on the screen: the two alerts as two tables, then each row's
//! next step with its command whole on a line of its own.

use super::OutputFormat;
use super::output::{Output, Paint};
use super::report::{self, Line, Report};
use super::sanitize::visible;
use super::table::{Cell, Table, col};
use super::text::{command_lines, stamp, wrap, wrapped};
use crate::duration;
use crate::model::clock::ClockSkew;
use crate::model::next::NextCommand;
use crate::model::read_from::ReadFrom;
use crate::model::region::RegionStatus;
use crate::model::short_id;
use crate::model::stuck::{OrphanedLease, Responsible, StuckDeployment, StuckGroup, StuckReport};

fn secs(seconds: u64) -> i64 {
    i64::try_from(seconds).unwrap_or(i64::MAX)
}

/// One line per region read: which answered, which could not be read.
pub fn regions_lines(regions: &[RegionStatus], out: &Output) -> Vec<String> {
    let ok: Vec<&str> = regions
        .iter()
        .filter(|r| r.ok)
        .map(|r| r.region.as_str())
        .collect();
    let mut lines = wrap(
        &format!(
            "regions read: {}",
            if ok.is_empty() {
                "none".to_string()
            } else {
                ok.join(", ")
            }
        ),
        out.width,
        "",
        "  ",
    );
    for r in regions.iter().filter(|r| !r.ok) {
        let line = format!(
            "region {} could not be read: {}",
            r.region,
            visible(r.error.as_deref().unwrap_or("unknown"))
        );
        for l in wrap(&line, out.width, "! ", "  ") {
            lines.push(out.paint(&l, Paint::Bad));
        }
    }
    lines
}

/// The standby line, when a standby answered: how far behind it may be
/// (from WAL positions, `model::read_from`).
pub fn standby_line(read_from: ReadFrom) -> Option<String> {
    read_from.standby().then(|| {
        format!(
            "read from a standby ({}): what it shows may be behind the primary; \
             fail-safely must run on the primary",
            read_from.lag_words()
        )
    })
}

/// How many clock skew lines a table shows (JSON lists every one).
const SKEW_LINES: usize = 5;

/// One warning line per time ahead of the server's clock, the first few
/// of them; the database's text (node names) made visible.
pub fn clock_skew_lines(skews: &[ClockSkew], out: &Output) -> Vec<String> {
    let mut lines = Vec::new();
    for skew in skews.iter().take(SKEW_LINES) {
        let text = match &skew.region {
            Some(region) => format!("{}: {}", visible(region), visible(&skew.message)),
            None => visible(&skew.message).to_string(),
        };
        for l in wrap(&text, out.width, "! ", "  ") {
            lines.push(out.paint(&l, Paint::Warn));
        }
    }
    if skews.len() > SKEW_LINES {
        lines.push(out.paint(
            &format!(
                "! … and {} more times ahead of the server's clock (-o json lists them all)",
                skews.len() - SKEW_LINES
            ),
            Paint::Warn,
        ));
    }
    lines
}

/// The whole report as text (stdout), and the hint for stderr.
pub fn render(report: &StuckReport, out: &Output) -> String {
    let mut lines = header_lines(report, out);
    let left_out = report.left_out.unwrap_or_default();
    title(
        &format!(
            "Stuck deployments (in flight, no event for {} or more): {}",
            duration::human(secs(report.snapshot.stuck_after_seconds)),
            report.deployments_stuck.len()
        ),
        out,
        &mut lines,
    );
    match &report.groups {
        Some(groups) => group_lines(groups, out, &mut lines),
        None => deployment_lines(report, out, &mut lines),
    }
    lines.extend(more(left_out.deployments_stuck));
    title(
        &format!(
            "Orphaned leases (expired more than {} ago, not reclaimed): {}",
            duration::human(secs(report.snapshot.grace_seconds)),
            report.leases_orphaned.len()
        ),
        out,
        &mut lines,
    );
    lease_lines(&report.leases_orphaned, out, &mut lines);
    lines.extend(more(left_out.leases_orphaned));
    blind::lines(report, out, &mut lines);
    lines.join("\n")
}

/// When the scan ran, from a standby or not, which regions answered.
fn header_lines(report: &StuckReport, out: &Output) -> Vec<String> {
    let mut lines = wrap(
        &format!("scanned at {}", stamp(report.snapshot.at)),
        out.width,
        "",
        "  ",
    );
    let snapshot = &report.snapshot;
    let read_from = ReadFrom::new(
        snapshot.in_recovery,
        snapshot.replay_lag_seconds,
        snapshot.replay_paused,
    );
    if let Some(line) = standby_line(read_from) {
        for l in wrap(&line, out.width, "! ", "  ") {
            lines.push(out.paint(&l, Paint::Warn));
        }
    }
    if let Some(regions) = &report.regions {
        lines.extend(regions_lines(regions, out));
    }
    lines.extend(clock_skew_lines(&report.clock_skew, out));
    lines
}

/// A blank line and a section's title in bold.
fn title(text: &str, out: &Output, lines: &mut Vec<String>) {
    lines.push(String::new());
    for l in wrap(text, out.width, "", "  ") {
        lines.push(out.paint(&l, Paint::Bold));
    }
}

/// `--group-by`: the groups, each with the command that lists it.
fn group_lines(groups: &[StuckGroup], out: &Output, lines: &mut Vec<String>) {
    if groups.is_empty() {
        return;
    }
    lines.push(groups_table(groups, out));
    for g in groups {
        lines.extend(wrap(
            "list them:",
            out.width,
            &format!("  {} ", g.key),
            "    ",
        ));
        for line in command_lines(&g.next_command.to_string(), out.command_room(4)) {
            lines.push(format!("    {}", out.paint(&line, Paint::Bold)));
        }
    }
}

/// The stuck deployments, each with its next step; above a few rows, one
/// batch command for them all instead (each row's is in the JSON).
fn deployment_lines(report: &StuckReport, out: &Output, lines: &mut Vec<String>) {
    let rows = &report.deployments_stuck;
    if rows.is_empty() {
        return;
    }
    lines.push(deployments_table(rows, out));
    if let Some(listing) = report.listing.as_ref().filter(|_| rows.len() > hints::FEW) {
        lines.extend(hints::many_lines(listing, out));
        return;
    }
    for d in rows {
        next_lines(
            out,
            d.deployment_id,
            d.path.as_str(),
            &d.next_step,
            d.next_command.as_ref(),
            lines,
        );
    }
}

/// The orphaned leases, each with whose it is to fix and the next step.
fn lease_lines(rows: &[OrphanedLease], out: &Output, lines: &mut Vec<String>) {
    if rows.is_empty() {
        return;
    }
    lines.push(leases_table(rows, out));
    for l in rows {
        let who = match l.responsible {
            Responsible::Operator => l.path.as_str(),
            Responsible::LeaseReclaimer => "lease reclaimer",
        };
        next_lines(
            out,
            l.deployment_id,
            who,
            &l.next_step,
            l.next_command.as_ref(),
            lines,
        );
    }
}

/// "… and 2,941 more" when `--limit` left rows out.
fn more(left_out: usize) -> Option<String> {
    (left_out > 0).then(|| format!("… and {} more (--limit)", thousands(left_out)))
}

/// 2941 → "2,941".
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `--group-by`: one row per group.
fn groups_table(groups: &[StuckGroup], out: &Output) -> String {
    let mut table = Table::new(&[
        col("group"),
        col("stuck"),
        col("oldest"),
        col("paths").shrink(),
    ]);
    for g in groups {
        let none = g.count - g.teardown_requested - g.operator_failed;
        let paths: Vec<String> = [
            (g.teardown_requested, "teardown_requested"),
            (g.operator_failed, "operator_failed"),
            (none, "none"),
        ]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, path)| format!("{n} {path}"))
        .collect();
        table.row(vec![
            Cell::new(&g.key),
            Cell::new(g.count),
            Cell::new(duration::human(g.oldest_stuck_for_seconds)).paint_if(true, Paint::Bad),
            Cell::new(paths.join(", ")),
        ]);
    }
    table.render(out)
}

/// "d0000002 (teardown_requested): step" and the command on its own line.
fn next_lines(
    out: &Output,
    id: uuid::Uuid,
    label: &str,
    step: &str,
    command: Option<&NextCommand>,
    lines: &mut Vec<String>,
) {
    let head = format!("  {} ({label}): ", short_id(id));
    match command {
        Some(command) => {
            lines.extend(wrap("next:", out.width, &head, "    "));
            for line in command_lines(&command.to_string(), out.command_room(4)) {
                lines.push(format!("    {}", out.paint(&line, Paint::Bold)));
            }
        }
        None => lines.extend(wrap(&visible(step), out.width, &head, "    ")),
    }
}

fn deployments_table(rows: &[StuckDeployment], out: &Output) -> String {
    let regions = rows.iter().any(|d| d.region.is_some());
    let mut columns = vec![col("region")];
    columns.extend([
        col("deployment"),
        col("org").drop(3),
        // The path says what to do; the status goes last, before a row
        // becomes a block.
        col("status").drop(1),
        col("stuck for"),
        col("quiet since").drop(4),
        col("last event").drop(2),
        col("nodes").shrink(),
        col("path"),
    ]);
    let mut table = Table::new(if regions { &columns } else { &columns[1..] });
    for d in rows {
        let last_event = match (&d.last_event_kind, d.last_event_at) {
            (Some(kind), Some(_)) => kind.clone(),
            _ => "none".to_string(),
        };
        let since = d.last_event_at.unwrap_or(d.created_at);
        let mut cells = if regions {
            vec![Cell::new(d.region.as_deref().unwrap_or("—"))]
        } else {
            Vec::new()
        };
        cells.extend([
            Cell::new(short_id(d.deployment_id)),
            Cell::new(crate::model::short_or_null(d.org_id)),
            Cell::new(&d.status),
            Cell::new(duration::human(d.stuck_for_seconds)).paint_if(true, Paint::Bad),
            Cell::new(stamp(since)),
            Cell::new(last_event),
            Cell::new(if d.nodes.is_empty() {
                "—".to_string()
            } else {
                d.nodes.join(", ")
            }),
            Cell::new(d.path.as_str()),
        ]);
        table.row(cells);
    }
    table.render(out)
}

fn leases_table(rows: &[OrphanedLease], out: &Output) -> String {
    let regions = rows.iter().any(|l| l.region.is_some());
    let mut columns = vec![col("region")];
    columns.extend([
        col("job"),
        col("deployment"),
        col("org").drop(4),
        col("status").drop(1),
        col("kind").drop(2),
        // The node and its heartbeat's age, whole: an age is never cut
        // mid-value (`build-03 (s…`).
        col("node"),
        col("expired"),
        col("expired at").drop(3),
        col("path"),
    ]);
    let mut table = Table::new(if regions { &columns } else { &columns[1..] });
    for l in rows {
        let node = match (&l.node_name, l.node_heartbeat_age_seconds) {
            (Some(name), Some(age)) => format!("{name} (seen {})", duration::ago(age)),
            (Some(name), None) => format!("{name} (never seen)"),
            _ => "—".to_string(),
        };
        let mut cells = if regions {
            vec![Cell::new(l.region.as_deref().unwrap_or("—"))]
        } else {
            Vec::new()
        };
        cells.extend([
            Cell::new(short_id(l.job_id)),
            Cell::new(short_id(l.deployment_id)),
            Cell::new(crate::model::short_or_null(l.org_id)),
            Cell::new(&l.deployment_status),
            Cell::new(&l.kind),
            Cell::new(node),
            Cell::new(duration::ago(l.expired_for_seconds)).paint_if(true, Paint::Bad),
            Cell::new(stamp(l.lease_expires_at)),
            Cell::new(l.path.as_str()),
        ]);
        table.row(cells);
    }
    table.render(out)
}

impl Report for StuckReport {
    /// `-o openmetrics` is the alerts' metrics, with the fleet's
    /// (`ui::openmetrics::Metrics`, a report of its own).
    const FORMATS: &'static [OutputFormat] = &[
        OutputFormat::Table,
        OutputFormat::Wide,
        OutputFormat::Json,
        OutputFormat::Markdown,
        OutputFormat::Openmetrics,
    ];

    fn human(&self, out: &Output) -> Vec<Line> {
        let mut lines = vec![Line::Out(render(self, out))];
        lines.extend(report::warnings(out, &self.warnings));
        match self.groups.as_ref().and_then(|g| g.first()) {
            Some(group) => lines.push(Line::Note(batch_hint(group, out))),
            None => {
                if let Some(hint) = hint(self) {
                    lines.push(Line::Note(wrapped(&hint, out.width, "", "  ")));
                }
            }
        }
        lines
    }

    fn markdown(&self, out: &Output) -> Vec<Line> {
        let mut lines = vec![Line::Out(markdown::stuck(self))];
        lines.extend(blind::markdown(self).map(Line::Out));
        lines.extend(report::warnings(out, &self.warnings));
        lines
    }

    /// One `--watch` screen: the view and its warnings (no hint: the
    /// screen is for watching).
    fn frame(&self, out: &Output) -> Vec<Line> {
        let mut lines = vec![Line::Out(render(self, out))];
        lines.extend(report::warnings(out, &self.warnings));
        lines
    }
}

mod blind;
mod hints;
mod markdown;
use hints::batch_hint;
pub use hints::hint;
