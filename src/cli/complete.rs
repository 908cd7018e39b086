//! Completion of what is in the database (README, "Shell completions and
//! man pages"): deployment ids (stuck ones first, the status as the
//! description), node names, pools, and the connection services of the
//! service files. The committed scripts ask the binary itself
//! (`COMPLETE=bash pushleft-controller -- …`, clap_complete's dynamic
//! completion); the database is read once per Tab, briefly, and silently
//! gives nothing when it cannot be.

use clap::Command;
use clap_complete::engine::{ArgValueCandidates, CompletionCandidate};

use crate::db::complete::{Candidate, candidates};
use crate::db::sql::Schema;

/// The environment variable the completion scripts set.
pub const VAR: &str = "COMPLETE";

/// Adds the candidates to the arguments that name something in the
/// database.
pub fn attach(cmd: Command) -> Command {
    let deployment = || ArgValueCandidates::new(|| offer("deployment"));
    let node = || ArgValueCandidates::new(|| offer("node"));
    let pool = || ArgValueCandidates::new(|| offer("pool"));
    cmd.mut_arg("service", |a| a.add(ArgValueCandidates::new(services)))
        .mut_subcommand("diagnose", |c| {
            c.mut_arg("deployment", |a| a.add(deployment()))
        })
        .mut_subcommand("wait", |c| {
            c.mut_arg("deployments", |a| a.add(deployment()))
        })
        .mut_subcommand("fail-safely", |c| {
            c.mut_arg("deployment", |a| a.add(deployment()))
        })
        .mut_subcommand("history", |c| {
            c.mut_arg("deployment_id", |a| a.add(deployment()))
                .mut_arg("deployment", |a| a.add(deployment()))
        })
        .mut_subcommand("stuck", |c| {
            c.mut_arg("node", |a| a.add(node()))
                .mut_arg("pool", |a| a.add(pool()))
        })
        .mut_subcommand("fleet", |c| {
            c.mut_subcommand("list", |l| l.mut_arg("pool", |a| a.add(pool())))
        })
}

/// The database's candidates of `kind`, in the order the query gives them.
fn offer(kind: &str) -> Vec<CompletionCandidate> {
    let line: Vec<String> = std::env::args().collect();
    let schema = flag(&line, "--schema")
        .or_else(|| std::env::var("PUSHLEFT_SCHEMA").ok())
        .and_then(|s| Schema::parse(&s).ok())
        .unwrap_or_else(Schema::public);
    let url = flag(&line, "--database-url")
        .or_else(|| std::env::var("DATABASE_URL").ok().filter(|v| !v.is_empty()));
    candidates(url, flag(&line, "--service"), &schema)
        .into_iter()
        .filter(|c| c.kind == kind)
        .enumerate()
        .map(|(i, Candidate { value, help, .. })| {
            CompletionCandidate::new(value)
                .help(Some(help.into()))
                .display_order(Some(i))
        })
        .collect()
}

/// The value of `--name VALUE` or `--name=VALUE` on the line completed.
fn flag(line: &[String], name: &str) -> Option<String> {
    line.iter().enumerate().find_map(|(i, arg)| {
        if arg == name {
            line.get(i + 1).cloned()
        } else {
            arg.strip_prefix(name)
                .and_then(|rest| rest.strip_prefix('='))
                .map(str::to_string)
        }
    })
}

/// The connection services the service files define.
fn services() -> Vec<CompletionCandidate> {
    crate::db::connect::service_names()
        .unwrap_or_default()
        .into_iter()
        .map(CompletionCandidate::new)
        .collect()
}

mod quote;
pub mod shells;

#[cfg(test)]
mod tests;
