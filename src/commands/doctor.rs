//! `doctor`: can I connect, as whom, to a primary or a standby, with the
//! schema and the protecting triggers this tool expects, and with which
//! session settings?
//!
//! Each check is one line, `ok`, `warn` or `fail`; any `fail` exits 4.
//! Everything runs in one READ ONLY transaction that is rolled back:
//! doctor never writes, and works against a standby.

use std::time::Duration;

use anyhow::{Context, Result};
use postgres::Transaction;
use serde::Serialize;

use crate::cli::{DoctorArgs, GlobalArgs};
use crate::connect::{self, Settings, SslMode, Target};
use crate::exit::ExitCode;
use crate::output::{self, Output, Paint};
use crate::schema_check;

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
    pub checks: Vec<Check>,
    pub ok: bool,
}

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

pub fn run(args: &DoctorArgs, global: &GlobalArgs, output: &Output) -> Result<ExitCode> {
    let settings = Settings::from_options(&global.connect_options())?;
    let mut checks = Checks(Vec::new());
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

    // Prints the warnings on stderr too, before connecting, as every command does.
    match super::connect(&settings, connect::DEFAULT_LOCK_TIMEOUT) {
        Err(err) => checks.push("connection", Status::Fail, format!("{err:#}")),
        Ok(mut client) => {
            checks.push(
                "connection",
                Status::Ok,
                format!("connected to {}", settings.describe()),
            );
            let result = client
                .build_transaction()
                .read_only(true)
                .start()
                .context("starting a read-only transaction")
                .and_then(|mut tx| {
                    let result = run_checks(&mut tx, &settings, args, &mut checks);
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
        }
    }

    let report = Report {
        target: settings.target(),
        sslmode: settings.ssl_mode(),
        ok: checks.0.iter().all(|c| c.status != Status::Fail),
        checks: checks.0,
    };
    if output.json() {
        output::print_json(&report)?;
    } else {
        output::print(&render(&report, output, &settings))?;
    }
    let failed = report
        .checks
        .iter()
        .filter(|c| c.status == Status::Fail)
        .count();
    if failed > 0 {
        output::note(&format!(
            "doctor: {failed} check(s) failed; fix them before running fail-safely"
        ));
        Ok(ExitCode::Refused)
    } else {
        Ok(ExitCode::Done)
    }
}

fn render(report: &Report, output: &Output, settings: &Settings) -> String {
    let mut text = format!(
        "{}\n",
        output.paint(
            &format!("pushleft-controller doctor: {}", settings.describe()),
            Paint::Bold
        )
    );
    let width = report
        .checks
        .iter()
        .map(|c| c.name.len())
        .max()
        .unwrap_or(0);
    for check in &report.checks {
        let status = match check.status {
            Status::Ok => output.paint("ok  ", Paint::Good),
            Status::Warn => output.paint("warn", Paint::Warn),
            Status::Fail => output.paint("FAIL", Paint::Bad),
        };
        text.push_str(&format!(
            "  {status}  {:width$}  {}\n",
            check.name, check.detail
        ));
    }
    text.push_str(&if report.ok {
        output.paint("all checks passed (warnings aside)", Paint::Good)
    } else {
        output.paint("some checks FAILED", Paint::Bad)
    });
    text
}

fn run_checks(
    tx: &mut Transaction<'_>,
    settings: &Settings,
    args: &DoctorArgs,
    checks: &mut Checks,
) -> Result<()> {
    // TLS in force, as the server sees it.
    let row = tx.query_one(
        "SELECT coalesce(s.ssl, false), coalesce(s.version, ''), coalesce(s.cipher, '') \
         FROM (SELECT 1) one LEFT JOIN pg_stat_ssl s ON s.pid = pg_backend_pid()",
        &[],
    )?;
    let (ssl, version, cipher): (bool, String, String) = (row.get(0), row.get(1), row.get(2));
    if settings.is_unix_socket() {
        checks.push("tls", Status::Ok, "unix socket: local, TLS not needed");
    } else if !ssl {
        checks.push(
            "tls",
            Status::Warn,
            "not encrypted: queries and the password cross the network in clear. Next step: \
             sslmode=verify-full with sslrootcert",
        );
    } else if settings.ssl_mode() != SslMode::VerifyFull {
        checks.push(
            "tls",
            Status::Warn,
            format!(
                "encrypted ({version}, {cipher}) but sslmode={} does not prove the server's \
                 identity; use sslmode=verify-full",
                settings.ssl_mode()
            ),
        );
    } else {
        checks.push(
            "tls",
            Status::Ok,
            format!("{version}, {cipher}, certificate and host name verified"),
        );
    }

    let row = tx.query_one(
        "SELECT current_setting('server_version'), current_setting('server_version_num')::int",
        &[],
    )?;
    let (version, number): (String, i32) = (row.get(0), row.get(1));
    if number >= MIN_SERVER_VERSION {
        checks.push("server", Status::Ok, format!("PostgreSQL {version}"));
    } else {
        checks.push(
            "server",
            Status::Warn,
            format!("PostgreSQL {version}: older than 13, which this tool is not tested on"),
        );
    }

    let row = tx.query_one(
        "SELECT pg_is_in_recovery(), \
                extract(epoch FROM now() - pg_last_xact_replay_timestamp())::float8",
        &[],
    )?;
    let (standby, lag): (bool, Option<f64>) = (row.get(0), row.get(1));
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

    let row = tx.query_one(
        "SELECT session_user::text, current_user::text, current_database()::text",
        &[],
    )?;
    let (session_user, current_user, database): (String, String, String) =
        (row.get(0), row.get(1), row.get(2));
    checks.push(
        "identity",
        Status::Ok,
        format!("session_user={session_user}, current_user={current_user}, database={database}"),
    );

    // The role fail-safely would write as.
    let mut writer = current_user.clone();
    if let Some(role) = &args.role {
        tx.batch_execute("SAVEPOINT doctor_role")?;
        match tx.batch_execute(&format!("SET LOCAL ROLE {}", quote_ident(role))) {
            Ok(()) => {
                tx.batch_execute("RESET ROLE; RELEASE SAVEPOINT doctor_role")?;
                checks.push(
                    "role",
                    Status::Ok,
                    format!("{session_user} can assume role {role} (SET ROLE)"),
                );
                writer = role.clone();
            }
            Err(err) => {
                tx.batch_execute("ROLLBACK TO SAVEPOINT doctor_role")?;
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
            }
        }
    }

    let mut unreadable = Vec::new();
    let mut present = Vec::new();
    for table in schema_check::tables() {
        let row = tx.query_one(
            "SELECT to_regclass($1) IS NOT NULL, \
                    to_regclass($1) IS NOT NULL AND has_table_privilege(to_regclass($1), 'SELECT')",
            &[&table],
        )?;
        let (exists, readable): (bool, bool) = (row.get(0), row.get(1));
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
    if present.contains(&"deployments") && present.contains(&"deployment_events") {
        let row = tx.query_one(
            "SELECT has_table_privilege($1, 'deployments', 'UPDATE'), \
                    has_table_privilege($1, 'deployment_events', 'INSERT')",
            &[&writer],
        )?;
        let (update, insert): (bool, bool) = (row.get(0), row.get(1));
        if update && insert {
            checks.push(
                "write privileges",
                Status::Ok,
                format!("{writer} may UPDATE deployments and INSERT deployment_events"),
            );
        } else {
            checks.push(
                "write privileges",
                Status::Warn,
                format!(
                    "{writer} may not {}: fail-safely would be refused. Next step: use \
                     --role with the owner role",
                    [
                        (!update).then_some("UPDATE deployments"),
                        (!insert).then_some("INSERT deployment_events")
                    ]
                    .into_iter()
                    .flatten()
                    .collect::<Vec<_>>()
                    .join(" or ")
                ),
            );
        }
    }

    let report = schema_check::check(tx)?;
    if report.schema_ok() {
        checks.push(
            "schema",
            Status::Ok,
            format!(
                "{} tables and {} columns as expected",
                report.tables_checked, report.columns_checked
            ),
        );
    } else {
        checks.push("schema", Status::Fail, report.schema_problems.join("; "));
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
                "the audit trail is protected (BEFORE triggers enabled: {})",
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

    let mut in_force = Vec::new();
    let mut mismatched = Vec::new();
    let expected = [
        ("application_name", connect::APPLICATION_NAME.to_string()),
        (
            "statement_timeout",
            millis(settings.statement_timeout()).to_string(),
        ),
        (
            "lock_timeout",
            millis(connect::DEFAULT_LOCK_TIMEOUT).to_string(),
        ),
        (
            "idle_in_transaction_session_timeout",
            millis(settings.idle_in_transaction_timeout()).to_string(),
        ),
    ];
    for (name, want) in expected {
        let row = tx.query_one(
            "SELECT setting, current_setting(name) FROM pg_settings WHERE name = $1",
            &[&name],
        )?;
        let (setting, shown): (String, String) = (row.get(0), row.get(1));
        in_force.push(format!("{name}={shown}"));
        if setting != want {
            mismatched.push(name);
        }
    }
    if mismatched.is_empty() {
        checks.push("session", Status::Ok, in_force.join(", "));
    } else {
        checks.push(
            "session",
            Status::Warn,
            format!(
                "{}; not as asked: {} (a connection pooler may drop startup options)",
                in_force.join(", "),
                mismatched.join(", ")
            ),
        );
    }
    Ok(())
}

fn millis(duration: Duration) -> u128 {
    duration.as_millis()
}

/// An SQL identifier, quoted.
fn quote_ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}
