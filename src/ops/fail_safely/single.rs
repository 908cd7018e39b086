//! `fail-safely <deployment> --reason`: one deployment. Without `--yes` on
//! a terminal: plan under the locks (rolled back), show it, ask, then apply
//! with the plan's path and fingerprint required — no silent change of plan.

use crate::db::session::Session;
use anyhow::Result;

use super::request::{connect_for, execute, refuse_without_terminal};
use crate::cli::FailSafelyArgs;
use crate::db::transition::{Outcome, Request};
use crate::model::next::{NextCommand, Subcommand};
use crate::model::target::WriteTarget;
use crate::ops::{Context, assess};
use crate::ui;

/// What the transition leaves for the command to say: a dry run wrote
/// nothing, so its next command applies it (unattended, with the path and
/// fingerprint it checked) instead of `wait`; a replay read no state, so
/// the current fingerprint and findings are read now (one read-only
/// snapshot, as diagnose).
fn complete(
    client: &mut Session,
    request: &Request,
    args: &FailSafelyArgs,
    mut outcome: Outcome,
) -> Result<Outcome> {
    if outcome.dry_run && !outcome.replayed {
        let mut rerun = NextCommand::new(Subcommand::FailSafely)
            .arg(outcome.deployment_id)
            .option("--reason", &request.reason);
        if let Some(key) = &args.idempotency_key {
            rerun = rerun.option("--idempotency-key", key);
        }
        if let Some(role) = &args.role {
            rerun = rerun.option("--role", role);
        }
        outcome.rerun = Some(rerun);
        let mut command = NextCommand::new(Subcommand::FailSafely)
            .arg(outcome.deployment_id)
            .option("--reason", &request.reason)
            .arg("--yes")
            .option("--expect-path", outcome.path.as_str())
            .option(
                "--expect-fingerprint",
                outcome.fingerprint.as_deref().unwrap_or("-"),
            );
        if let Some(key) = &args.idempotency_key {
            command = command.option("--idempotency-key", key);
        }
        if let Some(role) = &args.role {
            command = command.option("--role", role);
        }
        outcome.next_command = command;
    }
    if outcome.replayed {
        let now = assess::assess(
            client,
            &request.schema,
            &outcome.deployment_id.to_string(),
            Some(1),
            &request.policy,
        )?;
        outcome.fingerprint = Some(now.fingerprint);
        outcome.findings = now.verdict.findings;
        outcome.evidence = now.verdict.evidence;
    }
    Ok(outcome)
}

/// The positional deployment: its outcome, once every transaction ended.
pub fn fail_one(ctx: &Context, args: &FailSafelyArgs, deployment: &str) -> Result<Outcome> {
    let mut request = args.request(&ctx.global, deployment)?;
    refuse_without_terminal(args)?;
    let (mut client, target) = connect_for(ctx, args, std::slice::from_mut(&mut request))?;
    let outcome = if request.dry_run || args.yes {
        execute(&mut client, &request)?
    } else {
        confirm_and_apply(ctx, &mut client, &request, &target)?
    };
    let mut outcome = complete(&mut client, &request, args, outcome)?;
    outcome.target = Some(target);
    Ok(outcome)
}

/// Plans under the locks (rolled back), shows the plan, asks, then applies
/// with the plan's path and fingerprint required. The plan's transaction
/// has ended before it is shown: the prompt holds no lock and no
/// transaction, however long the operator takes.
fn confirm_and_apply(
    ctx: &Context,
    client: &mut Session,
    request: &Request,
    target: &WriteTarget,
) -> Result<Outcome> {
    let dry_run = Request {
        dry_run: true,
        ..request.clone()
    };
    let mut plan = execute(client, &dry_run)?;
    if plan.replayed {
        return Ok(plan);
    }
    plan.target = Some(target.clone());
    ui::note(&ui::fail_safely::plan_text(&ctx.output, &plan));
    ui::prompt::confirm_deployment(plan.deployment_id, plan.stuck, target)?;
    let held_to_plan = Request {
        expect_path: Some(plan.path),
        expect_fingerprint: plan.fingerprint.clone(),
        ..request.clone()
    };
    execute(client, &held_to_plan)
}
