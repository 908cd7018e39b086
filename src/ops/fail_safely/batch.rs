//! `fail-safely --from FILE`: break-glass for a big incident. One plan for
//! every deployment (each planned under its own locks, rolled back), one
//! confirmation (type the number of deployments to write), then each
//! deployment in its own guarded transaction exactly as the single command
//! runs it (with the plan's path and fingerprint required). It stops at the
//! first refusal or error unless --keep-going; a rerun replays what was done
//! (same reason, same idempotency keys) and does the rest.

use std::path::Path;

use crate::db::session::Session;
use anyhow::Result;

use super::pace::Pace;
use super::request::{connect_for, execute, refuse_without_terminal};
use crate::cli::FailSafelyArgs;
use crate::db::transition::Request;
use crate::decide::batch::{BatchResult, batch_code};
use crate::exit::{self, ExitCode};
use crate::model::batch::{BatchItem, BatchReport, BatchSummary, Rate, RateKept};
use crate::model::next::{NextCommand, Subcommand};
use crate::model::target::WriteTarget;
use crate::ops::{Context, batch_file};
use crate::ui;

/// The item for one run of the transition.
pub(super) fn item(
    deployment: &str,
    result: Result<crate::db::transition::Outcome>,
    planned: bool,
) -> BatchItem {
    match result {
        Ok(outcome) => BatchItem {
            deployment: deployment.to_string(),
            result: if outcome.replayed {
                BatchResult::Replayed
            } else if planned || outcome.dry_run {
                BatchResult::Planned
            } else {
                BatchResult::Applied
            },
            exit_code: ExitCode::Done,
            outcome: Some(outcome),
            error: None,
        },
        Err(err) => {
            let code = exit::code_for(&err);
            BatchItem {
                deployment: deployment.to_string(),
                result: if code == ExitCode::Refused {
                    BatchResult::Refused
                } else if exit::is_in_doubt(&err) {
                    BatchResult::InDoubt
                } else {
                    BatchResult::Failed
                },
                exit_code: code,
                outcome: None,
                error: Some(format!("{err:#}")),
            }
        }
    }
}

fn skipped(deployment: &str) -> BatchItem {
    BatchItem {
        deployment: deployment.to_string(),
        result: BatchResult::Skipped,
        exit_code: ExitCode::Done,
        outcome: None,
        error: None,
    }
}

/// Each deployment in its own transaction, in order, exactly as its request
/// says (the caller has made them dry runs for the plan, or given them the
/// plan's path and fingerprint to expect). `planning`: these are the plan's
/// runs, reported as planned, and a refusal does not stop them. Otherwise
/// it stops at the first refusal or error unless `keep_going`; at Ctrl-C
/// always. What was not run is reported as skipped; `bar` advances once
/// per deployment. `replays`: which the plan found already done, in
/// order (none known: empty); those are not paced, nor is any that turns
/// out to replay (`pace`).
pub(super) fn run_each(
    client: &mut Session,
    requests: &[Request],
    keep_going: bool,
    planning: bool,
    bar: Option<&indicatif::ProgressBar>,
    (pace, replays): (&mut Pace, &[bool]),
) -> Vec<BatchItem> {
    let mut items = Vec::with_capacity(requests.len());
    let mut stopped = false;
    for (i, request) in requests.iter().enumerate() {
        let replay_expected = replays.get(i).copied().unwrap_or(false);
        if stopped || crate::interrupt::interrupted() || !pace.wait(replay_expected) {
            items.push(skipped(&request.deployment));
            continue;
        }
        if let Some(bar) = bar {
            bar.set_message(request.deployment.clone());
        }
        let done = item(&request.deployment, execute(client, request), planning);
        pace.ran(done.result == BatchResult::Applied);
        if done.outcome.is_none() && !keep_going && !planning {
            stopped = true;
        }
        if let Some(bar) = bar {
            bar.inc(1);
        }
        items.push(done);
    }
    items
}

/// The batch of `--from`: planned (`--dry-run`), applied unattended
/// (`--yes`), or planned, confirmed once and applied; its report, once
/// every transaction ended.
pub fn fail_all(ctx: &Context, args: &FailSafelyArgs, from: &Path) -> Result<BatchReport> {
    if ctx.output.markdown() {
        return Err(exit::usage(
            "--output markdown is for one deployment; a batch reports as table or json",
        ));
    }
    let mut requests = requests(ctx, args, from)?;
    let terminal = refuse_without_terminal(args)?;
    let (mut client, target) = connect_for(ctx, args, &mut requests)?;
    let mut pace = Pace::unless(args.dry_run, args.rate);
    let items = if args.dry_run || args.yes {
        unattended(&mut client, &requests, args, terminal, &mut pace)
    } else {
        let shown = Shown {
            terminal,
            target: &target,
        };
        confirm_and_apply(ctx, &mut client, &requests, args, shown, &mut pace)?
    };
    let done = Done {
        dry_run: args.dry_run,
        target: Some(target),
        plan_id: None,
        rate: pace.kept(),
        next_command: next_command(args, from, &items),
    };
    Ok(finish(items, done))
}

/// What the confirmation shows the operator: on a terminal, and where.
struct Shown<'a> {
    terminal: bool,
    target: &'a WriteTarget,
}

/// What the batch's report says besides its items.
pub(super) struct Done {
    pub dry_run: bool,
    pub target: Option<WriteTarget>,
    pub plan_id: Option<String>,
    pub rate: Option<RateKept>,
    /// What to run after it (see [`next_command`]).
    pub next_command: Option<NextCommand>,
}

/// The batch's requests, every id and the whole request checked before
/// anything is connected to.
pub(super) fn requests(ctx: &Context, args: &FailSafelyArgs, from: &Path) -> Result<Vec<Request>> {
    let ids = batch_file::ids(from)?;
    if ids.is_empty() {
        return Err(exit::usage(format!(
            "the batch {} names no deployment",
            from.display()
        )));
    }
    if ids.len() > args.max {
        return Err(exit::refused(format!(
            "the batch names {} deployments, more than --max {}: nothing was written. Check the list, then rerun with --max {} if it is right",
            ids.len(),
            args.max,
            ids.len()
        )));
    }
    for id in &ids {
        crate::db::deployment_id::parse(id)?;
    }
    ids.iter().map(|id| args.request(&ctx.global, id)).collect()
}

/// `--dry-run` (the plan) or `--yes` (applied without asking), with a
/// progress bar on a terminal for the writes.
fn unattended(
    client: &mut Session,
    requests: &[Request],
    args: &FailSafelyArgs,
    terminal: bool,
    pace: &mut Pace,
) -> Vec<BatchItem> {
    let _deferred = crate::interrupt::deferred();
    let bar = ui::batch::progress(terminal && !args.dry_run, requests.len());
    let items = run_each(
        client,
        requests,
        args.keep_going,
        args.dry_run,
        bar.as_ref(),
        (pace, &[]),
    );
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    items
}

/// Plan every deployment (dry runs), show the plan, ask once, then apply
/// each with its plan's path and fingerprint required. Each dry run's
/// transaction is rolled back before the next starts: the prompt holds no
/// lock and no transaction.
fn confirm_and_apply(
    ctx: &Context,
    client: &mut Session,
    requests: &[Request],
    args: &FailSafelyArgs,
    shown: Shown<'_>,
    pace: &mut Pace,
) -> Result<Vec<BatchItem>> {
    let dry: Vec<Request> = requests
        .iter()
        .map(|r| Request {
            dry_run: true,
            ..r.clone()
        })
        .collect();
    let plan = run_each(client, &dry, true, true, None, (&mut Pace::none(), &[]));
    ui::note(&ui::batch::plan_text(
        &ctx.output,
        &plan,
        args.keep_going,
        shown.target,
    ));
    let to_write = plan
        .iter()
        .filter(|i| i.outcome.as_ref().is_some_and(|o| !o.replayed))
        .count();
    if to_write > 0 {
        ui::prompt::confirm_count(to_write, shown.target)?;
    }
    let apply: Vec<Request> = requests
        .iter()
        .zip(&plan)
        .map(|(request, planned)| match &planned.outcome {
            Some(o) if !o.replayed => Request {
                expect_path: Some(o.path),
                expect_fingerprint: o.fingerprint.clone(),
                ..request.clone()
            },
            _ => request.clone(),
        })
        .collect();
    // Ctrl-C between two deployments ends the batch there, with the report
    // of what was written, instead of killing it half-way.
    let _deferred = crate::interrupt::deferred();
    let bar = ui::batch::progress(shown.terminal, apply.len());
    let replays: Vec<bool> = plan
        .iter()
        .map(|i| i.outcome.as_ref().is_some_and(|o| o.replayed))
        .collect();
    let paced = (pace, replays.as_slice());
    let items = run_each(client, &apply, args.keep_going, false, bar.as_ref(), paced);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    Ok(items)
}

/// What to run after the batch: after a dry run, the batch for real; after
/// a batch that did not finish (not run, failed, in doubt), the same batch
/// again, which replays what was applied and does the rest; after writes,
/// `wait` for what was written (the same list, or the ids when it came on
/// stdin). None when nothing is left to do.
fn next_command(args: &FailSafelyArgs, from: &Path, items: &[BatchItem]) -> Option<NextCommand> {
    let stdin = from == Path::new("-");
    if args.dry_run {
        let planned = items
            .iter()
            .any(|i| i.outcome.as_ref().is_some_and(|o| !o.replayed));
        return (planned && !stdin).then(|| {
            let next = NextCommand::new(Subcommand::FailSafely).option("--from", from.display());
            match &args.reason {
                Some(reason) => next.option("--reason", reason),
                None => next,
            }
        });
    }
    if crate::model::batch::unfinished(items) {
        // Stopped at a refusal: the rerun would stop there again, so it
        // goes past (the refused stay refused, each named on stderr).
        let refused = items.iter().any(|i| i.result == BatchResult::Refused);
        return Some(rerun(args, from, refused));
    }
    let written = wait_for_written(items)?;
    Some(match stdin {
        true => written,
        false => NextCommand::new(Subcommand::Wait).option("--from", from.display()),
    })
}

/// The same batch command again, with what makes it the same writes (the
/// reason, --idempotency-key, --role) and the same choices (--keep-going,
/// --even-if-not-stuck, --rate); a confirmation is asked again unless
/// --yes is given again. `past_refusals`: add --keep-going.
fn rerun(args: &FailSafelyArgs, from: &Path, past_refusals: bool) -> NextCommand {
    let mut next = NextCommand::new(Subcommand::FailSafely).option("--from", from.display());
    let options = [
        ("--reason", args.reason.clone()),
        ("--idempotency-key", args.idempotency_key.clone()),
        ("--role", args.role.clone()),
        (
            "--rate",
            (args.rate != Rate::DEFAULT).then(|| format!("{}/s", args.rate.per_second)),
        ),
    ];
    for (flag, value) in options {
        if let Some(value) = value {
            next = next.option(flag, value);
        }
    }
    for (flag, given) in [
        ("--keep-going", args.keep_going || past_refusals),
        ("--even-if-not-stuck", args.even_if_not_stuck),
    ] {
        if given {
            next = next.arg(flag);
        }
    }
    next
}

/// `wait` for the deployments the batch applied or replayed, by id; None
/// when there are none.
pub(super) fn wait_for_written(items: &[BatchItem]) -> Option<NextCommand> {
    let written: Vec<_> = items
        .iter()
        .filter_map(|i| i.outcome.as_ref())
        .map(|o| o.deployment_id)
        .collect();
    (!written.is_empty()).then(|| {
        written
            .iter()
            .fold(NextCommand::new(Subcommand::Wait), |next, id| next.arg(id))
    })
}

/// The batch's report: every item, the counts, and the exit code (the
/// most serious among the deployments, or Ctrl-C's).
pub(super) fn finish(items: Vec<BatchItem>, done: Done) -> BatchReport {
    let interrupted = crate::interrupt::interrupted().then(crate::exit::signal_code);
    let code = batch_code(items.iter().map(|i| i.exit_code).chain(interrupted));
    BatchReport {
        dry_run: done.dry_run,
        target: done.target,
        plan_id: done.plan_id,
        rate: done.rate,
        summary: BatchSummary::of(&items),
        next_command: done.next_command,
        outcomes: items,
        exit_code: code,
    }
}
