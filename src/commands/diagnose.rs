//! `diagnose <deployment>`: every runbook query in one read-only snapshot,
//! and a verdict.

use std::cell::RefCell;

use anyhow::Result;

use super::Context;
use crate::cli::DiagnoseArgs;
use crate::db;
use crate::db::session::Session;
use crate::db::sql::Conn;
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
/// transaction and assesses it.
pub fn assess(
    session: &mut Session,
    schema: &db::sql::Schema,
    deployment: &str,
    events_limit: Option<usize>,
    policy: &Policy,
) -> Result<Assessed> {
    session.read(|tx| assess_in(tx, schema, deployment, events_limit, policy))
}

/// [`assess`] inside a transaction already open.
fn assess_in(
    tx: &mut impl Conn,
    schema: &db::sql::Schema,
    deployment: &str,
    events_limit: Option<usize>,
    policy: &Policy,
) -> Result<Assessed> {
    let snapshot = db::snapshot::read_in(tx, schema, deployment, events_limit)?;
    ui::warn_row_security(&snapshot.snapshot.row_security, "this diagnosis");
    Ok(Assessed {
        verdict: decide::assess(&snapshot, policy),
        fingerprint: decide::fingerprint(&snapshot),
        snapshot,
    })
}

/// The table and the ticket show the last `--events` events; the JSON
/// document carries the whole trail, streamed into it as it arrives in
/// the same snapshot (the deployment is read with its last event, all the
/// verdict needs).
pub fn run(ctx: &Context, args: &DiagnoseArgs) -> Result<ExitCode> {
    if args.full_text {
        return full_text(ctx, args);
    }
    let (schema, policy) = (ctx.schema(), args.staleness.policy());
    let shown = if ctx.output.json() { 1 } else { args.events };
    ctx.connect_for_reading()?.read(|tx| {
        let a = assess_in(tx, schema, &args.deployment, Some(shown), &policy)?;
        let stale = |node: &_| policy.is_stale(node, a.snapshot.snapshot.at);
        let mut document = DiagnoseReport::new(&a.snapshot, &a.verdict, &a.fingerprint, stale);
        document.region = ctx.region();
        let mut trail = match ctx.output.json() {
            true => Some(db::snapshot::events(tx, schema, a.snapshot.deployment.id)?),
            false => None,
        };
        if let Some(events) = trail.as_mut() {
            document.events = Events::Stream(RefCell::new(events));
        }
        let (snapshot, policy) = (&a.snapshot, &policy);
        ctx.emit(&Diagnosis {
            document,
            snapshot,
            policy,
        })?;
        Ok(ExitCode::Done)
    })
}

/// `diagnose --full-text` (README, "Huge text"): the whole of every job's
/// last error, agent result's output and event's payload, written as it
/// arrives in one read-only snapshot, never held whole. Plain text only.
fn full_text(ctx: &Context, args: &DiagnoseArgs) -> Result<ExitCode> {
    if ctx.output.json() || ctx.output.markdown() {
        return Err(crate::exit::usage(format!(
            "--full-text writes plain text: leave out --output json and markdown \
             (--output json has each value's first {} characters)",
            crate::model::cut::TEXT_CUT_CHARS
        )));
    }
    let schema = ctx.schema();
    ctx.connect_for_reading()?.read(|tx| {
        let id = db::deployment_id::resolve(tx, schema, &args.deployment)?;
        let mut writer = ui::full_text::Writer::new(std::io::stdout().lock());
        db::text::full_texts(tx, schema, id, &mut |piece| writer.write(piece))?;
        writer.finish()?;
        Ok(ExitCode::Done)
    })
}
