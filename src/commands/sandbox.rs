//! `sandbox`: a throwaway PostgreSQL with the reference schema and the
//! incident scenarios (the machinery is `crate::sandbox`).

use anyhow::Result;

use crate::cli::SandboxArgs;
use crate::exit::ExitCode;
use crate::ops::Context;

pub fn run(ctx: &Context, args: &SandboxArgs) -> Result<ExitCode> {
    crate::sandbox::run(&ctx.output, args)
}
