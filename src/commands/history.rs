//! `history`: what operators did (every `operator_failed` and
//! `teardown_requested` with its audit), newest first — the review after
//! an incident (`ops::history`). Read-only.

use anyhow::Result;

use crate::cli::HistoryArgs;
use crate::exit::ExitCode;
use crate::ops::regions::{self, Regional};
use crate::ops::{Context, history};

pub fn run(ctx: &Context, args: &HistoryArgs) -> Result<ExitCode> {
    let Regional { value, statuses } = history::list_all(ctx, args)?;
    if let Some(list) = value {
        ctx.emit(&list)?;
    }
    Ok(regions::finish(ctx, &statuses, ExitCode::Done))
}
