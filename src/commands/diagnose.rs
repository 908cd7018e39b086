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
    let (schema, policy) = (ctx.schema(), args.staleness.policy());
    let streamed = ctx.output.json();
    let shown = if streamed { 1 } else { args.events };
    ctx.connect_for_reading()?.read(|tx| {
        let a = assess_in(tx, schema, &args.deployment, Some(shown), &policy)?;
        let at = a.snapshot.snapshot.at;
        let state = |node: &_| policy.node_state(node, at);
        let mut document = DiagnoseReport::new(&a.snapshot, &a.verdict, &a.fingerprint, state);
        document.region = ctx.region();
        let mut trail = match streamed {
            true => Some(db::snapshot::events(tx, schema, a.snapshot.deployment.id)?),
            false => None,
        };
        if let Some(events) = trail.as_mut() {
            document.events = Events::Stream(RefCell::new(events));
        }
        ctx.emit(&Diagnosis { document })?;
        Ok(ExitCode::Done)
    })
}
