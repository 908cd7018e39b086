//! `fail-safely … --plan-out FILE` (README, "Two-person break-glass"):
//! decides under the locks exactly as a dry run does (each deployment in
//! its own transaction, rolled back), writes nothing to the database, and
//! writes the plan — who asked, when it expires, the target's identity,
//! and for each deployment its path, fingerprint and event — for review in
//! the ticket and `--apply` by someone else.

use std::path::Path;

use anyhow::{Context as _, Result};
use chrono::{DateTime, Utc};

use super::Finished;
use super::batch::{self, Done, run_each};
use super::pace::Pace;
use super::request::{Connected, connect, execute, me};
use crate::cli::FailSafelyArgs;
use crate::db::transition::Request;
use crate::exit;
use crate::model::batch::{BatchItem, BatchReport, BatchResult};
use crate::model::plan::{
    LeftOut, PLAN_VERSION, PLAN_WARNINGS, Plan, PlanFile, PlanWarning, PlannedDeployment,
    PlannedEvent,
};
use crate::model::target::WriteTarget;
use crate::ops::Context;

/// The plan of the positional deployment or the batch, recorded by the
/// server where the database records plans, written to `out`; or, when a
/// deployment of the batch was refused (without --keep-going), no plan
/// and the batch's report.
pub fn write_plan(ctx: &Context, args: &FailSafelyArgs, out: &Path) -> Result<Finished> {
    super::plan_file::check_free(out, args.force)?;
    let requests = dry_runs(ctx, args)?;
    let Some(first) = requests.first() else {
        return Err(exit::usage("give a deployment id, or --from FILE"));
    };
    let Connected {
        session: mut client,
        target,
        now,
        approvals,
    } = connect(ctx, first.lock_timeout)?;
    let items = if args.from.is_none() {
        // One deployment: its refusal is the command's, as a dry run's.
        let outcome = execute(&mut client, first)?;
        vec![batch::item(&first.deployment, Ok(outcome), true)]
    } else {
        run_each(
            &mut client,
            &requests,
            true,
            true,
            None,
            (&mut Pace::none(), &[]),
        )
    };
    if items.iter().any(|i| i.outcome.is_none()) && !args.keep_going {
        return Ok(Finished::Batch(refused(items, target)));
    }
    let mut plan = plan_of(ctx, args, out, first, target, now, items)?;
    if approvals.installed {
        record(&mut client, &mut plan, &first.audit.os_user, args)?;
    }
    write(out, &plan, args.force)?;
    Ok(Finished::Plan(plan))
}

/// A deployment of the batch was refused: no plan, the batch's report.
fn refused(items: Vec<BatchItem>, target: WriteTarget) -> BatchReport {
    crate::ui::note(
        "no plan was written: a deployment of the batch was refused (below). Leave it out, or \
         give --keep-going to plan the others",
    );
    let done = Done {
        dry_run: true,
        target: Some(target),
        plan_id: None,
        rate: None,
        next_command: None,
    };
    batch::finish(items, done)
}

/// The requests, as dry runs: the positional deployment, or the batch's.
fn dry_runs(ctx: &Context, args: &FailSafelyArgs) -> Result<Vec<Request>> {
    let requests = match (&args.from, &args.deployment) {
        (Some(from), _) => batch::requests(ctx, args, from)?,
        (None, Some(deployment)) => vec![args.request(&ctx.global, deployment)?],
        (None, None) => return Err(exit::usage("give a deployment id, or --from FILE")),
    };
    Ok(requests
        .into_iter()
        .map(|r| Request { dry_run: true, ..r })
        .collect())
}

/// The plan of what the dry runs decided. Deployments already done (a
/// replay) or refused (with --keep-going) are left out, and listed.
fn plan_of(
    ctx: &Context,
    args: &FailSafelyArgs,
    out: &Path,
    first: &Request,
    target: WriteTarget,
    now: DateTime<Utc>,
    items: Vec<BatchItem>,
) -> Result<Plan> {
    let (deployments, left_out) = split(items);
    if deployments.is_empty() {
        return Err(exit::refused(
            "nothing to plan: every deployment is already done or was refused; no plan was written",
        ));
    }
    let ttl = chrono::Duration::from_std(args.plan_ttl)
        .map_err(|_| exit::usage("--plan-ttl is too long"))?;
    let mut command = vec!["pushleft-controller".to_string()];
    if let Some(region) = ctx.region() {
        command.extend(["--service".to_string(), region]);
    }
    command.extend(["fail-safely".into(), "--apply".into()]);
    command.push(out.display().to_string());
    let mut plan = Plan {
        plan_id: String::new(),
        created_at: now,
        expires_at: now + ttl,
        reason: first.reason.clone(),
        requester: me(&first.audit, &target),
        target,
        even_if_not_stuck: args.even_if_not_stuck,
        role: args.role.clone(),
        deployments,
        left_out,
        record: None,
        apply_command: crate::ui::markdown::command_line(&command),
    };
    plan.plan_id = crate::decide::approval::file_plan_id(&plan)?;
    Ok(plan)
}

/// The deployments to write, and those left out.
fn split(items: Vec<BatchItem>) -> (Vec<PlannedDeployment>, Vec<LeftOut>) {
    let mut planned = Vec::new();
    let mut left_out = Vec::new();
    for item in items {
        match item.outcome {
            Some(o) if item.result == BatchResult::Planned => planned.push(PlannedDeployment {
                deployment_id: o.deployment_id,
                path: o.path,
                fingerprint: o.fingerprint.unwrap_or_default(),
                stuck: o.stuck,
                stuck_for_seconds: o.stuck_for_seconds,
                previous_status: o.previous_status.to_string(),
                new_status: o.new_status.to_string(),
                idempotency_key: o.idempotency_key,
                event: PlannedEvent {
                    kind: o.event.kind,
                    sequence: o.event.sequence,
                    payload: o.event.payload,
                },
                warnings: o
                    .findings
                    .iter()
                    .filter(|f| PLAN_WARNINGS.contains(&f.code))
                    .map(|f| PlanWarning {
                        code: f.code.to_string(),
                        message: f.message.clone(),
                    })
                    .collect(),
            }),
            Some(_) => left_out.push(LeftOut {
                deployment: item.deployment,
                result: "replayed".into(),
                why: "already done by an earlier run with the same idempotency key".into(),
            }),
            None => left_out.push(LeftOut {
                deployment: item.deployment,
                result: "refused".into(),
                why: item.error.unwrap_or_default(),
            }),
        }
    }
    (planned, left_out)
}

/// On a database that records plans: the plan recorded by the server,
/// which stamps its id, who asked, when and its expiry (README,
/// "Two-person break-glass"); the file carries what it stamped.
fn record(
    client: &mut crate::db::session::Session,
    plan: &mut Plan,
    os_user: &str,
    args: &FailSafelyArgs,
) -> Result<()> {
    let ttl = i64::try_from(args.plan_ttl.as_secs()).unwrap_or(i64::MAX);
    let content = crate::decide::approval::content(plan)?;
    let stamped = crate::db::approvals::record(client, &content, os_user, ttl).map_err(|err| {
        err.context("recording the plan on the server; no plan was written, nothing was applied")
    })?;
    plan.plan_id = stamped.plan_id;
    plan.created_at = stamped.created_at;
    plan.expires_at = stamped.expires_at;
    plan.record = Some(stamped.record);
    Ok(())
}

/// The plan file, with its format version: the same document `-o json`
/// prints; never over another file unless `force` (`plan_file::write`).
fn write(out: &Path, plan: &Plan, force: bool) -> Result<()> {
    let file = PlanFile {
        schema_version: PLAN_VERSION,
        plan: plan.clone(),
    };
    let mut text = serde_json::to_string_pretty(&file).context("serializing the plan")?;
    text.push('\n');
    super::plan_file::write(out, &text, force)
}
