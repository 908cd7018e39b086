//! `stuck` from a read that cannot vouch (README, "Reads row-level
//! security filters"): what `decide::blind` concluded, as it concluded it:
//! the deployments it cannot tell about, why, and how to read instead.

use crate::model::stuck::StuckReport;
use crate::ui::markdown::{code, prose};
use crate::ui::output::{Output, Paint};
use crate::ui::sanitize::visible;
use crate::ui::text::wrap;

/// The section: its title, the deployments (no path, no command), and the
/// reason and the way out once.
pub(super) fn lines(report: &StuckReport, out: &Output, lines: &mut Vec<String>) {
    let Some(blind) = &report.cannot_vouch else {
        return;
    };
    super::title(
        &format!(
            "Cannot tell whether stuck (rows may be hidden from role {}): {}",
            visible(&blind.role),
            report.cannot_tell.len()
        ),
        out,
        lines,
    );
    if !report.cannot_tell.is_empty() {
        lines.push(super::deployments_table(&report.cannot_tell, out));
    }
    for l in wrap(&visible(&blind.message), out.width, "! ", "  ") {
        lines.push(out.paint(&l, Paint::Warn));
    }
    lines.extend(wrap(
        &visible(&blind.next_step),
        out.width,
        "  next: ",
        "        ",
    ));
}

/// The same for a ticket (`-o markdown`): the reason and the way out.
pub(super) fn markdown(report: &StuckReport) -> Option<String> {
    let blind = report.cannot_vouch.as_ref()?;
    let ids: Vec<String> = report
        .cannot_tell
        .iter()
        .map(|d| code(&d.deployment_id.to_string()))
        .collect();
    let which = match ids.is_empty() {
        true => String::new(),
        false => format!(" Cannot tell whether stuck: {}.", ids.join(", ")),
    };
    Some(format!(
        "**Cannot vouch:** {}.{which} Next step: {}.",
        prose(&blind.message),
        prose(&blind.next_step)
    ))
}
