//! `approvals`: the tool's own schema on a database, where the server
//! records plans and keeps the two-person policy (README, "Two-person
//! break-glass").

use clap::{Args, Subcommand};

#[derive(Debug, Subcommand)]
pub enum ApprovalsCommand {
    /// Create (or complete) the schema pushleft_approvals and set its policy.
    ///
    /// Idempotent; run as the role that is to own it (the only role that
    /// may change or delete a record). From then on `--plan-out` records
    /// each plan on the server (who asked, when, its expiry, its content's
    /// hash) and `--apply` applies only the server's copy, once. The
    /// policy is set exactly as given here, and printed with what it was.
    #[command(after_help = "Examples:
  pushleft-controller approvals install
  pushleft-controller approvals install --require-approval --enforce")]
    Install(ApprovalsInstallArgs),
}

#[derive(Debug, Clone, Args)]
pub struct ApprovalsInstallArgs {
    /// Every write needs a plan recorded by another session_user, whatever
    /// PUSHLEFT_REQUIRE_APPROVAL says.
    #[arg(long)]
    pub require_approval: bool,

    /// Refuse --break-glass-alone (with --require-approval: nobody writes
    /// alone).
    #[arg(long)]
    pub forbid_break_glass_alone: bool,

    /// Also a trigger on deployment_events that refuses operator events
    /// not tied to an application in the same transaction, psql included.
    #[arg(long)]
    pub enforce: bool,
}
