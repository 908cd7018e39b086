//! `approvals install` (README, "Two-person break-glass"): the tool's own
//! schema on this database, the policy as asked, and what changed
//! (`ops::approvals`).

use anyhow::Result;

use crate::cli::ApprovalsCommand;
use crate::exit::ExitCode;
use crate::ops::{Context, approvals};

pub fn run(ctx: &Context, command: &ApprovalsCommand) -> Result<ExitCode> {
    let ApprovalsCommand::Install(args) = command;
    let report = approvals::install(ctx, args)?;
    ctx.emit(&report)?;
    Ok(ExitCode::Done)
}
