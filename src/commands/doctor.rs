//! `doctor`: the connection, the server and the schema this tool expects,
//! one line per check; any failed check exits 4.

use anyhow::Result;

use super::Context;
use crate::cli::DoctorArgs;
use crate::db::doctor;
use crate::exit::ExitCode;
use crate::ui;

pub fn run(ctx: &Context, args: &DoctorArgs) -> Result<ExitCode> {
    let settings = ctx.settings()?;
    let report = doctor::run(
        &settings,
        &doctor::Expect {
            schema: ctx.schema().clone(),
            role: args.role.clone(),
            allowed_triggers: args.guard.allowed(),
        },
    );
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
