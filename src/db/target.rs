//! Where this session writes (`model::target::WriteTarget`), read once per
//! session in one pinned read-only transaction of one statement
//! (`sql/session/target.sql`): the server's own word for the cluster, the
//! database and the user, with the address the client dialled.

use anyhow::{Context, Result};
use chrono::{DateTime, Utc};

use super::connect::Reached;
use super::session::Session;
use super::sql;
use crate::model::target::{ServerRole, WriteTarget};

/// The target of `session`, which reached `reached` (the connection
/// service `region`, if one was named), and the server's now().
pub fn read(
    session: &mut Session,
    reached: &Reached,
    region: Option<String>,
) -> Result<(WriteTarget, DateTime<Utc>)> {
    let row = session
        .read(|tx| sql::session::TARGET.query_catalog_one(tx, &[]))
        .context("reading where this session writes (sql/session/target.sql)")?;
    let oid: i64 = row.get("database_oid");
    let target = WriteTarget {
        transport: reached.transport,
        address: reached.address.clone(),
        host: reached.host.clone(),
        socket: reached.socket.clone(),
        port: reached.port,
        database: row.get("database"),
        user: row.get("session_user"),
        region,
        role: if row.get::<_, bool>("in_recovery") {
            ServerRole::Standby
        } else {
            ServerRole::Primary
        },
        system_identifier: row.get("system_identifier"),
        database_oid: u32::try_from(oid).context("a database OID out of range")?,
    };
    Ok((target, row.get("at")))
}
