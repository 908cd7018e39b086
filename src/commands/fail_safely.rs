//! `fail-safely <deployment> --reason`: the two guarded transitions of the
//! runbook (the transaction itself is `db::transition`). Without `--yes` on
//! a terminal: plan under the locks (rolled back), show it, ask, then apply
//! with the plan's path and fingerprint required — no silent change of plan.

use std::io::IsTerminal;

use crate::db::session::Session;
use anyhow::Result;

use super::Context;
use crate::cli::{ExpectedPath, FailSafelyArgs};
use crate::db::transition::{self, Audit, Outcome, Request};
use crate::decide::input::{validate_fingerprint, validate_key, validate_reason};
use crate::exit::{self, ExitCode};
use crate::model::BreakGlassPath;
use crate::ui;

/// The request for one deployment of `args` (the positional one, or one
/// of a batch).
pub fn request_from(ctx: &Context, args: &FailSafelyArgs, deployment: &str) -> Result<Request> {
    Ok(Request {
        deployment: deployment.to_string(),
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
        expect_fingerprint: args
            .expect_fingerprint
            .as_deref()
            .map(validate_fingerprint)
            .transpose()?,
        role: args.role.clone(),
        lock_timeout: args.lock_timeout,
        policy: args.staleness.policy(),
        audit: Audit {
            region: ctx.region(),
            ..Audit::of_this_process()
        },
        schema: ctx.schema().clone(),
        even_if_not_stuck: args.even_if_not_stuck,
        allowed_triggers: args.guard.allowed(),
    })
}

/// The transition, with each retry shown to the operator; a lock timeout
/// names the session that holds the locks.
pub fn execute(client: &mut Session, request: &Request) -> Result<Outcome> {
    transition::execute(client, request, &mut |retry| ui::note(retry))
        .map_err(|err| name_lock_holders(client, request, err))
}

/// `db::transition` turns a lock timeout into its conflict sentence
/// ("another transaction holds deployment …"); add who that is, from
/// pg_stat_activity, when it can be found.
fn name_lock_holders(client: &mut Session, request: &Request, err: anyhow::Error) -> anyhow::Error {
    let lock_timeout = exit::code_for(&err) == ExitCode::Conflict
        && err
            .to_string()
            .starts_with("another transaction holds deployment");
    if !lock_timeout {
        return err;
    }
    match crate::db::locks::holders(client, &request.schema) {
        Ok(holders) if !holders.is_empty() => exit::conflict(format!(
            "{err}. {}",
            ui::fail_safely::lock_holders_text(&holders)
        )),
        _ => err,
    }
}

/// A word in a shell command line, quoted when it needs to be.
fn shell_word(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.:/@%+=,".contains(c))
    {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

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
        let mut command = format!(
            "pushleft-controller fail-safely {} --reason {} --yes --expect-path {} --expect-fingerprint {}",
            outcome.deployment_id,
            shell_word(&request.reason),
            outcome.path.as_str(),
            outcome.fingerprint.as_deref().unwrap_or("-"),
        );
        if let Some(key) = &args.idempotency_key {
            command.push_str(&format!(" --idempotency-key {}", shell_word(key)));
        }
        if let Some(role) = &args.role {
            command.push_str(&format!(" --role {}", shell_word(role)));
        }
        outcome.next_command = command;
    }
    if outcome.replayed {
        let now = super::diagnose::diagnose(
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

/// Without a terminal, and without --yes, nobody can confirm: refuse
/// before touching the database.
pub fn refuse_without_terminal(args: &FailSafelyArgs) -> Result<bool> {
    let terminal = std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
    if !args.dry_run && !args.yes && !terminal {
        return Err(exit::refused(
            "no terminal to confirm on: rerun with --yes (and --expect-path / --expect-fingerprint from diagnose) to run unattended; nothing was written",
        ));
    }
    Ok(terminal)
}

pub fn run(ctx: &Context, args: &FailSafelyArgs) -> Result<ExitCode> {
    let deployment = match (&args.from, &args.deployment) {
        (Some(from), _) => return super::batch::run(ctx, args, from),
        (None, Some(deployment)) => deployment,
        (None, None) => return Err(exit::usage("give a deployment id, or --from FILE")),
    };
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
    super::print(ctx, &outcome, || {
        ui::fail_safely::outcome_text(&ctx.output, &outcome)
    })?;
    Ok(ExitCode::Done)
}
