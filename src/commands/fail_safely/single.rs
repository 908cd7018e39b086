//! `fail-safely <deployment> --reason`: one deployment. Without `--yes` on
//! a terminal: plan under the locks (rolled back), show it, ask, then apply
//! with the plan's path and fingerprint required — no silent change of plan.

use crate::db::session::Session;
use anyhow::Result;

use super::request::{execute, refuse_without_terminal, request_from};
use crate::cli::FailSafelyArgs;
use crate::commands::Context;
use crate::db::transition::{Outcome, Request};
use crate::exit::ExitCode;
use crate::model::next::{NextCommand, Subcommand};
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
        let now = crate::commands::diagnose::diagnose(
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

/// The positional deployment's run.
pub fn run(ctx: &Context, args: &FailSafelyArgs, deployment: &str) -> Result<ExitCode> {
    let request = request_from(ctx, args, deployment)?;
    refuse_without_terminal(args)?;
    let mut client = ctx.connect(request.lock_timeout)?;
    let outcome = if request.dry_run || args.yes {
        execute(&mut client, &request)?
    } else {
        let plan = execute(
            &mut client,
            &Request {
                dry_run: true,
                ..request.clone()
            },
        )?;
        if plan.replayed {
            plan
        } else {
            ui::note(&ui::fail_safely::plan_text(&ctx.output, &plan));
            ui::prompt::confirm_deployment(plan.deployment_id, plan.stuck)?;
            execute(
                &mut client,
                &Request {
                    expect_path: Some(plan.path),
                    expect_fingerprint: plan.fingerprint.clone(),
                    ..request.clone()
                },
            )?
        }
    };
    let outcome = complete(&mut client, &request, args, outcome)?;
    if ctx.output.markdown() {
        ctx.output.print(&ui::markdown::fail_safely(&outcome))?;
        return Ok(ExitCode::Done);
    }
    crate::commands::print(ctx, &outcome, || {
        ui::fail_safely::outcome_text(&ctx.output, &outcome)
    })?;
    Ok(ExitCode::Done)
}
