//! `doctor`: the connection, the server and the schema this tool expects,
//! checked (`db::doctor`, which opens and ends its own transactions).

use anyhow::Result;

use super::Context;
use crate::cli::DoctorArgs;
use crate::db::doctor::{self, Expect};
use crate::model::doctor::Report;

/// Every check, as the report shows them; an unusable setting (a bad URL)
/// is the error.
pub fn check(ctx: &Context, args: &DoctorArgs) -> Result<Report> {
    let settings = ctx.settings()?;
    Ok(doctor::run(
        &settings,
        &Expect {
            schema: ctx.schema().clone(),
            role: args.role.clone(),
            allowed_triggers: args.guard.allowed(),
        },
    ))
}
