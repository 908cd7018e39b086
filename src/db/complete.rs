//! What shell completion offers from the database (README, "Shell
//! completions and man pages"): one quick read, a short connect and
//! statement timeout, and nothing at all on any error (a completion that
//! fails offers nothing; it never prints).

use std::time::Duration;

use anyhow::Result;

use super::connect::{ConnectOptions, DEFAULT_LOCK_TIMEOUT, Settings};
use super::sql::{self, Schema};

/// How long completion may wait for a session, and for its one statement:
/// together about a second, so a Tab never hangs.
pub const CONNECT_TIMEOUT: Duration = Duration::from_millis(700);
pub const STATEMENT_TIMEOUT: Duration = Duration::from_millis(300);

/// A deployment in flight this long without an event is offered first.
const STUCK_AFTER: Duration = Duration::from_secs(30 * 60);

/// One value to offer: `kind` is `deployment`, `node` or `pool`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub kind: String,
    pub value: String,
    pub help: String,
}

/// Every candidate, in the order offered; empty on any error.
pub fn candidates(
    database_url: Option<String>,
    service: Option<String>,
    schema: &Schema,
) -> Vec<Candidate> {
    read(database_url, service, schema).unwrap_or_default()
}

fn read(
    database_url: Option<String>,
    service: Option<String>,
    schema: &Schema,
) -> Result<Vec<Candidate>> {
    let options = ConnectOptions {
        database_url,
        service,
        statement_timeout: STATEMENT_TIMEOUT,
        connect_timeout: Some(CONNECT_TIMEOUT),
        idle_in_transaction_timeout: Duration::from_secs(1),
    };
    let mut session = Settings::from_options(&options)?.connect(DEFAULT_LOCK_TIMEOUT)?;
    let stuck_ms = i64::try_from(STUCK_AFTER.as_millis()).unwrap_or(i64::MAX);
    let rows =
        session.read(|tx| Ok(sql::complete::CANDIDATES.query(tx, schema, &[&stuck_ms])?))?;
    rows.iter()
        .map(|row| {
            Ok(Candidate {
                kind: row.try_get("kind")?,
                value: row.try_get("value")?,
                help: row
                    .try_get::<_, Option<String>>("help")?
                    .unwrap_or_default(),
            })
        })
        .collect()
}
