//! `doctor`'s checks: can I connect, as whom, to a primary or a standby,
//! with the schema, the foreign keys and the protecting triggers this tool
//! expects, no trigger on the written tables it cannot vouch for, and with
//! which session settings?
//!
//! Each check is one line, `ok`, `warn` or `fail`. What the checks judge is
//! read in one READ ONLY transaction that is rolled back, sent in one flight
//! (README, "Performance"): doctor never writes, and works against a
//! standby. `--role` is tried in a transaction of its own, and a database
//! that records plans has its policy read in one.
//!
//! One file per group of checks: `server.rs` (TLS, the server, primary or
//! standby, who we are), `privileges.rs` (the role, reading and writing),
//! `schema.rs` (the schema check, in doctor's words) and `session.rs` (the
//! session settings in force).

pub use crate::model::doctor::{Check, Report, Status};
use anyhow::{Context, Result};

use super::session::{InForce, Session, Step, Terms};
use super::sql::Schema;
use crate::db::connect::{self, Reached, Settings};
use crate::decide::triggers::AllowedTriggers;

mod approvals;
mod facts;
pub mod indexes;
mod privileges;
mod schema;
mod server;
mod session;

use facts::Facts;
use privileges::{assume_role, read_privileges, write_privileges};
use schema::schema;
use server::{identity, recovery, server, tls};

#[derive(Default)]
struct Checks(Vec<Check>);

impl Checks {
    fn push(&mut self, name: &'static str, status: Status, detail: impl Into<String>) {
        self.0.push(Check {
            name,
            status,
            detail: detail.into(),
        });
    }
}

/// What doctor checks against, beyond the connection.
#[derive(Debug, Clone, Default)]
pub struct Expect {
    /// Where the control plane's tables are (`--schema`).
    pub schema: Schema,
    /// Also check that this role can be assumed (as `fail-safely --role`).
    pub role: Option<String>,
    /// `PUSHLEFT_ALLOWED_TRIGGERS`, as fail-safely would use it.
    pub allowed_triggers: AllowedTriggers,
}

/// Every check, in the documented order.
pub fn run(settings: &Settings, expect: &Expect) -> Report {
    let mut checks = Checks::default();
    checks.push(
        "settings",
        Status::Ok,
        format!(
            "sslmode={}{}, password: {}, connect timeout {:?}",
            settings.ssl_mode(),
            if settings.ssl_mode().verifies() {
                format!(" (roots: {})", settings.root_certs())
            } else {
                String::new()
            },
            settings.password_source(),
            settings.connect_timeout()
        ),
    );
    for warning in settings.warnings() {
        checks.push("password file", Status::Warn, warning.clone());
    }
    let mut reached = None;
    match settings.connect_reporting(connect::DEFAULT_LOCK_TIMEOUT) {
        Err(err) => checks.push("connection", Status::Fail, format!("{err:#}")),
        Ok((mut client, mut to)) => {
            checks.push(
                "connection",
                Status::Ok,
                format!(
                    "connected to {} (database {} as {})",
                    to.describe(),
                    to.database,
                    to.user
                ),
            );
            // Pinned like every transaction of the tool, but what is in
            // force is reported by the session check, not refused here.
            if let Err(err) = in_transaction(&mut client, settings, &mut to, expect, &mut checks) {
                checks.push(
                    "checks",
                    Status::Fail,
                    settings.redact(&format!(
                        "a check could not run: {err:#}. Next step: make sure this user may \
                         read the catalogs and the tables (see the privileges line)"
                    )),
                );
            }
            reached = Some(to);
        }
    }
    Report {
        target: settings.target(),
        described: settings.describe(),
        sslmode: settings.ssl_mode(),
        reached,
        ok: checks.0.iter().all(|c| c.status != Status::Fail),
        checks: checks.0,
    }
}

/// What the checks judge, read in one flight: what is in force, the facts
/// (`sql/doctor/facts.sql`) and the schema check
/// (`sql/schema_check/check.sql`).
struct Read {
    in_force: InForce,
    facts: Facts,
    schema: Vec<postgres::Row>,
}

fn read(session: &mut Session, expect: &Expect) -> Result<Read> {
    let index_names = indexes::expected_indexes(crate::db::sql::scripts::SCHEMA.text)
        .into_iter()
        .map(|index| index.name)
        .collect();
    let steps = vec![
        Facts::step(
            &expect.schema,
            expect.role.as_deref(),
            index_names,
            &session::SHOWN,
        ),
        Step::of(
            &crate::db::sql::schema_check::CHECK,
            &expect.schema,
            Vec::new(),
        ),
    ];
    let mut flight = session
        .flight_unchecked(steps)
        .context("starting a read-only transaction")?;
    let in_force = flight.in_force().clone();
    let facts = flight
        .rows()
        .context("reading the server, the session and the privileges (sql/doctor/facts.sql)")
        .and_then(Facts::from_rows);
    let schema = flight
        .rows()
        .context("checking the schema (sql/schema_check/check.sql)");
    // Nothing to keep: doctor never writes.
    flight.finish().context("rolling back")?;
    Ok(Read {
        in_force,
        facts: facts?,
        schema: schema?,
    })
}

fn in_transaction(
    session: &mut Session,
    settings: &Settings,
    reached: &mut Reached,
    expect: &Expect,
    checks: &mut Checks,
) -> Result<()> {
    let read = read(session, expect)?;
    // Settings that did not take: report them and judge nothing read
    // under them.
    let timeouts = settings.timeouts(connect::DEFAULT_LOCK_TIMEOUT);
    if let Some(why) = read.in_force.mismatch(Terms::Snapshot, &timeouts) {
        let pinned = &read.in_force;
        let shown = ["session_replication_role", "search_path", "jit"]
            .map(|name| format!("{name}={}", pinned.value(name)))
            .join(", ");
        checks.push("session", Status::Fail, format!("{shown}; {why}"));
        return Ok(());
    }
    let facts = &read.facts;
    tls(facts, settings, reached, checks)?;
    server(facts, checks)?;
    recovery(facts, checks)?;
    let (session_user, current_user) = identity(facts, checks)?;
    let (writer, as_role) = match expect.role.as_deref() {
        Some(role) if assume_role(session, &session_user, role, checks)? => {
            (role.to_string(), true)
        }
        _ => (current_user.clone(), false),
    };
    let present = read_privileges(facts, &current_user, checks)?;
    if present.contains(&"deployments") && present.contains(&"deployment_events") {
        write_privileges(facts, &writer, as_role, checks)?;
    }
    schema(read.schema, expect, checks)?;
    approvals::approvals(session, facts, checks)?;
    indexes::indexes(facts, &expect.schema, checks)?;
    session::session(&read.in_force, facts, settings, reached, checks)
}
