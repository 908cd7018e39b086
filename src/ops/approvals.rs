//! `approvals install` (README, "Two-person break-glass"): the tool's own
//! schema on this database and the policy as asked, in one committed
//! transaction (`db::approvals::install`), and what changed.

use anyhow::Result;

use super::Context;
use crate::cli::ApprovalsInstallArgs;
use crate::db::approvals;
use crate::db::connect::DEFAULT_LOCK_TIMEOUT;
use crate::model::approvals::{InstallReport, Policy};

/// Installs (or updates) the schema and the policy `args` ask for.
pub fn install(ctx: &Context, args: &ApprovalsInstallArgs) -> Result<InstallReport> {
    let asked = Policy {
        require_approval: args.require_approval,
        break_glass_alone_allowed: !args.forbid_break_glass_alone,
        enforce: args.enforce,
    };
    let mut session = ctx.connect(DEFAULT_LOCK_TIMEOUT)?;
    approvals::install(&mut session, ctx.schema(), asked)
}
