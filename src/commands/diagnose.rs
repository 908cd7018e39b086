//! `diagnose <deployment>`: every runbook query in one read-only snapshot,
//! and a verdict.

use std::cell::RefCell;

use anyhow::Result;

use super::Context;
use crate::cli::DiagnoseArgs;
use crate::db;
use crate::db::session::Session;
use crate::decide::{self, Policy, Verdict};
use crate::exit::ExitCode;
use crate::model::DeploymentSnapshot;
use crate::ui;
use crate::ui::diagnose::{DiagnoseReport, Events, diagnose_table};

/// One consistent read of a deployment and the verdict on it.
pub struct Diagnosis {
    pub snapshot: DeploymentSnapshot,
    pub verdict: Verdict,
    pub fingerprint: String,
}

/// Reads `deployment` (id or prefix) inside one REPEATABLE READ READ ONLY
/// transaction and assesses it.
pub fn diagnose(
    client: &mut Session,
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
    if ctx.output.json() {
        return json(ctx, &mut client, args, &policy);
    }
    // The table shows the last N events.
    let d = diagnose(
        &mut client,
        ctx.schema(),
        &args.deployment,
        Some(args.events),
        &policy,
    )?;
    if ctx.output.markdown() {
        ctx.output.print(&ui::markdown::diagnose(
            &d.snapshot,
            &d.verdict,
            &d.fingerprint,
        ))?;
        return Ok(ExitCode::Done);
    }
    if let Some(region) = ctx.region() {
        ctx.output
            .note(&format!("region {region} (connection service)"));
    }
    ctx.output.print(&diagnose_table(
        &ctx.output,
        &d.snapshot,
        &d.verdict,
        &d.fingerprint,
        &policy,
    ))?;
    Ok(ExitCode::Done)
}

/// The JSON document carries the whole trail: in one read-only snapshot,
/// the deployment is read with its last event (all the verdict needs),
/// then the trail is streamed into the document as it arrives.
fn json(
    ctx: &Context,
    client: &mut Session,
    args: &DiagnoseArgs,
    policy: &Policy,
) -> Result<ExitCode> {
    let schema = ctx.schema();
    client.read(|tx| {
        let snapshot = db::snapshot::read_in(tx, schema, &args.deployment, Some(1))?;
        ui::warn_row_security(&snapshot.snapshot.row_security, "this diagnosis");
        let verdict = decide::assess(&snapshot, policy);
        let fingerprint = decide::fingerprint(&snapshot);
        let mut events = db::snapshot::events(tx, schema, snapshot.deployment.id)?;
        let mut report = DiagnoseReport::new(&snapshot, &verdict, &fingerprint, policy);
        report.events = Events::Stream(RefCell::new(&mut events));
        report.region = ctx.region();
        ui::print_json(&report)?;
        Ok(ExitCode::Done)
    })
}
