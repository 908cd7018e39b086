//! One table per section of the runbook's Diagnosis, for `diagnose`'s
//! table output, drawn from the document. Each returns the section's
//! [`Body`]: its table, or the words for nothing there (`no routes`), which
//! `diagnose` collapses into one line.
//! Times are shown as age and absolute time; free text (errors, payloads)
//! is what gives way on a narrow screen.

use chrono::{DateTime, Utc};

use crate::duration::ago;
use crate::model::diagnose::DiagnoseReport;
use crate::model::{BreakGlassPath, NodeStatus, ResultOutcome, short_id};
use crate::ui::cut::Cut;
use crate::ui::output::{Output, Paint};
use crate::ui::table::{Cell, Table, col};
use crate::ui::text::{stamp, when, wrapped};

/// What a section shows.
pub enum Body {
    Table(String),
    /// Nothing there, in a few words (`no routes`).
    Empty(&'static str),
}

/// The rows a section shows at most.
pub const SECTION_ROWS: usize = 25;

/// What every section is drawn from: the screen, and the document (`s`:
/// the snapshot as decided).
pub struct View<'v, 'a> {
    pub out: &'v Output,
    pub s: &'v DiagnoseReport<'a>,
}

impl View<'_, '_> {
    fn now(&self) -> DateTime<Utc> {
        self.s.snapshot.at
    }

    /// Age and absolute time, or a dash.
    fn when(&self, at: Option<DateTime<Utc>>) -> String {
        match at {
            Some(at) => when(at, self.now()),
            None => "—".to_string(),
        }
    }

    fn node_name(&self, id: Option<uuid::Uuid>) -> String {
        id.map(|n| self.s.node_name(n))
            .unwrap_or_else(|| "—".into())
    }

    /// A section's table, summarised past [`SECTION_ROWS`] rows (10,000
    /// jobs would bury the verdict): the rest is counted, and JSON has all.
    fn render(&self, table: &Table) -> String {
        let Some((first, hidden)) = table.first_rows(SECTION_ROWS) else {
            return table.render(self.out);
        };
        let text = first.render(self.out);
        let note = format!(
            "(… {hidden} more row{}; --output json lists them all)",
            if hidden == 1 { "" } else { "s" }
        );
        format!("{text}\n{}", wrapped(&note, self.out.width, "", " "))
    }
}

fn empty_or(v: &View, table: &Table, empty: &'static str) -> Body {
    if table.is_empty() {
        Body::Empty(empty)
    } else {
        Body::Table(v.render(table))
    }
}

/// A section's body with the line that says which of its values were read
/// cut (pushleft-controller-diagnose(1), HUGE TEXT) under its table.
fn with_cuts(v: &View, body: Body, cuts: &[Cut]) -> Body {
    match (body, crate::ui::cut::line(cuts)) {
        (Body::Table(text), Some(line)) => {
            Body::Table(format!("{text}\n{}", wrapped(&line, v.out.width, "", " ")))
        }
        (body, _) => body,
    }
}

/// A payload in one line (the table cuts it to the screen; JSON has it
/// whole, or its first characters as text when it was read cut). The
/// operator's own words come first: `reason` before the rest.
fn compact(value: &serde_json::Value, cut: bool) -> String {
    match value {
        serde_json::Value::String(text) if cut => text.clone(),
        serde_json::Value::Object(map) if map.contains_key("reason") => {
            let mut rest = map.clone();
            let reason = rest.remove("reason").unwrap_or_default();
            let reason = reason
                .as_str()
                .map(str::to_string)
                .unwrap_or_else(|| reason.to_string());
            if rest.is_empty() {
                format!("reason: {reason}")
            } else {
                format!("reason: {reason} · {}", serde_json::Value::Object(rest))
            }
        }
        _ => value.to_string(),
    }
}

pub fn deployment(v: &View, path: BreakGlassPath) -> Body {
    let d = &v.s.deployment;
    let mut t = Table::new(&[col("status"), col("created"), col("updated"), col("events")]);
    t.row(vec![
        Cell::new(&d.status).paint_if(path != BreakGlassPath::None, Paint::Bad),
        Cell::new(v.when(Some(d.created_at))),
        Cell::new(v.when(Some(d.updated_at))),
        Cell::new(v.s.events_total),
    ]);
    Body::Table(v.render(&t))
}

pub fn events(v: &View) -> Body {
    let s = v.s;
    let rows = s.event_rows();
    let hidden = s.events_total - rows.len() as i64;
    let mut t = Table::new(&[
        col("seq"),
        col("kind"),
        col("occurred"),
        col("payload (without log)").shrink(),
    ]);
    for e in rows {
        t.row(vec![
            Cell::new(e.sequence),
            Cell::new(&e.kind),
            Cell::new(
                e.occurred_at
                    .map_or_else(|| "NULL".to_string(), |at| v.when(Some(at))),
            ),
            Cell::new(compact(&e.payload, e.payload_cut)),
        ]);
    }
    let mut body = String::new();
    if hidden > 0 {
        let note = format!(
            "({hidden} earlier event{} hidden; --events N shows more, --output json all)",
            if hidden == 1 { "" } else { "s" }
        );
        body.push_str(&wrapped(&note, v.out.width, "", " "));
        body.push('\n');
    }
    body.push_str(&v.render(&t));
    let cuts: Vec<Cut> = rows
        .iter()
        .filter(|e| e.payload_cut)
        .map(|e| Cut {
            what: format!("event {}", e.sequence),
            length: e.payload_length,
        })
        .collect();
    with_cuts(v, Body::Table(body), &cuts)
}

pub fn jobs(v: &View) -> Body {
    let (s, now) = (v.s, v.now());
    let mut t = Table::new(&[
        col("job"),
        col("kind"),
        col("status"),
        col("target"),
        col("attempt"),
        col("available").drop(2),
        col("lease expires").drop(1),
        col("last error").shrink(),
    ]);
    for j in s.jobs {
        let lease_expired = j.lease_expired(now);
        t.row(vec![
            Cell::new(short_id(j.id)),
            Cell::new(&j.kind),
            Cell::new(&j.status).paint_if(lease_expired, Paint::Bad),
            Cell::new(v.node_name(j.target_node_id)),
            Cell::new(format!("{}/{}", j.attempt, j.max_attempts))
                .paint_if(j.out_of_attempts(), Paint::Bad),
            Cell::new(v.when(Some(j.available_at))).paint_if(j.available_at > now, Paint::Warn),
            Cell::new(v.when(j.lease_expires_at)).paint_if(lease_expired, Paint::Bad),
            Cell::new(j.last_error.as_deref().unwrap_or("—"))
                .paint_if(j.last_error.is_some(), Paint::Bad),
        ]);
    }
    let cuts = crate::ui::cut::last_error_cuts(s.jobs);
    with_cuts(v, empty_or(v, &t, "no jobs"), &cuts)
}

pub fn results(v: &View) -> Body {
    let s = v.s;
    let mut t = Table::new(&[
        col("reported"),
        col("kind"),
        col("node"),
        col("attempt").drop(1),
        col("outcome"),
        col("output (without log)").shrink(),
    ]);
    for r in s.results {
        t.row(vec![
            Cell::new(v.when(Some(r.reported_at))),
            Cell::new(&r.kind),
            Cell::new(s.node_name(r.node_id)),
            Cell::new(r.attempt),
            Cell::new(&r.outcome).paint_if(r.outcome == ResultOutcome::Failed, Paint::Bad),
            Cell::new(compact(&r.output, r.output_cut)),
        ]);
    }
    let cuts: Vec<Cut> = s
        .results
        .iter()
        .filter(|r| r.output_cut)
        .map(|r| Cut {
            what: format!("result {}", short_id(r.id)),
            length: r.output_length,
        })
        .collect();
    with_cuts(v, empty_or(v, &t, "no agent results"), &cuts)
}

pub fn sources(v: &View) -> Body {
    let s = v.s;
    let mut t = Table::new(&[col("source snapshot"), col("verified")]);
    for x in s.source_snapshots {
        t.row(vec![
            Cell::new(short_id(x.id)),
            Cell::new(v.when(x.verified_at)).paint_if(x.verified_at.is_none(), Paint::Bad),
        ]);
    }
    empty_or(v, &t, "no source snapshot")
}

pub fn artifacts(v: &View) -> Body {
    let s = v.s;
    let mut t = Table::new(&[col("artifact"), col("image").shrink()]);
    for a in s.release_artifacts {
        t.row(vec![Cell::new(short_id(a.id)), Cell::new(&a.image)]);
    }
    empty_or(v, &t, "no release artifact")
}

pub fn instances(v: &View) -> Body {
    let s = v.s;
    let mut t = Table::new(&[
        col("instance"),
        col("role").shrink(),
        col("status"),
        col("active node"),
        col("generation").drop(1),
    ]);
    for i in s.instances {
        let dead = i
            .active_node_id
            .and_then(|n| s.node(n))
            .is_some_and(|n| n.dead);
        t.row(vec![
            Cell::new(short_id(i.id)),
            Cell::new(&i.role_name),
            Cell::new(&i.status),
            Cell::new(v.node_name(i.active_node_id)).paint_if(dead, Paint::Bad),
            Cell::new(i.generation),
        ]);
    }
    empty_or(v, &t, "no instances")
}

pub fn reservations(v: &View) -> Body {
    let s = v.s;
    let mut t = Table::new(&[
        col("node"),
        col("resource"),
        col("kind").shrink(),
        col("status"),
        col("created").drop(1),
    ]);
    for a in s.allocations {
        t.row(vec![
            Cell::new(s.node_name(a.node_id)),
            Cell::new(short_id(a.resource_id)),
            Cell::new(&a.resource_kind),
            Cell::new(&a.status),
            Cell::new(v.when(Some(a.created_at))),
        ]);
    }
    empty_or(v, &t, "no reservations")
}

pub fn routes(v: &View) -> Body {
    let s = v.s;
    let mut t = Table::new(&[col("hostname"), col("generation"), col("status")]);
    for r in s.routes {
        t.row(vec![
            Cell::new(&r.hostname),
            Cell::new(r.route_generation),
            Cell::new(&r.status),
        ]);
    }
    empty_or(v, &t, "no routes")
}

/// An attachment is what keeps reservations.
pub fn network_attachments(v: &View) -> Body {
    let s = v.s;
    if s.network_attachments.is_empty() {
        return Body::Empty("no network attachments");
    }
    let mut t = Table::new(&[
        col("attachment"),
        col("segment").shrink(),
        col("node"),
        col("created").drop(1),
    ]);
    for a in s.network_attachments {
        t.row(vec![
            Cell::new(short_id(a.id)),
            Cell::new(&a.segment).paint_if(true, Paint::Bad),
            Cell::new(v.node_name(a.node_id)),
            Cell::new(v.when(Some(a.created_at))),
        ]);
    }
    Body::Table(v.render(&t))
}

pub fn nodes(v: &View) -> Body {
    let s = v.s;
    let mut t = Table::new(&[
        col("node"),
        col("pool"),
        col("status"),
        col("schedulable").drop(1),
        col("heartbeat"),
    ]);
    for view in &s.nodes {
        let (n, stale) = (view.node, view.stale);
        let offline = n.status == NodeStatus::Offline;
        let heartbeat = match (n.heartbeat_age_seconds, n.last_seen_at) {
            (Some(age), Some(at)) => format!(
                "{}{} · {}",
                ago(age),
                if stale { " (stale)" } else { "" },
                stamp(at)
            ),
            _ => "never".to_string(),
        };
        t.row(vec![
            Cell::new(&n.name).paint_if(stale || offline, Paint::Bad),
            Cell::new(n.pool.as_deref().unwrap_or("NULL")),
            Cell::new(&n.status).paint_if(offline, Paint::Bad),
            Cell::new(if n.schedulable { "yes" } else { "no" })
                .paint_if(!n.schedulable, Paint::Warn),
            Cell::new(heartbeat).paint_if(stale, Paint::Bad),
        ]);
    }
    empty_or(v, &t, "no nodes involved")
}
