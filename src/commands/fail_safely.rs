//! `fail-safely <deployment> --reason`: the two guarded transitions of the
//! runbook (the transaction itself is `db::transition`). Without `--yes` on
//! a terminal: plan under the locks (rolled back), show it, ask, then apply
//! with the plan's path and fingerprint required — no silent change of plan.

use std::io::IsTerminal;

use anyhow::Result;
use postgres::Client;

use super::Context;
use crate::cli::{ExpectedPath, FailSafelyArgs};
use crate::db::transition::{self, Audit, Outcome, Request};
use crate::decide::input::{validate_key, validate_reason};
use crate::exit::{self, ExitCode};
use crate::model::BreakGlassPath;
use crate::ui;

fn request_from(ctx: &Context, args: &FailSafelyArgs) -> Result<Request> {
    Ok(Request {
        deployment: args.deployment.clone(),
        reason: validate_reason(&args.reason, args.reason_pattern.as_ref())?,
        idempotency_key: args
            .idempotency_key
            .as_deref()
            .map(validate_key)
            .transpose()?,
        dry_run: args.dry_run,
        expect_path: args.expect_path.map(|p| match p {
            ExpectedPath::OperatorFailed => BreakGlassPath::OperatorFailed,
            ExpectedPath::TeardownRequested => BreakGlassPath::TeardownRequested,
        }),
        expect_fingerprint: args.expect_fingerprint.clone(),
        role: args.role.clone(),
        lock_timeout: args.lock_timeout,
        policy: args.staleness.policy(),
        audit: Audit::of_this_process(),
        schema: ctx.schema().clone(),
        even_if_not_stuck: args.even_if_not_stuck,
        allowed_triggers: args.guard.allowed(),
    })
}

/// The transition, with each retry shown to the operator.
fn execute(client: &mut Client, request: &Request) -> Result<Outcome> {
    transition::execute(client, request, &mut |retry| ui::note(retry))
}

pub fn run(ctx: &Context, args: &FailSafelyArgs) -> Result<ExitCode> {
    let request = request_from(ctx, args)?;
    // Without a terminal, and without --yes, nobody can confirm: refuse
    // before touching the database.
    let terminal = std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
    if !request.dry_run && !args.yes && !terminal {
        return Err(exit::refused(
            "no terminal to confirm on: rerun with --yes (and --expect-path / --expect-fingerprint from diagnose) to run unattended; nothing was written",
        ));
    }
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
    super::print(ctx, &outcome, || {
        ui::fail_safely::outcome_text(&ctx.output, &outcome)
    })?;
    Ok(ExitCode::Done)
}
