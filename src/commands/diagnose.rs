//! `diagnose <deployment>`: every runbook query in one read-only snapshot,
//! and a verdict.

use anyhow::{Context, Result};

use crate::cli::{DiagnoseArgs, GlobalArgs};
use crate::connect::Settings;
use crate::exit::ExitCode;
use crate::output::{self, Output};
use crate::render::{self, DiagnoseReport};
use crate::resolve;
use crate::snapshot::{self, Mode, Snapshot};
use crate::verdict::{self, Policy, Verdict};

/// One consistent read of a deployment and the verdict on it.
pub struct Diagnosis {
    pub snapshot: Snapshot,
    pub verdict: Verdict,
    pub fingerprint: String,
}

/// Reads `deployment` (id or prefix) inside one REPEATABLE READ READ ONLY
/// transaction and assesses it.
pub fn diagnose(
    client: &mut postgres::Client,
    deployment: &str,
    events_limit: Option<usize>,
    policy: &Policy,
) -> Result<Diagnosis> {
    let mut tx = snapshot::read_only_snapshot(client)?;
    let id = resolve::resolve(&mut tx, deployment)?;
    let snapshot = snapshot::load(&mut tx, id, events_limit, Mode::Plain)
        .with_context(|| format!("diagnosing deployment {id}"))?;
    // Nothing was written; ending the transaction either way is the same.
    tx.rollback()?;
    let verdict = verdict::assess(&snapshot, policy);
    let fingerprint = verdict::fingerprint(&snapshot);
    Ok(Diagnosis {
        snapshot,
        verdict,
        fingerprint,
    })
}

pub fn run(args: &DiagnoseArgs, global: &GlobalArgs, out: &Output) -> Result<ExitCode> {
    let settings = Settings::from_options(&global.connect_options())?;
    let mut client = super::connect(&settings, crate::connect::DEFAULT_LOCK_TIMEOUT)?;
    let policy = Policy {
        stale_after: args.stale_after,
    };
    // The table shows the last N events; JSON carries the whole trail.
    let limit = if out.json() { None } else { Some(args.events) };
    let d = diagnose(&mut client, &args.deployment, limit, &policy)?;
    if out.json() {
        output::print_json(&DiagnoseReport::new(
            &d.snapshot,
            &d.verdict,
            &d.fingerprint,
            &policy,
        ))?;
    } else {
        output::print(&render::diagnose_table(
            out,
            &d.snapshot,
            &d.verdict,
            &d.fingerprint,
            &policy,
        ))?;
    }
    Ok(ExitCode::Done)
}
