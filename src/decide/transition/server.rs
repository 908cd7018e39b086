//! A server or a database unfit for fail-safely's write (steps 1, 2 and 5
//! of pushleft-controller-fail-safely(1), STEP BY STEP): a standby, a read-only default
//! somebody set on purpose, statistics the guard cannot count with, and a
//! database the schema check cannot vouch for. Each is a refusal (exit 4)
//! that names what was found and what to do.

use anyhow::Result;
use uuid::Uuid;

use crate::decide::guard::WriteSet;
use crate::exit;

/// A server setting in force in the transaction.
#[derive(Debug, Clone)]
pub struct Setting<'a> {
    pub value: &'a str,
    /// `pg_settings.source` (`session`, `database`, `user` …).
    pub source: &'a str,
    /// Where it was set, in words (`for this database (ALTER DATABASE ...
    /// SET)`).
    pub set: String,
}

/// The settings the write depends on, as step 1 found them in force
/// (`None`: the server did not report it).
#[derive(Debug, Clone, Default)]
pub struct Settings<'a> {
    pub default_transaction_read_only: Option<Setting<'a>>,
    pub track_counts: Option<Setting<'a>>,
}

/// Step 2: refuses a server whose settings make the write wrong or
/// unprovable. A read-only default set in a session (another client of a
/// pool left it) is nobody's intent for this transaction, which states
/// READ WRITE itself; one set for the server, the database, the role or in
/// the connection's options is, and is honoured.
pub fn fit_to_write(settings: &Settings) -> Result<()> {
    if let Some(read_only) = &settings.default_transaction_read_only
        && read_only.value == "on"
        && read_only.source != "session"
    {
        return Err(exit::refused(format!(
            "new transactions on this database are read-only by default \
             (default_transaction_read_only = on, set {}): somebody made this control plane \
             read-only on purpose (a freeze, a migration, a drill), and fail-safely does not \
             override that. Nothing was written. If writes are meant to be allowed again, \
             reset the setting where it was set (e.g. ALTER DATABASE ... RESET \
             default_transaction_read_only) and rerun",
            read_only.set
        )));
    }
    if let Some(counts) = &settings.track_counts
        && counts.value != "on"
    {
        return Err(exit::refused(format!(
            "track_counts is off (set {}): the guard proves that the transaction changed one \
             deployments row and one deployment_events row and nothing else by the \
             per-transaction tuple counters, which PostgreSQL keeps only with track_counts on, \
             so fail-safely cannot prove its write and refuses. Nothing was written. Turn \
             track_counts back on (it is on by default) and rerun",
            counts.set
        )));
    }
    Ok(())
}

/// How a standby's refusal begins: its headline, first whatever wraps it
/// (`is_on_standby`).
pub const ON_STANDBY: &str = "this is a standby (read-only replica)";

/// Step 1 on a standby: it cannot take the write. `primary`: where the
/// standby says it replicates from (host and port only: primary_conninfo
/// can hold a password), when it says. The headline says standby first
/// (README, "Connecting"): every later word follows from it.
pub fn on_standby(primary: Option<&str>) -> anyhow::Error {
    let primary = primary
        .map(|p| format!(" ({p}, from this standby's primary_conninfo)"))
        .unwrap_or_default();
    exit::refused(format!(
        "{ON_STANDBY} of the primary{primary}: writes go to the primary, so fail-safely must \
         run against the primary. Point DATABASE_URL at the primary's host, or connect with \
         target_session_attrs=read-write (a multi-host DATABASE_URL then finds the primary), \
         and rerun; nothing was written"
    ))
}

/// Whether `err` is, or wraps, a standby's refusal: then it is the
/// headline, not what a later step made of it.
pub fn is_on_standby(err: &anyhow::Error) -> bool {
    err.chain()
        .any(|cause| cause.to_string().starts_with(ON_STANDBY))
}

/// What step 4's schema check found that stands in the way of the write.
#[derive(Debug, Clone, Default)]
pub struct SchemaFound<'a> {
    /// Missing tables, columns or keys, foreign keys, protecting triggers,
    /// and what the inventory found, one sentence each.
    pub problems: Vec<&'a str>,
    /// Triggers and rules on the written tables nobody vouches for.
    pub unvouched: &'a [String],
}

/// Step 5: nothing in the database can act behind the guard's back. A
/// database the check found anything in is refused, naming every reason.
pub fn safe_to_write(id: Uuid, found: &SchemaFound) -> Result<()> {
    if found.problems.is_empty() && found.unvouched.is_empty() {
        return Ok(());
    }
    let mut lines: Vec<String> = found.problems.iter().map(|p| p.to_string()).collect();
    lines.extend(found.unvouched.iter().map(|what| {
        format!(
            "{what}: fail-safely cannot vouch for it. It would run inside the transaction, as \
             its user, where a trigger can TRUNCATE, run DDL or reach another database unseen \
             by the guard. If it is part of your control plane and safe, list it in \
             PUSHLEFT_ALLOWED_TRIGGERS (or --allowed-triggers)"
        )
    }));
    Err(exit::refused(format!(
        "fail-safely refuses to write to deployment {id}: this database does not look like the \
         one fail-safely is built for, and nothing was written (none of the code below ran):\n  {}\n\
         Run `pushleft-controller doctor` for the full check",
        lines.join("\n  ")
    )))
}

/// Step 4's write set must hold both written tables (when the schema check
/// found them: otherwise step 5 says why).
pub fn write_set_complete(set: &WriteSet) -> Result<()> {
    if set.deployments.is_empty() || set.events.is_empty() {
        return Err(exit::refused(
            "deployments or deployment_events is missing; nothing was written",
        ));
    }
    Ok(())
}

#[cfg(test)]
#[path = "server_tests.rs"]
mod tests;
