//! `diagnose <deployment>`: every runbook query in one read-only snapshot,
//! and a verdict (`ops::diagnose`).

use anyhow::Result;

use crate::cli::DiagnoseArgs;
use crate::exit::ExitCode;
use crate::ops::{Context, diagnose};

/// The table and the ticket are rendered once the snapshot has ended (a
/// pager may stay open as long as the operator reads); the JSON document
/// carries the whole trail, streamed into it from inside the snapshot.
pub fn run(ctx: &Context, args: &DiagnoseArgs) -> Result<ExitCode> {
    if args.full_text {
        diagnose::full_text(ctx, args)?;
    } else if ctx.output.json() {
        diagnose::stream(ctx, args, |report| ctx.emit(report))?;
    } else {
        let diagnosed = diagnose::read(ctx, args)?;
        ctx.emit(&diagnosed.report())?;
    }
    Ok(ExitCode::Done)
}
