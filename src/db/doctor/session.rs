//! The session as the tool runs it: the settings every transaction pins
//! (README, "Connecting"), the server's defaults that matter to
//! fail-safely, and whether a pooler stands in between.

use std::time::Duration;

use anyhow::Result;

use super::facts::Facts;
use super::{Checks, Status};
use crate::db::columns::Columns;
use crate::db::connect::{self, Reached, Settings};
use crate::db::session::{InForce, SEARCH_PATH, origin};

/// A duration as the server's settings spell milliseconds.
fn millis(duration: Duration) -> String {
    crate::duration::millis(duration).to_string()
}

/// The settings the `session` line shows, read in `sql/doctor/facts.sql`.
pub(super) const SHOWN: [&str; 6] = [
    "application_name",
    "statement_timeout",
    "lock_timeout",
    "idle_in_transaction_session_timeout",
    "search_path",
    "jit",
];

/// The settings in force in doctor's own pinned transaction (as in every
/// transaction of the tool), the server's defaults and the pooler.
pub(super) fn session(
    pinned: &InForce,
    facts: &Facts,
    settings: &Settings,
    reached: &Reached,
    checks: &mut Checks,
) -> Result<()> {
    let wanted = [
        connect::APPLICATION_NAME.to_string(),
        millis(settings.statement_timeout()),
        millis(connect::DEFAULT_LOCK_TIMEOUT),
        millis(settings.idle_in_transaction_timeout()),
        SEARCH_PATH.replace(' ', ""),
        "off".to_string(),
    ];
    let expected = SHOWN.into_iter().zip(wanted);
    let mut in_force = Vec::new();
    let mut mismatched = Vec::new();
    for (name, want) in expected {
        let row = facts.entry("settings", name)?;
        let (setting, shown): (String, String) = (row.col("setting")?, row.col("shown")?);
        in_force.push(format!("{name}={shown}"));
        if setting.replace(' ', "") != want {
            mismatched.push(name);
        }
    }
    in_force.push(format!(
        "session_replication_role={}",
        pinned.value("session_replication_role")
    ));
    match pinned.get("client_connection_check_interval") {
        Some(check) => in_force.push(format!(
            "client_connection_check_interval={}ms",
            check.value
        )),
        None => in_force.push("client_connection_check_interval: not on this server".to_string()),
    }
    if mismatched.is_empty() {
        checks.push(
            "session",
            Status::Ok,
            format!("{} (set in every transaction)", in_force.join(", ")),
        );
    } else {
        checks.push(
            "session",
            Status::Warn,
            format!(
                "{}; not as expected: {}",
                in_force.join(", "),
                mismatched.join(", ")
            ),
        );
    }
    server_defaults(pinned, checks);
    pooler(pinned, reached, checks);
    Ok(())
}

/// The defaults the server, the database or the role set: isolation is
/// informational (every transaction states its own), a read-only default
/// and `track_counts = off` make fail-safely refuse.
fn server_defaults(pinned: &InForce, checks: &mut Checks) {
    let describe = |name: &str| match pinned.get(name) {
        Some(setting) => format!("{name}={} (set {})", setting.value, origin(setting)),
        None => format!("{name}: not reported"),
    };
    let mut problems = Vec::new();
    if let Some(read_only) = pinned.get("default_transaction_read_only")
        && read_only.value == "on"
        && read_only.source != "session"
    {
        problems.push(
            "new transactions are read-only by default: fail-safely refuses to write here. \
             Next step: reset default_transaction_read_only where it was set, if writes are \
             meant to be allowed",
        );
    }
    if pinned.value("track_counts") != "on" {
        problems.push(
            "track_counts is off: the guard's tuple counters are not kept, so fail-safely \
             refuses. Next step: turn track_counts on (the default)",
        );
    }
    let detail = format!(
        "{}, {}, {}{}",
        describe("default_transaction_isolation"),
        describe("default_transaction_read_only"),
        describe("track_counts"),
        if problems.is_empty() {
            "; every transaction states its own isolation and access mode".to_string()
        } else {
            format!("; {}", problems.join("; "))
        }
    );
    let status = if problems.is_empty() {
        Status::Ok
    } else {
        Status::Fail
    };
    checks.push("server defaults", status, detail);
}

/// A pooler or proxy in between, when the server's own port tells: the
/// server listens on another port than the one reached.
fn pooler(pinned: &InForce, reached: &Reached, checks: &mut Checks) {
    let server_port = pinned.value("port").to_string();
    if server_port.is_empty() || server_port == reached.port.to_string() {
        checks.push(
            "pooler",
            Status::Ok,
            format!(
                "none seen (the server listens on port {}, the port reached)",
                reached.port
            ),
        );
    } else {
        checks.push(
            "pooler",
            Status::Ok,
            format!(
                "a pooler or proxy is in between: port {} was reached, the server listens on \
                 {server_port}. Session and transaction pooling are supported (every \
                 transaction pins its own settings); statement pooling is refused",
                reached.port
            ),
        );
    }
}
