//! `history` on the screen: one row per action, newest first.

use super::OutputFormat;
use super::markdown::{Md, at, footer, or_dash, table};
use super::output::{Output, Paint};
use super::report::{self, Line, Report};
use super::table::{Cell, Table, col};
use super::text::{stamp, wrapped};
use crate::duration;
use crate::model::clock::age_seconds;
use crate::model::history::{History, OperatorAction};
use crate::model::short_id;

/// Who did it: `os_user@host (as current_user)`, or what the event has.
fn who(a: &OperatorAction) -> String {
    let audit = &a.audit;
    match (&audit.os_user, &audit.host, &audit.current_user) {
        (Some(user), Some(host), Some(role)) => format!("{user}@{host} (as {role})"),
        (Some(user), Some(host), None) => format!("{user}@{host}"),
        (_, _, Some(role)) => format!("as {role}"),
        _ => "— (no audit: by hand?)".to_string(),
    }
}

/// The table for stdout; `None` when no action matches.
pub fn render(history: &History, out: &Output) -> Option<String> {
    if history.actions.is_empty() {
        return None;
    }
    let now = history.snapshot.at;
    let regions = history.actions.iter().any(|a| a.region.is_some());
    let mut columns = vec![col("region")];
    columns.extend([
        // When (the time and its age), who and why are what the review
        // is for: never dropped; the action and the status now go first
        // on a narrow screen. Who and why are cut (at a word: the
        // operator first, then the approval, the reason last), the
        // approval no shorter than `SELF-APPROVED…`, its operator as
        // short as `root@vm…` and the reason as `INC-4712…` so that all
        // fit 80 columns.
        col("when"),
        col("ago"),
        col("deployment"),
        col("action").drop(2),
        col("by").shrink().floor(10).yields(2),
        col("approval").shrink().floor(14).yields(1),
        col("now").drop(3),
        col("reason").shrink().floor(10),
    ]);
    // The approval column only when an action has one (a plan applied, or
    // a write alone): then it is never dropped.
    let approvals = history.actions.iter().any(|a| a.audit.approval.is_some());
    if !approvals {
        columns.retain(|c| c.header != "approval");
    }
    let mut table = Table::new(if regions { &columns } else { &columns[1..] });
    for a in &history.actions {
        let mut cells = if regions {
            vec![Cell::new(a.region.as_deref().unwrap_or("—"))]
        } else {
            Vec::new()
        };
        cells.extend([
            Cell::new(a.occurred_at.map_or_else(|| "NULL".to_string(), stamp)),
            Cell::new(a.occurred_at.map_or_else(
                || "unknown".to_string(),
                |at| duration::ago(age_seconds(now, at)),
            )),
            Cell::new(short_id(a.deployment_id)),
            Cell::new(a.path.as_str()),
            Cell::new(who(a)),
        ]);
        if approvals {
            let alone = a.audit.approval.as_ref().is_some_and(|x| x.self_approved);
            let text = if out.wide {
                super::approval::approval(a)
            } else {
                super::approval::approver_first(a)
            };
            cells.push(Cell::new(text).paint_if(alone, Paint::Bad));
        }
        cells.extend([
            Cell::new(&a.status_now),
            Cell::new(a.reason.as_deref().unwrap_or("—")).paint_if(a.reason.is_none(), Paint::Warn),
        ]);
        table.row(cells);
    }
    let mut text = table.render(out);
    if let Some(line) = super::cut::line(&super::cut::reason_cuts(history)) {
        text.push('\n');
        text.push_str(&wrapped(&line, out.width, "", " "));
    }
    if let Some(regions) = &history.regions {
        for line in super::stuck::regions_lines(regions, out) {
            text.push('\n');
            text.push_str(&line);
        }
    }
    Some(text)
}

/// The count for the human on stderr, and whether --limit cut the list.
pub fn summary(history: &History, out: &Output) -> String {
    let shown = history.actions.len();
    let text = if history.snapshot.truncated {
        format!("The newest {shown} actions; older ones match too (--limit N shows more).")
    } else {
        format!(
            "{shown} action{}; read at {}.",
            if shown == 1 { "" } else { "s" },
            stamp(history.snapshot.at)
        )
    };
    wrapped(&text, out.width, "", "  ")
}

impl Report for History {
    const FORMATS: &'static [OutputFormat] = report::WITH_MARKDOWN;

    fn human(&self, out: &Output) -> Vec<Line> {
        let mut lines = vec![match render(self, out) {
            Some(table) => Line::Out(table),
            None => Line::Note("No operator action matches the filters.".to_string()),
        }];
        lines.push(Line::Note(summary(self, out)));
        lines.extend(report::warnings(out, &self.warnings));
        lines
    }

    fn markdown(&self, out: &Output) -> Vec<Line> {
        let mut lines = vec![Line::Out(markdown(self))];
        lines.extend(report::warnings(out, &self.warnings));
        lines
    }
}

/// `history -o markdown`: who (the OS user, the database's session user,
/// the host) and why, with the idempotency key that makes it replayable.
fn markdown(h: &History) -> String {
    // The approval column only when an action has one.
    let approvals = h.actions.iter().any(|a| a.audit.approval.is_some());
    let rows: Vec<Vec<Md>> = h
        .actions
        .iter()
        .map(|a| {
            let mut row = vec![
                a.occurred_at.map_or_else(|| "NULL".to_string(), at).into(),
                Md::code(a.deployment_id),
                Md::code(a.path.as_str()),
                or_dash(a.audit.os_user.clone()).into(),
                or_dash(a.audit.session_user.clone()).into(),
                or_dash(a.audit.host.clone()).into(),
            ];
            if approvals {
                row.push(super::approval::approval(a).into());
            }
            row.extend([
                Md::code(&a.status_now),
                or_dash(a.reason.clone()).into(),
                a.idempotency_key
                    .as_ref()
                    .map_or_else(|| "—".to_string().into(), Md::code),
            ]);
            row
        })
        .collect();
    let mut out = format!("### Operator actions: {}\n\n", h.actions.len());
    if !rows.is_empty() {
        let mut headers = vec![
            "when",
            "deployment",
            "action",
            "operator",
            "session user",
            "host",
        ];
        if approvals {
            headers.push("approval");
        }
        headers.extend(["status now", "reason", "key"]);
        out.push_str(&table(&headers, &rows));
        crate::ui::markdown::cut_line(&mut out, &crate::ui::cut::reason_cuts(h));
    }
    if h.snapshot.truncated {
        out.push_str("\nOlder actions match too (--limit N shows more).\n");
    }
    out.push_str(&footer(h.snapshot.at));
    out
}
