//! `doctor` on the screen: one line per check.

use super::output::{Output, Paint};
use crate::db::doctor::{Report, Status};

/// `target`: where the connection goes, as `Settings::describe` says it.
pub fn render(report: &Report, output: &Output, target: &str) -> String {
    let mut text = format!(
        "{}\n",
        output.paint(
            &format!("pushleft-controller doctor: {target}"),
            Paint::Bold
        )
    );
    let width = report
        .checks
        .iter()
        .map(|c| c.name.len())
        .max()
        .unwrap_or(0);
    for check in &report.checks {
        let status = match check.status {
            Status::Ok => output.paint("ok  ", Paint::Good),
            Status::Warn => output.paint("warn", Paint::Warn),
            Status::Fail => output.paint("FAIL", Paint::Bad),
        };
        text.push_str(&format!(
            "  {status}  {:width$}  {}\n",
            check.name, check.detail
        ));
    }
    text.push_str(&if report.ok {
        output.paint("all checks passed (warnings aside)", Paint::Good)
    } else {
        output.paint("some checks FAILED", Paint::Bad)
    });
    text
}
