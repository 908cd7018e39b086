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
        ctx.schema(),
        StuckThresholds {
            stuck_after: args.for_,
            grace: args.grace,
        },
    )?;
    if ctx.output.json() {
        ui::print_json(&report)?;
    } else {
        ui::stuck::render(&report, &ctx.output)?;
    }
    Ok(if args.exit_code && report.found_anything() {
        ExitCode::StuckFound
    } else {
        ExitCode::Done
    })
}
