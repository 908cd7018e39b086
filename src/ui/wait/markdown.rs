//! `wait -o markdown`: the ticket's account of the Verification step,
//! beside its screen renderer: for one deployment where it stands, what is
//! pending and what blocks it; for several, one row each and the dead
//! nodes they wait for by cause.

use crate::duration::human;
use crate::model::progress::Progress;
use crate::model::wait::{WaitAll, WaitReport, WaitResult};
use crate::ui::markdown::{Md, code, escape, footer, table};

/// `wait <deployment> -o markdown`.
pub fn one(report: &WaitReport) -> String {
    let p = report.progress;
    let outcome = match &report.error {
        None => "verified".to_string(),
        Some(error) => format!("not verified, exit {}", error.exit_code),
    };
    let mut out = format!(
        "### Wait for {} — {}\n\n{}\n\nAfter {}: {}.\n",
        code(&p.deployment_id.to_string()),
        code(state(p)),
        escape(&super::summary(p)),
        human(report.elapsed_seconds as i64),
        escape(&outcome)
    );
    let rows: Vec<Vec<Md>> = p
        .pending
        .iter()
        .map(|pending| vec![Md::code("pending"), Md::Text(super::pending_text(pending))])
        .chain(
            p.blocked
                .iter()
                .map(|b| vec![Md::code("blocked"), Md::Text(super::blocked_text(b))]),
        )
        .collect();
    if !rows.is_empty() {
        out.push('\n');
        out.push_str(&table(&["", "what"], &rows));
    }
    if let Some(error) = &report.error {
        out.push_str(&format!("\n**Error:** {}\n", escape(&error.message)));
        if let Some(next) = &error.next {
            out.push_str(&format!("\n**Next:** {}\n", escape(next)));
        }
    }
    out.push_str(&footer(report.at));
    out
}

/// `wait A B C -o markdown`, `wait --from FILE -o markdown`.
/// `causes`: one line per dead node its deployments wait for.
pub fn all(report: &WaitAll, causes: &[String]) -> String {
    let mut out = format!(
        "### Wait: {} of {} verified\n\n",
        report.verified, report.total
    );
    let rows: Vec<Vec<Md>> = report
        .deployments
        .iter()
        .map(|item| {
            vec![
                Md::code(&item.deployment),
                Md::code(result(item.result)),
                item.progress
                    .as_ref()
                    .map_or(Md::Text("—".to_string()), |p| Md::Text(super::summary(p))),
                Md::Text(human(item.elapsed_seconds as i64)),
            ]
        })
        .collect();
    out.push_str(&table(
        &["deployment", "result", "where it stands", "after"],
        &rows,
    ));
    if !causes.is_empty() {
        out.push('\n');
        for cause in causes {
            out.push_str(&format!("- {}\n", escape(cause)));
        }
        out.push_str(&format!("\n{}\n", escape(super::FORBIDDEN)));
    }
    out.push_str(&footer(report.at));
    out
}

fn state(p: &Progress) -> &'static str {
    match p.state {
        crate::model::progress::ProgressState::Verified => "verified",
        crate::model::progress::ProgressState::Waiting => "waiting",
        crate::model::progress::ProgressState::BlockedOnDeadNode => "blocked_on_dead_node",
    }
}

fn result(result: WaitResult) -> &'static str {
    match result {
        WaitResult::Verified => "verified",
        WaitResult::TimedOut => "timed_out",
        WaitResult::BlockedOnDeadNode => "blocked_on_dead_node",
        WaitResult::NothingToWaitFor => "nothing_to_wait_for",
        WaitResult::Failed => "failed",
        WaitResult::Interrupted => "interrupted",
    }
}
