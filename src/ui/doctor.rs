//! `doctor` on the screen: one check per line (wrapped to the screen with
//! a hanging indent).

use super::output::{Output, Paint};
use super::report::{Line, Report};
use super::sanitize::visible;
use super::text::wrap;
use crate::model::doctor::{Check, Report as DoctorReport, Status};

/// `target`: where the connection goes, as `Settings::describe` says it.
pub fn render(report: &DoctorReport, output: &Output, target: &str) -> String {
    let mut lines: Vec<String> = wrap(
        &visible(&format!("pushleft-controller doctor: {target}")),
        output.width,
        "",
        "  ",
    )
    .iter()
    .map(|l| output.paint(l, Paint::Bold))
    .collect();
    let width = report
        .checks
        .iter()
        .map(|c| c.name.len())
        .max()
        .unwrap_or(0);
    // Narrow screens put the detail under the name.
    let inline = output.width >= width + 40;
    for check in &report.checks {
        let status = match check.status {
            Status::Ok => output.paint("ok  ", Paint::Good),
            Status::Warn => output.paint("warn", Paint::Warn),
            Status::Fail => output.paint("FAIL", Paint::Bad),
        };
        // The missing indexes' statements are ours (from sql/schema.sql)
        // and many: each part is held to the screen's cap on its own, so a
        // schema without its indexes still shows every CREATE INDEX.
        let detail = if check.name == "indexes" {
            let parts: Vec<String> = check
                .detail
                .split("; ")
                .map(|part| visible(part).into_owned())
                .collect();
            std::borrow::Cow::Owned(parts.join("; "))
        } else {
            visible(&check.detail)
        };
        // A detail with a word too wide for the room beside the names (a
        // constraint's name, a setting) goes under its name instead,
        // where that word fits whole.
        let room = output.width.saturating_sub(width + 10);
        let fits = detail
            .split(' ')
            .all(|word| super::text::width_of(word) <= room);
        if inline && fits {
            let head = format!("  {status}  {:width$}  ", check.name);
            let indent = " ".repeat(width + 10);
            // `wrap` measures the painted head by its visible width.
            lines.extend(wrap(&detail, output.width, &head, &indent));
        } else {
            lines.push(format!("  {status}  {}", check.name));
            lines.extend(wrap(&detail, output.width, "        ", "        "));
        }
    }
    lines.push(output.paint(
        verdict(report.ok, &report.checks),
        if report.ok { Paint::Good } else { Paint::Bad },
    ));
    lines.join("\n")
}

/// The last line: "(warnings aside)" only when a check warned, so a clean
/// run does not send the operator looking for a warning that is not there.
pub fn verdict(ok: bool, checks: &[Check]) -> &'static str {
    if !ok {
        "some checks FAILED"
    } else if checks.iter().any(|c| c.status == Status::Warn) {
        "all checks passed (warnings aside)"
    } else {
        "all checks passed"
    }
}

impl Report for DoctorReport {
    fn human(&self, out: &Output) -> Vec<Line> {
        vec![Line::Out(render(self, out, &self.described))]
    }
}

#[cfg(test)]
#[path = "doctor_tests.rs"]
mod tests;
