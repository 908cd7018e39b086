//! `stuck`: the fleet-wide scan the alerts describe, `deployment_stuck` and
//! `job_lease_orphaned`. Reports, never acts.

use anyhow::Result;

use super::Context;
use crate::cli::StuckArgs;
use crate::db::stuck::{self, StuckThresholds};
use crate::exit::ExitCode;
use crate::ui;

pub fn run(ctx: &Context, args: &StuckArgs) -> Result<ExitCode> {
    let mut client = ctx.connect_for_reading()?;
    let report = stuck::scan(
        &mut client,
        StuckThresholds {
            stuck_after: args.for_,
            grace: args.grace,
        },
    )?;
    if ctx.output.json() {
        ui::print_json(&report)?;
    } else {
        ctx.output.print(&ui::stuck::render(&report, &ctx.output))?;
        if let Some(hint) = ui::stuck::hint(&report) {
            ctx.output
                .note(&ui::text::wrapped(hint, ctx.output.width, "", "  "));
        }
    }
    // The rule (README, man page): 10 only for what an operator can act
    // on; a lease only the reclaimer can release is reported, not counted.
    Ok(if args.exit_code && report.actionable() {
        ExitCode::StuckFound
    } else {
        ExitCode::Done
    })
}
