//! What the single and the batch run share: the request made of the
//! arguments for one deployment, the transition run with its retries shown
//! and lock holders named, and the refusal without a terminal.

use std::time::Duration;

use crate::db::session::Session;
use anyhow::Result;
use chrono::{DateTime, Utc};

use crate::cli::FailSafelyArgs;
use crate::db::approvals::Application;
use crate::db::transition::Audit;
use crate::db::transition::{self, Outcome, Request};
use crate::decide::approval;
use crate::exit;
use crate::model::approvals::Approvals;
use crate::model::plan::{Approval, Person};
use crate::model::target::WriteTarget;
use crate::ops::Context;
use crate::ui;

/// A session for a write: where it lands, the server's now() and, on a
/// database that records plans, its policy.
pub struct Connected {
    pub session: Session,
    pub target: WriteTarget,
    pub now: DateTime<Utc>,
    pub approvals: Approvals,
}

/// Connects for a write and reads, once for the session, where it lands
/// (`db::target`), with the server's now(); the policy only where the
/// database records plans (one more read there).
pub fn connect(ctx: &Context, lock_timeout: Duration) -> Result<Connected> {
    let (mut session, reached) = ctx.connect_reporting(lock_timeout)?;
    let (target, now, installed) = crate::db::target::read(&mut session, &reached, ctx.region())?;
    let approvals = if installed {
        crate::db::approvals::state(&mut session, &ctx.global.schema)?
    } else {
        Approvals::default()
    };
    Ok(Connected {
        session,
        target,
        now,
        approvals,
    })
}

/// This process on `target`, as the two-person rule compares people: its
/// OS user and the session_user the server gives it.
pub fn me(audit: &Audit, target: &WriteTarget) -> Person {
    Person {
        os_user: audit.os_user.clone(),
        session_user: target.user.clone(),
        host: audit.host.clone(),
        tool: audit.tool.clone(),
    }
}

/// Connects for the requests of a write without a plan; with
/// `--break-glass-alone` their audit says that nobody else approved them.
///
/// Where the database records plans, its policy is the rule (the
/// environment may only tighten it): a write without a plan is refused
/// unless it allows one alone, and every write records its application,
/// self-approved, in its transaction (the database refuses it otherwise).
/// (`history --self-approved` lists every write without a plan.)
pub fn connect_for(
    ctx: &Context,
    args: &FailSafelyArgs,
    requests: &mut [Request],
) -> Result<(Session, WriteTarget)> {
    let lock_timeout = requests.first().map(|r| r.lock_timeout).unwrap_or_default();
    let Connected {
        session,
        target,
        approvals,
        ..
    } = connect(ctx, lock_timeout)?;
    let writes = requests.iter().any(|r| !r.dry_run);
    approval::check_direct_write(
        args.require_approval || approvals.requires_approval(),
        writes,
        args.break_glass_alone,
    )?;
    approval::check_alone_allowed(&approvals, args.break_glass_alone)?;
    for request in requests.iter_mut().filter(|r| !r.dry_run) {
        if args.break_glass_alone {
            let me = me(&request.audit, &target);
            request.audit.approval = Some(Approval {
                plan_id: None,
                requester: me.clone(),
                approver: me,
                self_approved: true,
                break_glass_alone: true,
            });
        }
        if approvals.installed {
            request.audit.application = Some(Application {
                plan_id: None,
                approver_os_user: request.audit.os_user.clone(),
                break_glass_alone: args.break_glass_alone,
            });
        }
    }
    Ok((session, target))
}

/// The transition, with each retry shown to the operator; a lock timeout
/// names the session that holds the locks.
pub fn execute(client: &mut Session, request: &Request) -> Result<Outcome> {
    transition::execute(client, request, &mut |retry| ui::note(retry))
        .map_err(|err| name_lock_holders(client, request, err))
}

/// `db::transition` turns a lock timeout into its conflict sentence
/// ("another transaction holds deployment …"); the explainer adds who that
/// is, from pg_stat_activity, when it can be found.
fn name_lock_holders(client: &mut Session, request: &Request, err: anyhow::Error) -> anyhow::Error {
    crate::db::errors::held_by(err, || {
        match crate::db::locks::holders(client, &request.schema) {
            Ok(holders) if !holders.is_empty() => {
                Some(ui::fail_safely::lock_holders_text(&holders))
            }
            _ => None,
        }
    })
}

/// Without a terminal, and without --yes, nobody can confirm: refuse
/// before touching the database. A list on stdin (`--from -`) is no
/// reason: the answer is read from the controlling terminal then
/// (`ui::prompt`). True when the operator can be asked.
pub fn refuse_without_terminal(args: &FailSafelyArgs) -> Result<bool> {
    let asked = !args.dry_run && !args.yes;
    match ui::prompt::terminal_to_confirm_on() {
        Ok(()) => Ok(true),
        Err(_) if !asked => Ok(false),
        Err(no) if args.apply.is_some() => Err(exit::refused(format!(
            "no terminal to confirm on ({}): rerun with --yes to apply the plan unattended (it is held to the plan's paths and fingerprints); nothing was written",
            no.why()
        ))),
        Err(no) => Err(exit::refused(format!(
            "no terminal to confirm on ({}): rerun with --yes (and --expect-path / --expect-fingerprint from diagnose) to run unattended; nothing was written",
            no.why()
        ))),
    }
}
