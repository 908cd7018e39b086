//! `fleet list` on the screen.

use super::OutputFormat;
use super::output::{Output, Paint};
use super::report::{self, Line, Report};
use super::stuck::{clock_skew_lines, standby_line};
use super::table::{Cell, Table, col};
use super::text::{stamp, wrapped};
use crate::duration;
use crate::model::NodeStatus;
use crate::model::fleet::FleetList;
use crate::model::read_from::ReadFrom;

/// The table for stdout; `None` when no node matches.
pub fn render(fleet: &FleetList, out: &Output) -> Option<String> {
    if fleet.nodes.is_empty() {
        return None;
    }
    let regions = fleet.nodes.iter().any(|n| n.region.is_some());
    let mut columns = vec![col("region")];
    columns.extend([
        col("node"),
        col("pool"),
        col("status"),
        col("schedulable").drop(2),
        col("heartbeat"),
        col("last seen").drop(3),
        col("slots used"),
        col("instances").drop(1),
    ]);
    let mut table = Table::new(if regions { &columns } else { &columns[1..] });
    for row in &fleet.nodes {
        let node = &row.node;
        let heartbeat = match node.heartbeat_age_seconds {
            Some(age) if row.stale => format!("{} STALE", duration::ago(age)),
            Some(age) => duration::ago(age),
            None => "never STALE".to_string(),
        };
        let mut cells = if regions {
            vec![Cell::new(row.region.as_deref().unwrap_or("—"))]
        } else {
            Vec::new()
        };
        cells.extend([
            Cell::new(&node.name),
            Cell::new(node.pool.as_deref().unwrap_or("NULL")),
            Cell::new(&node.status).paint_if(node.status == NodeStatus::Offline, Paint::Bad),
            Cell::new(if node.schedulable { "yes" } else { "no" })
                .paint_if(!node.schedulable, Paint::Warn),
            Cell::new(heartbeat).paint_if(row.stale, Paint::Bad),
            Cell::new(node.last_seen_at.map(stamp).unwrap_or_else(|| "—".into())),
            Cell::new(format!("{}/{}", row.slots_used, node.slots))
                .paint_if(row.slots_used >= i64::from(node.slots), Paint::Warn),
            Cell::new(row.instances),
        ]);
        table.row(cells);
    }
    let mut text = table.render(out);
    if let Some(regions) = &fleet.regions {
        for line in super::stuck::regions_lines(regions, out) {
            text.push('\n');
            text.push_str(&line);
        }
    }
    if let Some(line) = standby_line(ReadFrom::new(
        fleet.snapshot.in_recovery,
        fleet.snapshot.replay_lag_seconds,
        fleet.snapshot.replay_paused,
    )) {
        text.push('\n');
        text.push_str(&out.paint(&wrapped(&line, out.width, "! ", "  "), Paint::Warn));
    }
    for line in clock_skew_lines(&fleet.clock_skew, out) {
        text.push('\n');
        text.push_str(&line);
    }
    Some(text)
}

/// The summary for the human on stderr.
pub fn summary(fleet: &FleetList, out: &Output) -> String {
    let stale = fleet.nodes.iter().filter(|n| n.stale).count();
    let used: i64 = fleet.nodes.iter().map(|n| n.slots_used).sum();
    let total: i64 = fleet.nodes.iter().map(|n| i64::from(n.node.slots)).sum();
    wrapped(
        &format!(
            "{} nodes, {stale} stale (no heartbeat for {}); {used} of {total} slots in use; read at {}.",
            fleet.nodes.len(),
            duration::human(i64::try_from(fleet.snapshot.stale_after_seconds).unwrap_or(i64::MAX)),
            stamp(fleet.snapshot.at),
        ),
        out.width,
        "",
        "  ",
    )
}

impl Report for FleetList {
    const FORMATS: &'static [OutputFormat] = report::WITH_MARKDOWN;

    fn human(&self, out: &Output) -> Vec<Line> {
        let mut lines = match render(self, out) {
            Some(table) => vec![Line::Out(table), Line::Note(summary(self, out))],
            None => vec![Line::Note(NOTHING.to_string())],
        };
        lines.extend(report::warnings(out, &self.warnings));
        lines
    }

    /// One `--watch` screen: the view (or that nothing matches), the
    /// summary and the warnings.
    fn frame(&self, out: &Output) -> Vec<Line> {
        let mut lines = vec![
            Line::Out(render(self, out).unwrap_or_else(|| NOTHING.to_string())),
            Line::Note(summary(self, out)),
        ];
        lines.extend(report::warnings(out, &self.warnings));
        lines
    }

    fn markdown(&self, out: &Output) -> Vec<Line> {
        let mut lines = vec![Line::Out(markdown::fleet(self))];
        lines.extend(report::warnings(out, &self.warnings));
        lines
    }
}

mod markdown;

/// What the view says when no node passes the filters.
const NOTHING: &str = "No node matches the filters.";
