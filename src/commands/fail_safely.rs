//! `fail-safely`: the runbook's two guarded transitions, for one
//! deployment, a batch, a plan for review or a plan applied
//! (`ops::fail_safely`: plan → confirm → apply).

use anyhow::Result;

use crate::cli::FailSafelyArgs;
use crate::exit::ExitCode;
use crate::ops::Context;
use crate::ops::fail_safely::{self, Finished};

/// The report is emitted once every transaction of the run has ended; a
/// batch exits with the most serious of its deployments' codes.
pub fn run(ctx: &Context, args: &FailSafelyArgs) -> Result<ExitCode> {
    match fail_safely::perform(ctx, args)? {
        Finished::One(outcome) => ctx.emit(&outcome)?,
        Finished::Plan(plan) => ctx.emit(&plan)?,
        Finished::Batch(report) => {
            ctx.emit(&report)?;
            for line in crate::ui::batch::error_lines(&report) {
                crate::ui::note(&line);
            }
            return Ok(report.exit_code);
        }
    }
    Ok(ExitCode::Done)
}
