//! Where a write lands (README, "Two-person break-glass"): every write
//! names its target — the plan, the prompt, the dry run, the markdown and
//! the JSON — and a plan is held to the cluster and database it was made
//! on. Read once per session (`db::target`), rendered in one place
//! (`ui::target`).

use serde::Serialize;

use super::connection::Transport;

/// Whether the server reached takes writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ServerRole {
    Primary,
    Standby,
}

impl ServerRole {
    pub fn as_str(self) -> &'static str {
        match self {
            ServerRole::Primary => "primary",
            ServerRole::Standby => "standby",
        }
    }
}

/// The server, database and user a session writes to. Never a password
/// or a URL: the address dialled (or the socket), and what the server
/// says of itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WriteTarget {
    pub transport: Transport,
    /// The IP address dialled (TCP), else null.
    pub address: Option<String>,
    /// The `host` entry the address belongs to (TCP), else null.
    pub host: Option<String>,
    /// The socket file (unix), else null.
    pub socket: Option<String>,
    pub port: u16,
    /// `current_database()`.
    pub database: String,
    /// `session_user`: who the server says this session is.
    pub user: String,
    /// The connection service (`--service`), which names the region.
    pub region: Option<String>,
    pub role: ServerRole,
    /// `pg_control_system()`'s system identifier, as decimal text (it is a
    /// 64-bit number, more than a JSON reader's double holds exactly): the
    /// cluster, whatever its address. A plan is applied only where it
    /// matches.
    pub system_identifier: String,
    /// The database's OID: another database of the same cluster (a copy
    /// restored under another name, say) has another one.
    pub database_oid: u32,
}

impl WriteTarget {
    /// The same cluster and database (its OID and its name): what a plan
    /// is held to. A promoted standby is the same; a copy restored under
    /// another name, or renamed, is not.
    pub fn same_database(&self, other: &WriteTarget) -> bool {
        self.system_identifier == other.system_identifier
            && self.database_oid == other.database_oid
            && self.database == other.database
    }

    /// The same server reached the same way (address or socket, port).
    pub fn same_server(&self, other: &WriteTarget) -> bool {
        self.address == other.address && self.socket == other.socket && self.port == other.port
    }
}
