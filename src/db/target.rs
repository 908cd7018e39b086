//! Where this session writes (`model::target::WriteTarget`), read once per
//! session in one pinned read-only transaction of one statement, all in
//! one round trip (`sql/session/target.sql`): the server's own word for
//! the cluster, the database and the user, with the address the client
//! dialled.

use anyhow::{Context, Result};
use chrono::{DateTime, Utc};

use super::connect::Reached;
use super::session::Session;
use super::sql;
use crate::model::target::{ServerRole, WriteTarget};

/// The target of `session`, which reached `reached` (the connection
/// service `region`, if one was named), the server's now(), and whether
/// the database records plans (`approvals install`).
pub fn read(
    session: &mut Session,
    reached: &Reached,
    region: Option<String>,
) -> Result<(WriteTarget, DateTime<Utc>, bool)> {
    let rows = session
        .read_in_one_message(sql::session::TARGET.text)
        .context("reading where this session writes (sql/session/target.sql)")?;
    let row = rows
        .first()
        .context("sql/session/target.sql returned no row")?;
    let text = |name: &str| -> Result<String> {
        Ok(row
            .try_get(name)?
            .with_context(|| format!("sql/session/target.sql: {name} is NULL"))?
            .to_string())
    };
    let at_ms: i64 = text("at_ms")?.parse().context("the server's now()")?;
    let target = WriteTarget {
        transport: reached.transport,
        address: reached.address.clone(),
        host: reached.host.clone(),
        socket: reached.socket.clone(),
        port: reached.port,
        database: text("database")?,
        user: text("session_user")?,
        region,
        role: if text("in_recovery")? == "t" {
            ServerRole::Standby
        } else {
            ServerRole::Primary
        },
        system_identifier: text("system_identifier")?,
        database_oid: text("database_oid")?
            .parse()
            .context("a database OID out of range")?,
    };
    let at = DateTime::from_timestamp_millis(at_ms).context("the server's now() out of range")?;
    Ok((target, at, text("approvals_installed")? == "t"))
}
