//! The connection's checks: TLS as reached, the server's version, primary
//! or standby, and who the session is.

use anyhow::Result;

use super::facts::Facts;
use super::{Checks, Status};
use crate::db::columns::Columns;
use crate::db::connect::{Reached, Settings, Transport, Verified};
use crate::model::read_from::ReadFrom;

/// The oldest server the tool is tested against.
const MIN_SERVER_VERSION: i32 = 130_000;

/// TLS on the session reached: the server's view, and how the certificate was checked.
pub(super) fn tls(
    facts: &Facts,
    settings: &Settings,
    reached: &mut Reached,
    checks: &mut Checks,
) -> Result<()> {
    let row = facts.row("tls")?;
    let (ssl, version, cipher): (bool, String, String) =
        (row.col("ssl")?, row.col("version")?, row.col("cipher")?);
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

pub(super) fn server(facts: &Facts, checks: &mut Checks) -> Result<()> {
    let row = facts.row("server")?;
    let (version, number): (String, i32) = (row.col("version")?, row.col("number")?);
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

pub(super) fn recovery(facts: &Facts, checks: &mut Checks) -> Result<()> {
    let row = facts.row("recovery")?;
    let (standby, lag, paused): (bool, Option<f64>, bool) =
        (row.col("standby")?, row.col("lag")?, row.col("paused")?);
    if standby {
        // From WAL positions (sql/doctor/facts.sql), as every read shows it.
        let lag = ReadFrom::new(true, lag.map(|s| s.max(0.0).floor() as i64), paused).lag_words();
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
pub(super) fn identity(facts: &Facts, checks: &mut Checks) -> Result<(String, String)> {
    let row = facts.row("identity")?;
    let (session_user, current_user, database): (String, String, String) = (
        row.col("session_user")?,
        row.col("current_user")?,
        row.col("database")?,
    );
    checks.push(
        "identity",
        Status::Ok,
        format!("session_user={session_user}, current_user={current_user}, database={database}"),
    );
    Ok((session_user, current_user))
}
