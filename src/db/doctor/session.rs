//! The session settings in force, against what the tool asked for.

use std::time::Duration;

use anyhow::Result;
use postgres::Transaction;

use super::{Checks, Status};
use crate::db::connect::{self, Settings};
use crate::db::session::{Hygiene, SEARCH_PATH};
use crate::db::sql;

/// A duration as the server's settings spell milliseconds.
fn millis(duration: Duration) -> String {
    crate::duration::millis(duration).to_string()
}

/// The session settings in force, against what the tool asked for at
/// connection (the session's own values: the hygiene every transaction
/// sets again is not what is checked here, but whether the startup options
/// arrived).
pub(super) fn session(
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
        let row = sql::doctor::SETTING.query_catalog_one(tx, &[&name])?;
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
