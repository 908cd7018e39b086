//! `history` on the screen: one row per action, newest first.

use anyhow::Result;

use super::output::{self, Output};
use crate::duration;
use crate::model::history::{History, OperatorAction};
use crate::model::short_id;

/// Who did it: `os_user@host (as current_user)`, or what the event has.
fn who(a: &OperatorAction) -> String {
    let audit = &a.audit;
    match (&audit.os_user, &audit.host, &audit.current_user) {
        (Some(user), Some(host), Some(role)) => format!("{user}@{host} (as {role})"),
        (Some(user), Some(host), None) => format!("{user}@{host}"),
        (_, _, Some(role)) => format!("as {role}"),
        _ => "— (no audit: written by hand?)".to_string(),
    }
}

pub fn render(history: &History, out: &Output) -> Result<()> {
    if history.actions.is_empty() {
        output::note("No operator action matches the filters.");
        return Ok(());
    }
    let now = history.snapshot.at;
    let mut table = out.table(&["when (UTC)", "deployment", "action", "by", "now", "reason"]);
    for a in &history.actions {
        table.add_row(vec![
            out.cell(
                format!(
                    "{} ({})",
                    a.occurred_at.format("%Y-%m-%d %H:%MZ"),
                    duration::ago((now - a.occurred_at).num_seconds())
                ),
                false,
            ),
            out.cell(short_id(a.deployment_id), false),
            out.cell(a.path.as_str(), false),
            out.cell(output::visible(&who(a)), false),
            out.cell(&a.status_now, false),
            out.cell(
                output::visible(a.reason.as_deref().unwrap_or("—")),
                a.reason.is_none(),
            ),
        ]);
    }
    output::print(&table.to_string())?;
    let shown = history.actions.len();
    if history.snapshot.truncated {
        output::note(&format!(
            "The newest {shown} actions; older ones match too (--limit N shows more)."
        ));
    } else {
        output::note(&format!(
            "{shown} action{}.",
            if shown == 1 { "" } else { "s" }
        ));
    }
    Ok(())
}
