//! Where a session goes and what it reached, without the password: the
//! words `doctor` and the error sentences use (README, "Connecting").
//! `db::connect` decides them.

use serde::Serialize;

/// `pushleft-controller/<version>`: what `pg_stat_activity` shows, and
/// what the audit and the ticket reports name as the tool.
pub const APPLICATION_NAME: &str = concat!("pushleft-controller/", env!("CARGO_PKG_VERSION"));

/// Where a connection goes, without the password: for `doctor` and
/// messages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Target {
    /// Host names, addresses or socket directories, comma-separated.
    pub host: String,
    /// The first host's port.
    pub port: u16,
    pub database: String,
    pub user: String,
}

/// How a session was reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Transport {
    Tcp,
    Unix,
}

/// The server a session really reached: the address dialled (or the
/// socket), and how TLS went. Never the password.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Reached {
    pub transport: Transport,
    /// The `host` entry this address belongs to (`null`: hostaddr only).
    pub host: Option<String>,
    /// The IP address dialled (TCP).
    pub address: Option<String>,
    pub port: u16,
    /// The socket file (unix).
    pub socket: Option<String>,
    pub database: String,
    pub user: String,
    pub tls: bool,
    /// The TLS version, as the server reports it (filled in by `doctor`).
    pub tls_version: Option<String>,
    /// How the server's certificate was checked (`null` without TLS).
    pub certificate: Option<Verified>,
}

impl Reached {
    /// `127.0.0.1:5432 (host db1)` or `/var/run/postgresql/.s.PGSQL.5432`.
    pub fn describe(&self) -> String {
        match (&self.socket, &self.address) {
            (Some(socket), _) => format!("unix socket {socket}"),
            (None, Some(address)) => {
                let address = if address.contains(':') {
                    format!("[{address}]")
                } else {
                    address.clone()
                };
                match &self.host {
                    Some(host) if *host != address => {
                        format!("{address}:{} (host {host})", self.port)
                    }
                    _ => format!("{address}:{}", self.port),
                }
            }
            (None, None) => format!("port {}", self.port),
        }
    }
}

/// How the server's certificate was checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verified {
    /// Not at all: no root certificate (sslmode prefer, allow, require).
    None,
    /// The chain leads to a trusted root.
    Chain,
    /// The chain, and the certificate names the host (verify-full).
    ChainAndHostName,
}

/// libpq's `sslmode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SslMode {
    Disable,
    Allow,
    Prefer,
    Require,
    VerifyCa,
    VerifyFull,
}

impl SslMode {
    pub fn parse(text: &str) -> Option<SslMode> {
        Some(match text {
            "disable" => SslMode::Disable,
            "allow" => SslMode::Allow,
            "prefer" => SslMode::Prefer,
            "require" => SslMode::Require,
            "verify-ca" => SslMode::VerifyCa,
            "verify-full" => SslMode::VerifyFull,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            SslMode::Disable => "disable",
            SslMode::Allow => "allow",
            SslMode::Prefer => "prefer",
            SslMode::Require => "require",
            SslMode::VerifyCa => "verify-ca",
            SslMode::VerifyFull => "verify-full",
        }
    }

    /// The server's certificate must be checked against trusted roots
    /// (other modes check it too when a root certificate file exists).
    pub fn verifies(self) -> bool {
        matches!(self, SslMode::VerifyCa | SslMode::VerifyFull)
    }
}
