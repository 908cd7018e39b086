//! What the single and the batch run share: the request made of the
//! arguments for one deployment, the transition run with its retries shown
//! and lock holders named, and the refusal without a terminal.

use std::io::IsTerminal;

use crate::db::session::Session;
use anyhow::Result;

use crate::cli::FailSafelyArgs;
use crate::db::transition::{self, Outcome, Request};
use crate::db_failure::DbFailure;
use crate::exit::{self, ExitCode};
use crate::ui;

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
    if exit::db_failure(&err) != Some(DbFailure::LockTimeout) {
        return err;
    }
    match crate::db::locks::holders(client, &request.schema) {
        Ok(holders) if !holders.is_empty() => exit::explained(
            DbFailure::LockTimeout,
            ExitCode::Conflict,
            format!("{err}. {}", ui::fail_safely::lock_holders_text(&holders)),
        ),
        _ => err,
    }
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
