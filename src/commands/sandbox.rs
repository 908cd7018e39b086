//! `sandbox`: a throwaway PostgreSQL with the reference schema and the
//! incident scenarios (the machinery is `crate::sandbox`).

use anyhow::Result;

use super::Context;
use crate::cli::SandboxArgs;
use crate::exit::ExitCode;

pub fn run(ctx: &Context, args: &SandboxArgs) -> Result<ExitCode> {
    crate::sandbox::run(&ctx.output, args)
}
