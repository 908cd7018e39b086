//! `diagnose <deployment>`: every runbook query in one read-only snapshot,
//! and a verdict.

use std::cell::RefCell;

use anyhow::Result;

use super::Context;
use crate::cli::DiagnoseArgs;
use crate::db;
use crate::db::reading::Reading;
use crate::db::session::Session;
use crate::decide::{self, Policy, Verdict};
use crate::exit::ExitCode;
use crate::model::DeploymentSnapshot;
use crate::model::diagnose::{DiagnoseReport, Events};
use crate::ui;
use crate::ui::diagnose::Diagnosis;

/// One consistent read of a deployment and the verdict on it.
pub struct Assessed {
    pub snapshot: DeploymentSnapshot,
    pub verdict: Verdict,
    pub fingerprint: String,
}

/// Reads `deployment` (id or prefix) inside one REPEATABLE READ READ ONLY
/// transaction, in one round trip, and assesses it.
pub fn assess(
    session: &mut Session,
    schema: &db::sql::Schema,
    deployment: &str,
    events_limit: Option<usize>,
    policy: &Policy,
) -> Result<Assessed> {
    let snapshot = db::reading::read(session, schema, deployment, events_limit)?;
    Ok(assessed(snapshot, policy))
}

/// The verdict on a snapshot read.
fn assessed(snapshot: DeploymentSnapshot, policy: &Policy) -> Assessed {
    ui::warn_row_security(&snapshot.snapshot.row_security, "this diagnosis");
    Assessed {
        verdict: decide::assess(&snapshot, policy),
        fingerprint: decide::fingerprint(&snapshot),
        snapshot,
    }
}

/// The table and the ticket show the last `--events` events; the JSON
/// document carries the whole trail, streamed into it as it arrives in
/// the same snapshot and the same flight (the deployment is read with its
/// last event, all the verdict needs).
pub fn run(ctx: &Context, args: &DiagnoseArgs) -> Result<ExitCode> {
    let (schema, policy) = (ctx.schema(), args.staleness.policy());
    let mut session = ctx.connect_for_reading()?;
    if !ctx.output.json() {
        let shown = Some(args.events);
        let snapshot = db::reading::read(&mut session, schema, &args.deployment, shown)?;
        emit(ctx, assessed(snapshot, &policy), &policy, None)?;
        return Ok(ExitCode::Done);
    }
    let (mut reading, snapshot) =
        db::reading::read_with_trail(&mut session, schema, &args.deployment, Some(1))?;
    emit(
        ctx,
        assessed(snapshot, &policy),
        &policy,
        Some(&mut reading),
    )?;
    reading.finish()?;
    Ok(ExitCode::Done)
}

/// The diagnosis in the format asked for, with the trail streamed from
/// `trail` when there is one.
fn emit(
    ctx: &Context,
    a: Assessed,
    policy: &Policy,
    trail: Option<&mut Reading<'_>>,
) -> Result<()> {
    let at = a.snapshot.snapshot.at;
    let stale = |node: &_| policy.is_stale(node, at);
    let mut document = DiagnoseReport::new(&a.snapshot, &a.verdict, &a.fingerprint, stale);
    document.region = ctx.region();
    let mut events = match trail {
        Some(reading) => Some(reading.events()?),
        None => None,
    };
    if let Some(events) = events.as_mut() {
        document.events = Events::Stream(RefCell::new(events));
    }
    let snapshot = &a.snapshot;
    ctx.emit(&Diagnosis {
        document,
        snapshot,
        policy,
    })
}
