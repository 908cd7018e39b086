//! `wait` for several deployments (`wait A B C`, `wait --from FILE`): all
//! followed together in one session, each look one read-only snapshot per
//! deployment still outstanding, a line for each as it is done, and the
//! most serious exit code among them (README, "A big incident").

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use anyhow::Result;

use crate::cli::WaitArgs;
use crate::db::session::Session;
use crate::decide::batch::batch_code;
use crate::decide::{self, Policy, Progress, ProgressState};
use crate::exit::{self, ExitCode};
use crate::model::wait::{WaitAll, WaitItem, WaitResult};
use crate::ops::{Context, assess, batch_file};
use crate::ui;

/// What several deployments' wait found: the report, and the exit code
/// (the most serious among them).
pub struct AllFollowed {
    pub report: WaitAll,
    pub code: ExitCode,
}

/// Several deployments (`wait A B C`, `wait --from FILE`), followed
/// together until all are done or `--timeout`.
pub fn all(ctx: &Context, args: &WaitArgs) -> Result<AllFollowed> {
    let ids = deployments(args)?;
    if let Some(region) = ctx.region() {
        ctx.output
            .note(&format!("region {region} (connection service)"));
    }
    let mut session = ctx.connect(Duration::from_secs(5))?;
    let items = follow_all(ctx, &mut session, args, &ids);
    let code = batch_code(items.iter().map(|item| item.exit_code));
    let report = WaitAll {
        verified: items
            .iter()
            .filter(|i| i.result == WaitResult::Verified)
            .count(),
        total: items.len(),
        exit_code: code.as_i32(),
        deployments: items,
        at: chrono::Utc::now(),
    };
    Ok(AllFollowed { report, code })
}

/// The ids given, or those of `--from`, each checked before connecting.
fn deployments(args: &WaitArgs) -> Result<Vec<String>> {
    let ids = match &args.from {
        Some(from) => batch_file::ids(from)?,
        None => args.deployments.clone(),
    };
    if ids.is_empty() {
        return Err(exit::usage(
            "the list names no deployment: give ids, or --from a file of them",
        ));
    }
    for id in &ids {
        crate::db::deployment_id::parse(id)?;
    }
    Ok(ids)
}

/// Looks at every deployment still outstanding every `--interval` until
/// all are done or `--timeout`; the items in the order given.
fn follow_all(
    ctx: &Context,
    session: &mut Session,
    args: &WaitArgs,
    ids: &[String],
) -> Vec<WaitItem> {
    let policy = args.staleness.policy();
    let started = Instant::now();
    let bar = ui::wait::batch_bar(std::io::stderr().is_terminal(), ids.len());
    let mut outstanding: Vec<Outstanding> = ids.iter().map(|id| Outstanding::new(id)).collect();
    let mut warned = Vec::new();
    loop {
        for one in outstanding.iter_mut().filter(|o| o.done.is_none()) {
            if crate::interrupt::interrupted() {
                break;
            }
            one.look(ctx, session, &policy, started);
            if let Some(item) = &mut one.done {
                item.shown = bar.done(&ui::wait::item_line(item, ctx.output.width));
            }
        }
        warn_dead_nodes(&bar, ctx.output.width, &outstanding, &mut warned);
        if !args.wait_for_node {
            all_blocked(&mut outstanding, started.elapsed());
        }
        let waiting = outstanding.iter().any(|o| o.done.is_none());
        if !waiting || crate::interrupt::interrupted() || started.elapsed() >= args.timeout {
            break;
        }
        let remaining = args.timeout.saturating_sub(started.elapsed());
        std::thread::sleep(args.interval.min(remaining));
    }
    bar.finish();
    let elapsed = started.elapsed();
    outstanding
        .into_iter()
        .map(|one| one.finish(elapsed))
        .collect()
}

/// Each dead node the outstanding deployments wait for, once: how many
/// wait for it, above the bar as soon as it is seen.
fn warn_dead_nodes(
    bar: &ui::wait::BatchBar,
    width: usize,
    outstanding: &[Outstanding],
    warned: &mut Vec<String>,
) {
    let waiting = outstanding.iter().filter(|o| o.done.is_none());
    let lasts: Vec<&Progress> = waiting.filter_map(|o| o.last.as_ref()).collect();
    for cause in ui::wait::dead_node_causes(&lasts) {
        if !warned.contains(&cause.node) {
            bar.note(&ui::wait::dead_node_warning(&cause, width));
            warned.push(cause.node);
        }
    }
}

/// When everything still outstanding waits for dead nodes, waiting longer
/// changes nothing until they return: each is done, blocked (exit 7).
fn all_blocked(outstanding: &mut [Outstanding], at: Duration) {
    let mut left = outstanding.iter().filter(|o| o.done.is_none()).peekable();
    let blocked = |o: &Outstanding| {
        o.last
            .as_ref()
            .is_some_and(|p| p.state == ProgressState::BlockedOnDeadNode)
    };
    if left.peek().is_none() || !left.all(blocked) {
        return;
    }
    for one in outstanding.iter_mut().filter(|o| o.done.is_none()) {
        let item = one.item(
            WaitResult::BlockedOnDeadNode,
            ExitCode::WaitBlocked,
            None,
            at,
        );
        one.done = Some(item);
    }
}

/// One deployment being followed: its id (resolved after the first look),
/// its last progress, and its item once done.
struct Outstanding {
    given: String,
    id: String,
    last: Option<Progress>,
    done: Option<WaitItem>,
}

impl Outstanding {
    fn new(given: &str) -> Outstanding {
        Outstanding {
            given: given.to_string(),
            id: given.to_string(),
            last: None,
            done: None,
        }
    }

    fn item(
        &self,
        result: WaitResult,
        code: ExitCode,
        error: Option<String>,
        at: Duration,
    ) -> WaitItem {
        WaitItem {
            deployment: self.given.clone(),
            result,
            progress: self.last.clone(),
            elapsed_seconds: at.as_secs(),
            error,
            exit_code: code,
            shown: false,
        }
    }

    /// One look: verified, nothing to wait for, failed to read, or still
    /// waiting.
    fn look(&mut self, ctx: &Context, session: &mut Session, policy: &Policy, started: Instant) {
        let at = started.elapsed();
        let d = match assess::assess(session, ctx.schema(), &self.id, Some(1), policy) {
            Ok(d) => d,
            Err(err) => {
                let code = exit::code_for(&err);
                let text = format!("{:#}", super::lost_track(err, &self.id));
                self.done = Some(self.item(WaitResult::Failed, code, Some(text), at));
                return;
            }
        };
        // Resolve a prefix once; later looks use the full id.
        self.id = d.snapshot.deployment.id.to_string();
        let progress = decide::progress(&d.snapshot, policy);
        let nothing = progress.nothing_to_wait_for();
        let verified = progress.verified;
        let why = nothing.then(|| ui::wait::nothing_to_wait_for_text(&progress));
        self.last = Some(progress);
        if nothing {
            self.done = Some(self.item(WaitResult::NothingToWaitFor, ExitCode::Refused, why, at));
        } else if verified {
            self.done = Some(self.item(WaitResult::Verified, ExitCode::Done, None, at));
        }
    }

    /// Its item: as done, or timed out (interrupted) with its last look.
    fn finish(self, elapsed: Duration) -> WaitItem {
        if let Some(item) = self.done {
            return item;
        }
        let (result, code) = if crate::interrupt::interrupted() {
            (WaitResult::Interrupted, crate::exit::signal_code())
        } else {
            (WaitResult::TimedOut, ExitCode::WaitTimedOut)
        };
        self.item(result, code, None, elapsed)
    }
}
