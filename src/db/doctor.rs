//! `doctor`'s checks: can I connect, as whom, to a primary or a standby,
//! with the schema, the foreign keys and the protecting triggers this tool
//! expects, no trigger on the written tables it cannot vouch for, and with
//! which session settings?
//!
//! Each check is one line, `ok`, `warn` or `fail`. Everything runs in one
//! READ ONLY transaction that is rolled back: doctor never writes, and works
//! against a standby.

use std::time::Duration;

use anyhow::{Context, Result};
use postgres::Transaction;
use serde::Serialize;

use super::session::{Hygiene, SEARCH_PATH, apply_hygiene};
use super::sql::Schema;
use super::{schema_check, sql};
use crate::db::connect::{self, Reached, Settings, SslMode, Target, Transport, Verified};
use crate::decide::triggers::AllowedTriggers;

/// The oldest server the tool is tested against.
const MIN_SERVER_VERSION: i32 = 130_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Ok,
    Warn,
    Fail,
}

#[derive(Debug, Clone, Serialize)]
pub struct Check {
    pub name: &'static str,
    pub status: Status,
    pub detail: String,
}

/// The JSON document (see the man page).
#[derive(Debug, Serialize)]
pub struct Report {
    pub target: Target,
    pub sslmode: SslMode,
    /// The server really reached (`None`: no connection).
    pub reached: Option<Reached>,
    pub checks: Vec<Check>,
    pub ok: bool,
}

impl Report {
    pub fn failed(&self) -> usize {
        self.checks
            .iter()
            .filter(|c| c.status == Status::Fail)
            .count()
    }
}

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
            let result = client
                .build_transaction()
                .read_only(true)
                .start()
                .context("starting a read-only transaction")
                .and_then(|mut tx| {
                    let result = in_transaction(&mut tx, settings, &mut to, expect, &mut checks);
                    // Nothing to keep: doctor never writes.
                    let rolled_back = tx.rollback().context("rolling back");
                    result.and(rolled_back)
                });
            if let Err(err) = result {
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
        sslmode: settings.ssl_mode(),
        reached,
        ok: checks.0.iter().all(|c| c.status != Status::Fail),
        checks: checks.0,
    }
}

fn in_transaction(
    tx: &mut Transaction<'_>,
    settings: &Settings,
    reached: &mut Reached,
    expect: &Expect,
    checks: &mut Checks,
) -> Result<()> {
    // The same hygiene as every transaction of the tool; what it finds is
    // reported by the session check, not refused here.
    let hygiene = apply_hygiene(tx)?;
    tls(tx, settings, reached, checks)?;
    server(tx, checks)?;
    recovery(tx, checks)?;
    let (session_user, current_user) = identity(tx, checks)?;
    let writer = match expect.role.as_deref() {
        Some(role) if assume_role(tx, &session_user, role, checks)? => role.to_string(),
        _ => current_user.clone(),
    };
    let present = read_privileges(tx, &expect.schema, &current_user, checks)?;
    if present.contains(&"deployments") && present.contains(&"deployment_events") {
        write_privileges(tx, &expect.schema, &writer, checks)?;
    }
    schema(tx, expect, checks)?;
    session(tx, settings, &hygiene, checks)
}

/// TLS on the session reached: the server's view, and how the certificate was checked.
fn tls(
    tx: &mut Transaction<'_>,
    settings: &Settings,
    reached: &mut Reached,
    checks: &mut Checks,
) -> Result<()> {
    let row = tx.query_one(sql::doctor::TLS.text, &[])?;
    let (ssl, version, cipher): (bool, String, String) =
        (row.get("ssl"), row.get("version"), row.get("cipher"));
    reached.tls_version = ssl.then(|| version.clone());
    let roots = settings.root_certs();
    let mode = settings.ssl_mode();
    let (status, detail) = if reached.transport == Transport::Unix {
        (Status::Ok, "unix socket: local, TLS not needed".to_string())
    } else if !ssl {
        let clear = "not encrypted: queries and the password cross the network in clear. Next \
                     step: sslmode=verify-full with sslrootcert";
        (Status::Warn, clear.to_string())
    } else {
        match reached.certificate.unwrap_or(Verified::None) {
            Verified::ChainAndHostName => (
                Status::Ok,
                format!("{version}, {cipher}, chain verified against {roots}, host name verified"),
            ),
            Verified::Chain => (
                Status::Warn,
                format!(
                    "encrypted ({version}, {cipher}), chain verified against {roots} but not \
                     the host name (sslmode={mode}); use sslmode=verify-full"
                ),
            ),
            Verified::None => (
                Status::Warn,
                format!(
                    "encrypted ({version}, {cipher}) but the certificate is not verified \
                     (sslmode={mode}, no root certificate); use sslmode=verify-full"
                ),
            ),
        }
    };
    checks.push("tls", status, detail);
    Ok(())
}

fn server(tx: &mut Transaction<'_>, checks: &mut Checks) -> Result<()> {
    let row = tx.query_one(sql::doctor::SERVER_VERSION.text, &[])?;
    let (version, number): (String, i32) = (row.get("version"), row.get("number"));
    if number >= MIN_SERVER_VERSION {
        checks.push("server", Status::Ok, format!("PostgreSQL {version}"));
    } else {
        checks.push(
            "server",
            Status::Warn,
            format!("PostgreSQL {version}: older than 13, which this tool is not tested on"),
        );
    }
    Ok(())
}

fn recovery(tx: &mut Transaction<'_>, checks: &mut Checks) -> Result<()> {
    let row = tx.query_one(sql::doctor::RECOVERY.text, &[])?;
    let (standby, lag): (bool, Option<f64>) = (row.get("standby"), row.get("lag"));
    if standby {
        let lag = match lag {
            Some(seconds) => format!(
                "replay lag {}",
                crate::duration::human(seconds.max(0.0).round() as i64)
            ),
            None => "nothing replayed yet".to_string(),
        };
        checks.push(
            "recovery",
            Status::Warn,
            format!(
                "standby (read-only, {lag}): diagnose, stuck, fleet and wait work; \
                 fail-safely refuses. Connect to the primary to apply a change"
            ),
        );
    } else {
        checks.push("recovery", Status::Ok, "primary (accepts writes)");
    }
    Ok(())
}

/// session_user and current_user.
fn identity(tx: &mut Transaction<'_>, checks: &mut Checks) -> Result<(String, String)> {
    let row = tx.query_one(sql::doctor::IDENTITY.text, &[])?;
    let (session_user, current_user, database): (String, String, String) = (
        row.get("session_user"),
        row.get("current_user"),
        row.get("database"),
    );
    checks.push(
        "identity",
        Status::Ok,
        format!("session_user={session_user}, current_user={current_user}, database={database}"),
    );
    Ok((session_user, current_user))
}

/// Whether `role` can be assumed (inside a savepoint, undone either way).
fn assume_role(
    tx: &mut Transaction<'_>,
    session_user: &str,
    role: &str,
    checks: &mut Checks,
) -> Result<bool> {
    tx.batch_execute(sql::doctor::SAVEPOINT.text)?;
    match tx.query(sql::session::SET_LOCAL_ROLE.text, &[&role]) {
        Ok(_) => {
            tx.batch_execute(sql::doctor::RELEASE_ROLE.text)?;
            checks.push(
                "role",
                Status::Ok,
                format!("{session_user} can assume role {role} (SET ROLE)"),
            );
            Ok(true)
        }
        Err(err) => {
            tx.batch_execute(sql::doctor::ROLLBACK_ROLE.text)?;
            let why = err
                .as_db_error()
                .map(|db| db.message().to_string())
                .unwrap_or_else(|| err.to_string());
            checks.push(
                "role",
                Status::Fail,
                format!(
                    "{session_user} cannot assume role {role}: {why}. Next step: GRANT {role} \
                     TO {session_user}, or leave out --role"
                ),
            );
            Ok(false)
        }
    }
}

/// Whether `current_user` may read every table; returns the tables present.
fn read_privileges(
    tx: &mut Transaction<'_>,
    schema: &Schema,
    current_user: &str,
    checks: &mut Checks,
) -> Result<Vec<&'static str>> {
    let mut unreadable = Vec::new();
    let mut present = Vec::new();
    for table in schema_check::tables() {
        let row = tx.query_one(sql::doctor::TABLE_READABLE.text, &[&schema.name(), &table])?;
        let (exists, readable): (bool, bool) = (row.get("present"), row.get("readable"));
        if exists {
            present.push(table);
            if !readable {
                unreadable.push(table);
            }
        }
    }
    if unreadable.is_empty() {
        checks.push(
            "read privileges",
            Status::Ok,
            format!("{current_user} may read every table the tool reads"),
        );
    } else {
        checks.push(
            "read privileges",
            Status::Fail,
            format!(
                "{current_user} may not SELECT from {}. Next step: GRANT SELECT on them",
                unreadable.join(", ")
            ),
        );
    }
    Ok(present)
}

fn write_privileges(
    tx: &mut Transaction<'_>,
    schema: &Schema,
    writer: &str,
    checks: &mut Checks,
) -> Result<()> {
    let row = tx.query_one(
        sql::doctor::WRITE_PRIVILEGES.text,
        &[&writer, &schema.name()],
    )?;
    let (update, insert): (bool, bool) = (row.get("may_update"), row.get("may_insert"));
    if update && insert {
        checks.push(
            "write privileges",
            Status::Ok,
            format!("{writer} may UPDATE deployments and INSERT deployment_events"),
        );
        return Ok(());
    }
    let missing = [
        (!update).then_some("UPDATE deployments"),
        (!insert).then_some("INSERT deployment_events"),
    ];
    checks.push(
        "write privileges",
        Status::Warn,
        format!(
            "{writer} may not {}: fail-safely would be refused. Next step: use \
             --role with the owner role",
            missing
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(" or ")
        ),
    );
    Ok(())
}

fn schema(tx: &mut Transaction<'_>, expect: &Expect, checks: &mut Checks) -> Result<()> {
    let report = schema_check::check(tx, &expect.schema, &expect.allowed_triggers)?;
    if report.schema_ok() {
        checks.push(
            "schema",
            Status::Ok,
            format!(
                "{} tables and {} columns as expected in schema {}",
                report.tables_checked,
                report.columns_checked,
                crate::decide::triggers::visible(expect.schema.name())
            ),
        );
    } else {
        checks.push("schema", Status::Fail, report.schema_problems.join("; "));
    }
    if report.foreign_key_problems.is_empty() {
        checks.push(
            "foreign keys",
            Status::Ok,
            format!(
                "decide under locks holds: {}",
                report.foreign_keys.join(", ")
            ),
        );
    } else {
        checks.push(
            "foreign keys",
            Status::Fail,
            format!(
                "{}. fail-safely refuses to write until they are back",
                report.foreign_key_problems.join("; ")
            ),
        );
    }
    if report.protecting_triggers_ok() {
        let names: Vec<String> = report
            .triggers
            .iter()
            .map(|t| format!("{} {}", t.table, t.operation.as_str()))
            .collect();
        checks.push(
            "triggers",
            Status::Ok,
            format!(
                "the audit trail is protected (BEFORE triggers enabled and refusing: {})",
                names.join(", ")
            ),
        );
    } else {
        checks.push(
            "triggers",
            Status::Fail,
            format!(
                "{}. fail-safely refuses to write until they are back",
                report.trigger_problems.join("; ")
            ),
        );
    }
    if !report.unvouched.is_empty() {
        checks.push(
            "other triggers",
            Status::Fail,
            format!(
                "fail-safely cannot vouch for: {}. A trigger or rule on the tables it writes runs \
                 inside its transaction, as its user, where it can TRUNCATE, run DDL or reach \
                 another database unseen; fail-safely refuses while they are there. Next step: \
                 review them, and list the safe ones in PUSHLEFT_ALLOWED_TRIGGERS",
                report.unvouched.join("; ")
            ),
        );
    } else if !report.allowed.is_empty() {
        checks.push(
            "other triggers",
            Status::Warn,
            format!(
                "allowed by PUSHLEFT_ALLOWED_TRIGGERS: {}; the guard still checks what they \
                 change, but cannot see a NOTIFY or another database",
                report.allowed.join("; ")
            ),
        );
    } else {
        checks.push(
            "other triggers",
            Status::Ok,
            "no trigger or rule on deployments or deployment_events but the reference schema's own",
        );
    }
    Ok(())
}

/// A duration as the server's settings spell milliseconds.
fn millis(duration: Duration) -> String {
    crate::duration::millis(duration).to_string()
}

/// The session settings in force, against what the tool asked for at
/// connection (the session's own values: the hygiene every transaction
/// sets again is not what is checked here, but whether the startup options
/// arrived).
fn session(
    tx: &mut Transaction<'_>,
    settings: &Settings,
    hygiene: &Hygiene,
    checks: &mut Checks,
) -> Result<()> {
    let expected = [
        ("application_name", connect::APPLICATION_NAME.to_string()),
        ("statement_timeout", millis(settings.statement_timeout())),
        ("lock_timeout", millis(connect::DEFAULT_LOCK_TIMEOUT)),
        (
            "idle_in_transaction_session_timeout",
            millis(settings.idle_in_transaction_timeout()),
        ),
        ("search_path", SEARCH_PATH.replace(' ', "")),
        ("jit", "off".to_string()),
    ];
    let mut in_force = Vec::new();
    let mut mismatched = Vec::new();
    for (name, want) in expected {
        let row = tx.query_one(sql::doctor::SETTING.text, &[&name])?;
        let (setting, shown, session): (String, String, String) =
            (row.get("setting"), row.get("shown"), row.get("reset_val"));
        // The hygiene is set again in this transaction: what the session
        // itself holds is what the startup options did.
        let (value, shown) = if matches!(name, "search_path" | "jit") {
            (session.replace(' ', ""), session)
        } else {
            (setting, shown)
        };
        in_force.push(format!("{name}={shown}"));
        if value != want {
            mismatched.push(name);
        }
    }
    in_force.push(format!(
        "session_replication_role={}",
        hygiene.session_replication_role
    ));
    if let Some(why) = hygiene.refusal() {
        checks.push(
            "session",
            Status::Fail,
            format!("{}; {why}", in_force.join(", ")),
        );
    } else if mismatched.is_empty() {
        checks.push("session", Status::Ok, in_force.join(", "));
    } else {
        checks.push(
            "session",
            Status::Warn,
            format!(
                "{}; not as asked: {} (a connection pooler may drop startup options; every \
                 transaction sets search_path and jit again itself)",
                in_force.join(", "),
                mismatched.join(", ")
            ),
        );
    }
    Ok(())
}
