//! `doctor`: the connection, the server and the schema this tool expects,
//! one line per check (`ops::doctor`); any failed check exits 4.

use anyhow::Result;

use crate::cli::DoctorArgs;
use crate::exit::ExitCode;
use crate::ops::{Context, doctor};
use crate::ui;

pub fn run(ctx: &Context, args: &DoctorArgs) -> Result<ExitCode> {
    let report = doctor::check(ctx, args)?;
    ctx.emit(&report)?;
    let failed = report.failed();
    if failed > 0 {
        ui::note(&format!(
            "doctor: {failed} check(s) failed; fix them before running fail-safely"
        ));
        Ok(ExitCode::Refused)
    } else {
        Ok(ExitCode::Done)
    }
}
