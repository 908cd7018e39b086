//! The hosts to try, in order, as libpq 15's `connectOptions2` lists
//! them: `hostaddr` (when given) decides how many there are, `host` must
//! then match it, one `port` serves every host or there is one per host,
//! and each host gets its own line of the password file.

use std::path::PathBuf;

use anyhow::Result;

use super::PasswordSource;
use super::env::Env;
use super::env::{DEFAULT_SOCKET_DIR, parse_int};
use super::options::{Options, Origin};
use super::pgpass::{password_file_path, password_from_file};
use crate::exit;

/// How a host is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// `host` is a name (or an address) to resolve.
    Name,
    /// `hostaddr`: this numeric address, whatever `host` says.
    Address,
    /// `host` is a unix socket directory.
    Socket,
}

/// One entry of the host list.
#[derive(Clone)]
pub(super) struct HostSpec {
    /// The `host` element: a name, an address or a socket directory;
    /// `None` when only `hostaddr` was given.
    pub(super) host: Option<String>,
    pub(super) hostaddr: Option<String>,
    pub(super) kind: Kind,
    /// The `port` element as given (empty: 5432).
    pub(super) port_text: String,
    /// This host's password and where it came from.
    pub(super) password: Option<(String, PasswordSource)>,
}

/// Why a port cannot be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum BadPort {
    /// Not an integer: libpq gives up on the whole list.
    NotANumber,
    /// Outside 1–65535: libpq moves on to the next host.
    OutOfRange,
}

impl HostSpec {
    pub(super) fn port(&self) -> std::result::Result<u16, BadPort> {
        if self.port_text.is_empty() {
            return Ok(super::env::DEFAULT_PORT);
        }
        let port = parse_int(&self.port_text).ok_or(BadPort::NotANumber)?;
        u16::try_from(port)
            .ok()
            .filter(|p| *p != 0)
            .ok_or(BadPort::OutOfRange)
    }

    /// The host the password file is searched for, as libpq 15's
    /// `connectOptions2` picks it: `host` when it is not empty, else
    /// `hostaddr` (never `localhost` for a lone `hostaddr`: libpq only
    /// turns an empty host or the compiled-in socket directory into
    /// `localhost`, in `passwordFromFile`, see [`pgpass_host`]). psql run
    /// through Debian's `pg_wrapper` looks `localhost` up instead because
    /// the wrapper sets `PGHOST` to a local cluster's socket directory,
    /// which is then the `host`.
    ///
    /// [`pgpass_host`]: super::pgpass::pgpass_host
    pub(super) fn pgpass_key(&self) -> &str {
        match self.host.as_deref().filter(|h| !h.is_empty()) {
            Some(host) => host,
            None => self.hostaddr.as_deref().unwrap_or_default(),
        }
    }

    /// What the operator would call this host: the host, else the address.
    pub(super) fn label(&self) -> String {
        self.host
            .clone()
            .filter(|h| !h.is_empty())
            .or_else(|| self.hostaddr.clone())
            .unwrap_or_default()
    }
}

/// libpq's `parse_comma_separated_list`: no blanks are trimmed, and an
/// empty element is an empty string.
fn elements(text: &str) -> Vec<String> {
    text.split(',').map(str::to_string).collect()
}

/// The host list of `options`, with each host's password: the one given
/// (URL, service file, `PGPASSWORD`) for all, else each host's own line
/// of the password file. `warnings` gets a password file that was
/// ignored.
pub(super) fn host_specs(
    options: &Options,
    env: Env,
    user: &str,
    dbname: &str,
    warnings: &mut Vec<String>,
) -> Result<Vec<HostSpec>> {
    let mut specs = build(options)?;
    if let Some(password) = options.nonempty("password") {
        let source = match options.origin("password") {
            Some(Origin::Env(_)) => PasswordSource::Environment,
            Some(Origin::Service(path)) => PasswordSource::ServiceFile(path.clone()),
            _ => PasswordSource::Url,
        };
        for spec in &mut specs {
            spec.password = Some((password.to_string(), source.clone()));
        }
    } else if let Some(path) = password_file_path(options, env) {
        for spec in &mut specs {
            let host = spec.pgpass_key();
            match password_from_file(&path, host, &spec.port_text, dbname, user) {
                Ok(found) => {
                    spec.password =
                        found.map(|p| (p, PasswordSource::PasswordFile(PathBuf::from(&path))));
                }
                Err(warning) => {
                    if !warnings.contains(&warning) {
                        warnings.push(warning);
                    }
                }
            }
        }
    }
    Ok(specs)
}

/// The hosts, their kinds and ports, without passwords.
fn build(options: &Options) -> Result<Vec<HostSpec>> {
    let hostaddrs = options.nonempty("hostaddr").map(elements);
    let hosts = options.nonempty("host").map(elements);
    let count = match (&hostaddrs, &hosts) {
        (Some(addrs), _) => addrs.len(),
        (None, Some(hosts)) => hosts.len(),
        (None, None) => 1,
    };
    if let (Some(addrs), Some(hosts)) = (&hostaddrs, &hosts)
        && addrs.len() != hosts.len()
    {
        return Err(exit::usage(format!(
            "could not match {} host names to {} hostaddr values (host and hostaddr, {} and {})",
            hosts.len(),
            addrs.len(),
            options.where_set("host"),
            options.where_set("hostaddr")
        )));
    }
    let ports = match options.nonempty("port").map(elements) {
        None => vec![String::new(); count],
        Some(ports) if ports.len() == 1 => vec![ports[0].clone(); count],
        Some(ports) if ports.len() == count => ports,
        Some(ports) => {
            return Err(exit::usage(format!(
                "could not match {} port numbers to {count} hosts (port, {})",
                ports.len(),
                options.where_set("port")
            )));
        }
    };
    let mut specs = Vec::with_capacity(count);
    for (i, port_text) in ports.into_iter().enumerate() {
        let hostaddr = hostaddrs.as_ref().map(|a| a[i].clone());
        let host = hosts.as_ref().map(|h| h[i].clone());
        let (host, kind) = if hostaddr.as_deref().is_some_and(|a| !a.is_empty()) {
            (host, Kind::Address)
        } else {
            match host.filter(|h| !h.is_empty()) {
                Some(h) if h.starts_with('@') => {
                    return Err(exit::usage(
                        "a host starting with @ (an abstract unix socket) is not supported by \
                         pushleft-controller; give the socket directory",
                    ));
                }
                Some(h) if h.starts_with('/') => (Some(h), Kind::Socket),
                Some(h) => (Some(h), Kind::Name),
                None => (Some(DEFAULT_SOCKET_DIR.to_string()), Kind::Socket),
            }
        };
        specs.push(HostSpec {
            host,
            hostaddr,
            kind,
            port_text,
            password: None,
        });
    }
    Ok(specs)
}
