//! `fail-safely --apply FILE` (README, "Two-person break-glass"): a plan
//! made with `--plan-out`, applied only on the cluster and database it was
//! made on (4 otherwise), before it expires (4), by someone else when the
//! two-person rule is on (4); every deployment checked against the plan's
//! path and fingerprint before anything is written (5 when one changed),
//! the plan shown with who asked and when, the count (or the id) typed or
//! `--yes`, then each deployment in its own guarded transaction held to the
//! plan, paced by `--rate`. A rerun replays what was done.

use std::path::Path;

use anyhow::Result;

use super::batch::{Done, finish, run_each, wait_for_written};
use super::pace::Pace;
use super::request::{Connected, connect, execute, me, refuse_without_terminal};
use crate::cli::FailSafelyArgs;
use crate::db::approvals::Application;
use crate::db::session::Session;
use crate::db::transition::Request;
use crate::decide::approval;
use crate::decide::transition::server;
use crate::exit;
use crate::model::approvals::Approvals;
use crate::model::batch::{BatchItem, BatchReport};
use crate::model::next::{NextCommand, Subcommand};
use crate::model::plan::Plan;
use crate::model::target::{ServerRole, WriteTarget};
use crate::ops::Context;
use crate::ui;

/// The plan in `file`, checked against this database and applied (see
/// above); the batch's report, once every transaction ended.
pub fn apply(ctx: &Context, args: &FailSafelyArgs, file: &Path) -> Result<BatchReport> {
    let plan = read(ctx, file, args.max)?;
    let terminal = refuse_without_terminal(args)?;
    let mut connected = connect(ctx, args.lock_timeout)?;
    let plan = held(&mut connected, plan, args)?;
    let Connected {
        session: mut client,
        target,
        approvals,
        ..
    } = connected;
    let requests = requests(ctx, args, &plan, &target, &approvals)?;
    let replays = check_each(&mut client, &requests)?;
    let to_write = replays.iter().filter(|replay| !**replay).count();
    if !args.yes && to_write > 0 {
        confirm(ctx, &plan, &target, to_write)?;
    }
    let mut pace = Pace::at(args.rate);
    let items = apply_each(&mut client, &requests, terminal, (&mut pace, &replays));
    let done = Done {
        dry_run: false,
        target: Some(target),
        plan_id: Some(plan.plan_id),
        rate: pace.kept(),
        next_command: next_command(args, file, &items),
    };
    Ok(finish(items, done))
}

/// After an apply that did not finish (not run, failed, in doubt), the
/// same apply again (it replays what was applied); else `wait` for what
/// was written.
fn next_command(args: &FailSafelyArgs, file: &Path, items: &[BatchItem]) -> Option<NextCommand> {
    if !crate::model::batch::unfinished(items) {
        return wait_for_written(items);
    }
    let next = NextCommand::new(Subcommand::FailSafely).option("--apply", file.display());
    Some(match &args.role {
        Some(role) => next.option("--role", role),
        None => next,
    })
}

/// The plan to apply (the server's copy where the database records
/// plans), refused (4) unless it is for this database, still valid and
/// allowed here; after a failover, says where it was made.
fn held(connected: &mut Connected, plan: Plan, args: &FailSafelyArgs) -> Result<Plan> {
    // A standby takes no plan: say so before anything about the plan
    // (README, "Connecting").
    if connected.target.role == ServerRole::Standby {
        return Err(crate::db::transition::refuse_on_standby(
            &mut connected.session,
        ));
    }
    let (approvals, target) = (&connected.approvals, &connected.target);
    let (plan, now) = server_copy(&mut connected.session, approvals, plan, connected.now)?;
    approval::check_target(&plan.target, target)?;
    approval::check_expiry(plan.expires_at, now)?;
    approval::check_alone_allowed(approvals, args.break_glass_alone)?;
    if !plan.target.same_server(target) {
        ui::output::warn(&format!(
            "note: this plan was made {}; it is applied {}: the same cluster and database (after \
             a failover, the promoted standby)",
            crate::ui::target::describe(&plan.target),
            crate::ui::target::describe(target)
        ));
    }
    Ok(plan)
}

/// Each deployment in its own guarded transaction, paced (but not those
/// the check found already applied: a replay is not paced), with a
/// progress bar on a terminal. Ctrl-C between two deployments (or during
/// the pace's wait) ends the batch there, with the report of what was
/// written.
fn apply_each(
    client: &mut Session,
    requests: &[Request],
    terminal: bool,
    paced: (&mut Pace, &[bool]),
) -> Vec<BatchItem> {
    let _deferred = crate::interrupt::deferred();
    let bar = ui::batch::progress(terminal, requests.len());
    let items = run_each(client, requests, false, false, bar.as_ref(), paced);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    items
}

/// The plan in `file`, of a format this version reads, within the
/// limits of `plan_file` and `--max`.
fn read(ctx: &Context, file: &Path, max: usize) -> Result<Plan> {
    if ctx.output.markdown() {
        return Err(exit::usage(
            "--output markdown is for the plan (--plan-out); --apply reports as table or json",
        ));
    }
    super::plan_file::read(file, max)
}

/// One request per planned deployment, the approval in each audit (or
/// the two-person rule's refusal).
fn requests(
    ctx: &Context,
    args: &FailSafelyArgs,
    plan: &Plan,
    target: &WriteTarget,
    approvals: &Approvals,
) -> Result<Vec<Request>> {
    let audit = crate::db::transition::Audit::of_this_process();
    let approval = approval::approve(
        Some(plan.plan_id.clone()),
        &plan.requester,
        &me(&audit, target),
        args.require_approval || approvals.requires_approval(),
        args.break_glass_alone,
    )?;
    let application = approvals.installed.then(|| Application {
        plan_id: Some(plan.plan_id.clone()),
        approver_os_user: audit.os_user.clone(),
        break_glass_alone: args.break_glass_alone,
    });
    plan.deployments
        .iter()
        .map(|d| {
            let mut request = args.apply_request(&ctx.global, plan, d, &approval)?;
            request.audit.application = application.clone();
            Ok(request)
        })
        .collect()
}

/// The plan to apply, with the server's now(): on a database that
/// records plans, the server's copy, refused (4) when the file differs
/// from it, when it is not recorded here, or when the file claims no
/// record; elsewhere the file, refused (4) when its id is not its
/// content's hash (README, "Two-person break-glass").
fn server_copy(
    client: &mut Session,
    approvals: &Approvals,
    plan: Plan,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<(Plan, chrono::DateTime<chrono::Utc>)> {
    if !approvals.installed {
        if plan.record.is_some() {
            return Err(exit::refused(format!(
                "plan {} was recorded by the server it was made on (pushleft_approvals), and \
                 this database records no plans: it is not that database. Nothing was written. \
                 Connect to the plan's database",
                ui::sanitize::visible(&plan.plan_id)
            )));
        }
        approval::check_file_id(&plan)?;
        return Ok((plan, now));
    }
    if plan.record.is_none() {
        return Err(exit::refused(
            "this database records plans (approvals install), and this plan file names no \
             record: it was made elsewhere, before the install, or its record was taken out. \
             Nothing was written. Make the plan again here with --plan-out",
        ));
    }
    let Some(stored) = crate::db::approvals::read_plan(client, &plan.plan_id)? else {
        return Err(exit::refused(format!(
            "plan {} is not recorded in this database: nothing was written. A plan is applied \
             only on the database that recorded it; make a new plan here",
            ui::sanitize::visible(&plan.plan_id)
        )));
    };
    approval::check_unchanged(&plan, &stored)?;
    let copy = approval::stored_plan(&stored)?;
    Ok((copy, stored.now))
}

/// Every deployment under its locks, held to the plan (rolled back):
/// the first that no longer holds refuses the whole plan before anything
/// is written. Returns, in order, which are replays of an earlier apply
/// (the others are still to write).
fn check_each(client: &mut Session, requests: &[Request]) -> Result<Vec<bool>> {
    let mut replays = Vec::with_capacity(requests.len());
    for request in requests {
        let dry = Request {
            dry_run: true,
            ..request.clone()
        };
        let outcome = match execute(client, &dry) {
            Ok(outcome) => outcome,
            // A standby holds no plan at all: its refusal is the headline.
            Err(err) if server::is_on_standby(&err) => return Err(err),
            Err(err) => {
                return Err(err.context(format!(
                    "the plan no longer holds for deployment {}: nothing was written",
                    request.deployment
                )));
            }
        };
        replays.push(outcome.replayed);
    }
    Ok(replays)
}

/// Shows the plan with who asked and when, and asks for the id (one
/// deployment) or the count; every check's transaction has been rolled
/// back by then, so the prompt holds no lock and no transaction.
fn confirm(ctx: &Context, plan: &Plan, target: &WriteTarget, to_write: usize) -> Result<()> {
    let now = chrono::Utc::now();
    ui::note(&ui::plan::apply_text(&ctx.output, plan, target, now));
    match plan.deployments.as_slice() {
        [one] => ui::prompt::confirm_deployment(one.deployment_id, one.stuck, target),
        _ => ui::prompt::confirm_count(to_write, target),
    }
}
