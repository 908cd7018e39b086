//! `wait <deployment>`: the runbook's Verification step, for one
//! deployment or several together (`ops::wait`).

use anyhow::Result;

use crate::cli::WaitArgs;
use crate::exit::{self, ExitCode};
use crate::ops::{Context, wait};

/// One deployment as before; several (or `--from`) together.
pub fn run(ctx: &Context, args: &WaitArgs) -> Result<ExitCode> {
    if let (None, [one]) = (&args.from, args.deployments.as_slice()) {
        let followed = wait::one(ctx, args, one)?;
        ctx.emit(&followed.report())?;
        return match followed.failure {
            // Its JSON is the document above: one document on stdout.
            Some(err) => Err(exit::reported(err)),
            None => Ok(ExitCode::Done),
        };
    }
    let all = wait::all(ctx, args)?;
    ctx.emit(&all.report)?;
    Ok(all.code)
}
