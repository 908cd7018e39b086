//! `diagnose <deployment>`: every runbook query in one read-only snapshot,
//! and a verdict, as the report the command emits once the snapshot has
//! ended; for `-o json`, the whole trail streamed into the document from
//! inside it.

use std::cell::RefCell;

use anyhow::Result;

use super::Context;
use super::assess::{self, Assessed};
use crate::cli::DiagnoseArgs;
use crate::db;
use crate::decide::Policy;
use crate::model::diagnose::{DiagnoseReport, Events};
use crate::ui::diagnose::Diagnosis;

/// A diagnosis read (its snapshot ended): what its report is drawn from.
pub struct Diagnosed {
    pub assessed: Assessed,
    pub policy: Policy,
    /// The region named with --service, for the report.
    pub region: Option<String>,
}

impl Diagnosed {
    /// The report: the table, the ticket or the JSON document.
    pub fn report(&self) -> Diagnosis<'_> {
        Diagnosis {
            document: document(&self.assessed, &self.policy, self.region.clone()),
        }
    }
}

/// The JSON document of an assessment, each node judged stale or not at
/// the snapshot's time.
fn document<'a>(a: &'a Assessed, policy: &'a Policy, region: Option<String>) -> DiagnoseReport<'a> {
    let at = a.snapshot.snapshot.at;
    let state = |node: &_| policy.node_state(node, at);
    let mut document = DiagnoseReport::new(&a.snapshot, &a.verdict, &a.fingerprint, state);
    document.region = region;
    document
}

/// The deployment with its last `--events` events and the verdict (the
/// table and the ticket show no more), read in one snapshot that has
/// ended when this returns.
pub fn read(ctx: &Context, args: &DiagnoseArgs) -> Result<Diagnosed> {
    let policy = args.staleness.policy();
    let mut session = ctx.connect_for_reading()?;
    let assessed = assess::assess(
        &mut session,
        ctx.schema(),
        &args.deployment,
        Some(args.events),
        &policy,
    )?;
    Ok(Diagnosed {
        assessed,
        policy,
        region: ctx.region(),
    })
}

/// `-o json`: the deployment read with its last event (all the verdict
/// needs), then the whole trail streamed into the document by `emit` as
/// it arrives, in the same snapshot, so a million events are never held
/// in memory. The one report rendered inside its transaction: JSON is
/// never paged.
pub fn stream(
    ctx: &Context,
    args: &DiagnoseArgs,
    emit: impl FnOnce(&Diagnosis<'_>) -> Result<()>,
) -> Result<()> {
    let (schema, policy) = (ctx.schema(), args.staleness.policy());
    let mut session = ctx.connect_for_reading()?;
    let (mut reading, snapshot) =
        db::reading::read_with_trail(&mut session, schema, &args.deployment, Some(1))?;
    let a = assess::assessed(snapshot, &policy);
    assess::warn_row_security(&a);
    let mut document = document(&a, &policy, ctx.region());
    let mut trail = reading.events()?;
    document.events = Events::Stream(RefCell::new(&mut trail));
    emit(&Diagnosis { document })?;
    drop(trail);
    reading.finish()
}

/// `diagnose --full-text` (pushleft-controller-diagnose(1), HUGE TEXT): the whole of every job's
/// last error, agent result's output and event's payload, written as it
/// arrives in one read-only snapshot, never held whole. Plain text only.
pub fn full_text(ctx: &Context, args: &DiagnoseArgs) -> Result<()> {
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
        let mut writer = crate::ui::full_text::Writer::new(std::io::stdout().lock());
        db::text::full_texts(tx, schema, id, &mut |piece| writer.write(piece))?;
        writer.finish()?;
        Ok(())
    })
}
