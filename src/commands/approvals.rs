//! `approvals install` (README, "Two-person break-glass"): the tool's own
//! schema on this database, the policy as asked, and what changed.

use anyhow::Result;

use super::Context;
use crate::cli::ApprovalsCommand;
use crate::db::connect::DEFAULT_LOCK_TIMEOUT;
use crate::exit::ExitCode;
use crate::model::approvals::Policy;

pub fn run(ctx: &Context, command: &ApprovalsCommand) -> Result<ExitCode> {
    let ApprovalsCommand::Install(args) = command;
    let asked = Policy {
        require_approval: args.require_approval,
        break_glass_alone_allowed: !args.forbid_break_glass_alone,
        enforce: args.enforce,
    };
    let mut session = ctx.connect(DEFAULT_LOCK_TIMEOUT)?;
    let report = crate::db::approvals::install(&mut session, &ctx.global.schema, asked)?;
    ctx.emit(&report)?;
    Ok(ExitCode::Done)
}
