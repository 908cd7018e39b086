//! `fail-safely`'s guarded transition (README, "The break-glass decision"
//! and "fail-safely, step by step"), the only place the tool writes.
//!
//! One transaction, with the session hygiene in force: serialize on the
//! idempotency key; make sure nothing in the database can act behind the
//! guard's back (no trigger or rule on the written tables it cannot vouch
//! for, the protecting triggers really refusing, the locking foreign keys
//! in place); lock the deployment, its jobs and its instances; decide from
//! what is read under those locks (`decide::transition`, with the same
//! pure verdict function `diagnose` uses), refusing a deployment that is
//! not stuck unless told;
//! apply the runbook's UPDATE (exactly one row); append the event (sequence
//! = max + 1) with the audit; fire deferred triggers; prove with the
//! per-transaction tuple counters (catalogs included) and the locks held
//! that nothing else changed, and by reading them back that the values are
//! what was written; then COMMIT — or roll back and say why. A replay with
//! the same idempotency key writes nothing and reports the first run's
//! outcome.

mod attempt;
mod errors;
mod first;
mod guard;
mod preconditions;
mod replay;
mod write;

use std::time::Duration;

pub use crate::model::outcome::{EventOut, Outcome};
use anyhow::Result;
pub use preconditions::refuse_on_standby;

use super::session::Session;
use super::sql::Schema;
use crate::decide::Policy;
use crate::decide::transition::Asked;
use crate::decide::triggers::AllowedTriggers;
use crate::exit;
use crate::model::BreakGlassPath;

/// How often the whole transaction is retried on a serialization failure,
/// a deadlock or a (deployment_id, sequence) unique violation.
const MAX_ATTEMPTS: u32 = 5;

/// Everything one run needs, validated.
#[derive(Debug, Clone)]
pub struct Request {
    /// Id or unique prefix.
    pub deployment: String,
    /// Trimmed, validated.
    pub reason: String,
    /// `None`: derived from the deployment and the reason.
    pub idempotency_key: Option<String>,
    pub dry_run: bool,
    pub expect_path: Option<BreakGlassPath>,
    pub expect_fingerprint: Option<String>,
    pub role: Option<String>,
    pub lock_timeout: Duration,
    pub policy: Policy,
    pub audit: Audit,
    /// Where the control plane's tables are.
    pub schema: Schema,
    /// Apply although the deployment is not stuck (recorded in the audit).
    pub even_if_not_stuck: bool,
    /// Triggers and rules on the written tables a team vouches for.
    pub allowed_triggers: AllowedTriggers,
}

impl Request {
    /// What the operator asked, for `decide::transition`'s judgements.
    pub fn asked(&self) -> Asked<'_> {
        Asked {
            reason: &self.reason,
            dry_run: self.dry_run,
            even_if_not_stuck: self.even_if_not_stuck,
            expect_path: self.expect_path,
            expect_fingerprint: self.expect_fingerprint.as_deref(),
        }
    }
}

/// Who runs this, from where, with what.
#[derive(Debug, Clone)]
pub struct Audit {
    pub os_user: String,
    pub host: String,
    pub tool: String,
    /// The region (connection service) named with --service, if any: the
    /// event says which control plane the operator meant.
    pub region: Option<String>,
    /// An applied plan's requester and approver (`--apply`), or a write
    /// under the two-person rule with `--break-glass-alone`.
    pub approval: Option<crate::model::plan::Approval>,
    /// On a database that records plans (README, "Two-person
    /// break-glass"): the application this write records in its own
    /// transaction, before its event (None: a dry run of no plan, or a
    /// database without `approvals install`).
    pub application: Option<crate::db::approvals::Application>,
}

impl Audit {
    pub fn of_this_process() -> Audit {
        Audit {
            os_user: crate::db::connect::os_user(),
            host: nix::unistd::gethostname()
                .ok()
                .and_then(|h| h.into_string().ok())
                .unwrap_or_else(|| "unknown".to_string()),
            tool: crate::db::connect::APPLICATION_NAME.to_string(),
            region: None,
            approval: None,
            application: None,
        }
    }
}

/// Runs the guarded transaction, retrying the whole of it a bounded number
/// of times on conflicts that are safe to retry. `on_retry` hears about each
/// retry (the command shows it to the operator).
pub fn execute(
    session: &mut Session,
    request: &Request,
    on_retry: &mut dyn FnMut(&str),
) -> Result<Outcome> {
    execute_checked(session, request, on_retry).map_err(|err| errors::explain(err, request))
}

fn execute_checked(
    session: &mut Session,
    request: &Request,
    on_retry: &mut dyn FnMut(&str),
) -> Result<Outcome> {
    let mut attempt = 1;
    loop {
        let err = match attempt::attempt_once(session, request) {
            Ok(outcome) => return Ok(outcome),
            Err(err) => err,
        };
        // Ctrl-C during the transaction: whatever else went wrong
        // afterwards (a lock wait running out, say), it was rolled back.
        if crate::interrupt::interrupted() {
            return Err(exit::interrupted(format!(
                "interrupted while working on deployment {}: the transaction was rolled back, nothing was written",
                request.deployment
            )));
        }
        match errors::retryable(&err) {
            Some(code) if attempt < MAX_ATTEMPTS => {
                on_retry(&format!(
                    "conflict ({code}); retrying the whole transaction ({attempt}/{MAX_ATTEMPTS})"
                ));
                attempt += 1;
                std::thread::sleep(Duration::from_millis(20 * u64::from(attempt)));
            }
            _ => return Err(err),
        }
    }
}
