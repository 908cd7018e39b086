//! The connection's checks: TLS as reached, the server's version, primary
//! or standby, and who the session is.

use crate::db::session::Pinned;
use anyhow::Result;

use super::{Checks, Status};
use crate::db::connect::{Reached, Settings, Transport, Verified};
use crate::db::sql;

/// The oldest server the tool is tested against.
const MIN_SERVER_VERSION: i32 = 130_000;

/// TLS on the session reached: the server's view, and how the certificate was checked.
pub(super) fn tls(
    tx: &mut Pinned<'_>,
    settings: &Settings,
    reached: &mut Reached,
    checks: &mut Checks,
) -> Result<()> {
    let row = sql::doctor::TLS.query_catalog_one(tx, &[])?;
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

pub(super) fn server(tx: &mut Pinned<'_>, checks: &mut Checks) -> Result<()> {
    let row = sql::doctor::SERVER_VERSION.query_catalog_one(tx, &[])?;
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

pub(super) fn recovery(tx: &mut Pinned<'_>, checks: &mut Checks) -> Result<()> {
    let row = sql::doctor::RECOVERY.query_catalog_one(tx, &[])?;
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
pub(super) fn identity(tx: &mut Pinned<'_>, checks: &mut Checks) -> Result<(String, String)> {
    let row = sql::doctor::IDENTITY.query_catalog_one(tx, &[])?;
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
