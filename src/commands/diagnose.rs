//! `diagnose <deployment>`: every runbook query in one read-only snapshot,
//! and a verdict.

use anyhow::Result;

use super::Context;
use crate::cli::DiagnoseArgs;
use crate::db;
use crate::decide::{self, Policy, Verdict};
use crate::exit::ExitCode;
use crate::model::DeploymentSnapshot;
use crate::ui;
use crate::ui::diagnose::{DiagnoseReport, diagnose_table};

/// One consistent read of a deployment and the verdict on it.
pub struct Diagnosis {
    pub snapshot: DeploymentSnapshot,
    pub verdict: Verdict,
    pub fingerprint: String,
}

/// Reads `deployment` (id or prefix) inside one REPEATABLE READ READ ONLY
/// transaction and assesses it.
pub fn diagnose(
    client: &mut crate::db::session::Session,
    schema: &db::sql::Schema,
    deployment: &str,
    events_limit: Option<usize>,
    policy: &Policy,
) -> Result<Diagnosis> {
    let snapshot = db::snapshot::read(client, schema, deployment, events_limit)?;
    ui::warn_row_security(&snapshot.snapshot.row_security, "this diagnosis");
    let verdict = decide::assess(&snapshot, policy);
    let fingerprint = decide::fingerprint(&snapshot);
    Ok(Diagnosis {
        snapshot,
        verdict,
        fingerprint,
    })
}

pub fn run(ctx: &Context, args: &DiagnoseArgs) -> Result<ExitCode> {
    let mut client = ctx.connect_for_reading()?;
    let policy = args.staleness.policy();
    // The table shows the last N events; JSON carries the whole trail.
    let limit = if ctx.output.json() {
        None
    } else {
        Some(args.events)
    };
    let d = diagnose(&mut client, ctx.schema(), &args.deployment, limit, &policy)?;
    if ctx.output.markdown() {
        ctx.output.print(&ui::markdown::diagnose(
            &d.snapshot,
            &d.verdict,
            &d.fingerprint,
        ))?;
        return Ok(ExitCode::Done);
    }
    let mut report = DiagnoseReport::new(&d.snapshot, &d.verdict, &d.fingerprint, &policy);
    report.region = ctx.region();
    if let Some(region) = &report.region
        && !ctx.output.json()
    {
        ctx.output
            .note(&format!("region {region} (connection service)"));
    }
    super::print(ctx, &report, || {
        diagnose_table(
            &ctx.output,
            &d.snapshot,
            &d.verdict,
            &d.fingerprint,
            &policy,
        )
    })?;
    Ok(ExitCode::Done)
}
