//! One host, one address, one attempt: the TLS fall-backs of `allow` and
//! `prefer`, the deadline over the whole attempt, and what a failure
//! means for the next address or host (libpq 15's `PQconnectPoll`).

use std::net::{IpAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Instant;

use tokio_postgres::config::SslMode as CrateSslMode;

use super::hosts::{BadPort, HostSpec, Kind};
use super::verify::{NameCheck, Recorder};
use super::{Reached, SessionAttrs, Settings, SslMode, Transport};
use crate::db::session::{Link, runtime};

/// What became of a host or an address.
pub(super) enum Outcome {
    Connected(Box<Link>, Reached),
    /// Try the next address (then host): nothing answered.
    NextAddress(String),
    /// Skip the rest of this host's addresses.
    NextHost(String),
    /// Give up: a server answered, or TLS failed.
    Stop(String),
}

/// Why one attempt failed.
pub(super) enum Failure {
    /// No answer before the deadline.
    Timeout,
    /// The postgres crate's error; `tls` whether a TLS session was up.
    Postgres { err: postgres::Error, tls: bool },
    /// TLS could not be set up (root or client certificate files).
    TlsSetup(String),
}

impl Failure {
    /// The server sent an error (authentication, pg_hba, no database).
    fn server_refused(&self) -> bool {
        matches!(self, Failure::Postgres { err, .. } if err.as_db_error().is_some())
    }

    /// The TLS handshake or its set-up failed.
    fn tls_failed(&self) -> bool {
        match self {
            Failure::TlsSetup(_) => true,
            Failure::Postgres { err, .. } => err.to_string().starts_with("error performing TLS"),
            Failure::Timeout => false,
        }
    }

    /// Nothing answered at this address: libpq tries the next one.
    fn unreachable(&self) -> bool {
        match self {
            Failure::Timeout => true,
            Failure::Postgres { err, .. } => {
                let text = err.to_string();
                text.starts_with("error connecting to server") || text.starts_with("timeout")
            }
            Failure::TlsSetup(_) => false,
        }
    }
}

const NO_NAME: &str = "Next step: check the host name (URL, service file or PGHOST) and DNS.";

/// Where one attempt dials.
#[derive(Clone)]
enum Addr {
    Tcp(IpAddr),
    Unix(PathBuf),
}

/// How an attempt uses TLS (the postgres crate's modes).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Use {
    Plain,
    /// Ask; go on without TLS when the server declines.
    Optional,
    Required,
}

impl Settings {
    /// Every address of `host`, in the resolver's order.
    pub(super) fn try_host(
        &self,
        host: &HostSpec,
        want: SessionAttrs,
        options: &str,
        failures: &mut Vec<String>,
    ) -> Outcome {
        let port = match host.port() {
            Ok(port) => port,
            Err(BadPort::OutOfRange | BadPort::NotANumber) => {
                return Outcome::NextHost(format!(
                    "{}: invalid port number. Next step: give a port from 1 to 65535",
                    host.label()
                ));
            }
        };
        let addrs = match addresses(host, port) {
            Ok(addrs) => addrs,
            Err(why) => return Outcome::NextHost(why),
        };
        let last = addrs.len().saturating_sub(1);
        for (i, addr) in addrs.into_iter().enumerate() {
            match self.try_address(host, addr, port, want, options) {
                Outcome::NextAddress(why) if i < last => failures.push(why),
                outcome => return outcome,
            }
        }
        Outcome::NextHost(format!("{}: no address to try", host.label()))
    }

    /// One address, with libpq's second try: `prefer` again without TLS
    /// when TLS failed or the server refused the TLS session; `allow`
    /// again with TLS when the server refused the plain one.
    fn try_address(
        &self,
        host: &HostSpec,
        addr: Addr,
        port: u16,
        want: SessionAttrs,
        options: &str,
    ) -> Outcome {
        let timeout = self.connect_timeout;
        let deadline = (!timeout.is_zero()).then(|| Instant::now() + timeout);
        let unix = matches!(addr, Addr::Unix(_));
        let first = match self.ssl_mode {
            _ if unix => Use::Plain,
            SslMode::Disable | SslMode::Allow => Use::Plain,
            SslMode::Prefer => Use::Optional,
            _ => Use::Required,
        };
        let attempt = |tls| self.attempt(host, addr.clone(), port, tls, deadline, options);
        let result = match (attempt(first), self.ssl_mode) {
            (Err(f), SslMode::Prefer)
                if !unix && (f.tls_failed() || (f.server_refused() && used_tls(&f))) =>
            {
                attempt(Use::Plain)
            }
            (Err(f), SslMode::Allow) if !unix && f.server_refused() => attempt(Use::Optional),
            (result, _) => result,
        };
        let place = describe_addr(host, &addr, port);
        match result {
            Ok((mut client, reached)) => {
                match session_mismatch(&mut client, want, self.statement_timeout) {
                    None => Outcome::Connected(Box::new(client), reached),
                    Some(why) => Outcome::NextHost(format!(
                        "{place}: {why} (target_session_attrs). Next step: check the hosts and \
                     target_session_attrs"
                    )),
                }
            }
            Err(f) if f.unreachable() => {
                Outcome::NextAddress(format!("{place}: {}", self.sentence(&f, host)))
            }
            Err(f) => Outcome::Stop(format!("{place}: {}", self.sentence(&f, host))),
        }
    }

    /// One connection attempt, bounded by `deadline` as a whole.
    fn attempt(
        &self,
        host: &HostSpec,
        addr: Addr,
        port: u16,
        tls: Use,
        deadline: Option<Instant>,
        options: &str,
    ) -> Result<(Link, Reached), Failure> {
        let mut config = self.base_config(host, options);
        // The name TLS checks (libpq's `host`, whatever it holds); the
        // crate is handed an address where that name is a path.
        let tls_name = host
            .host
            .clone()
            .filter(|h| !h.is_empty() && host.kind != Kind::Socket);
        match &addr {
            Addr::Tcp(ip) => {
                let name = tls_name.clone().filter(|n| !n.starts_with('/'));
                config.host(name.unwrap_or_else(|| ip.to_string()));
                config.hostaddr(*ip);
            }
            Addr::Unix(dir) => {
                config.host_path(dir);
            }
        }
        config.port(port);
        if let Some(deadline) = deadline {
            config.connect_timeout(deadline.saturating_duration_since(Instant::now()));
        }
        let record = Recorder::default();
        let rustls = match tls {
            Use::Plain => None,
            _ => {
                let name = match tls_name {
                    Some(name) => NameCheck::Host(name),
                    None => NameCheck::Missing,
                };
                Some(
                    self.tls
                        .client_config(self.ssl_mode, name, record.clone())
                        .map_err(Failure::TlsSetup)?,
                )
            }
        };
        config.ssl_mode(match tls {
            Use::Plain => CrateSslMode::Disable,
            Use::Optional => CrateSslMode::Prefer,
            Use::Required => CrateSslMode::Require,
        });
        let client = run_with_deadline(config, rustls, deadline, &record)?;
        let certificate = *record.lock().expect("the TLS record");
        Ok((client, self.reached(host, &addr, port, certificate)))
    }

    /// Where an attempt that worked landed.
    fn reached(
        &self,
        host: &HostSpec,
        addr: &Addr,
        port: u16,
        certificate: Option<super::Verified>,
    ) -> Reached {
        let (transport, address, socket) = match addr {
            Addr::Tcp(ip) => (Transport::Tcp, Some(ip.to_string()), None),
            Addr::Unix(dir) => (
                Transport::Unix,
                None,
                Some(format!("{}/.s.PGSQL.{port}", dir.display())),
            ),
        };
        Reached {
            transport,
            host: host
                .host
                .as_deref()
                .filter(|h| !h.is_empty())
                .map(|h| self.mask(h)),
            address,
            port,
            socket,
            database: self.mask(&self.dbname),
            user: self.mask(&self.user),
            tls: certificate.is_some(),
            tls_version: None,
            certificate,
        }
    }
}

fn used_tls(failure: &Failure) -> bool {
    matches!(failure, Failure::Postgres { tls: true, .. })
}

/// The addresses of one host: its socket, its `hostaddr`, or what its
/// name resolves to. `Err` is why there are none (libpq moves on).
fn addresses(host: &HostSpec, port: u16) -> Result<Vec<Addr>, String> {
    let label = host.label();
    match host.kind {
        Kind::Socket => Ok(vec![Addr::Unix(PathBuf::from(label))]),
        Kind::Address => {
            let text = host.hostaddr.clone().unwrap_or_default();
            text.parse::<IpAddr>()
                .map(|ip| vec![Addr::Tcp(ip)])
                .map_err(|_| {
                    format!(
                        "could not parse network address \"{text}\". Next step: hostaddr takes \
                         an IP address"
                    )
                })
        }
        Kind::Name => match (label.as_str(), port).to_socket_addrs() {
            Ok(addrs) => {
                let addrs: Vec<Addr> = addrs.map(|a| Addr::Tcp(a.ip())).collect();
                if addrs.is_empty() {
                    Err(format!(
                        "could not translate host name \"{label}\" to address. {NO_NAME}"
                    ))
                } else {
                    Ok(addrs)
                }
            }
            Err(err) => Err(format!(
                "could not translate host name \"{label}\" to address: {err}. {NO_NAME}"
            )),
        },
    }
}

fn describe_addr(host: &HostSpec, addr: &Addr, port: u16) -> String {
    match addr {
        Addr::Unix(dir) => format!("{}/.s.PGSQL.{port}", dir.display()),
        Addr::Tcp(ip) => {
            let at = match ip {
                IpAddr::V6(v6) => format!("[{v6}]:{port}"),
                IpAddr::V4(v4) => format!("{v4}:{port}"),
            };
            match host.host.as_deref() {
                Some(name) if host.kind == Kind::Name && name != ip.to_string() => {
                    format!("{name} ({at})")
                }
                _ => at,
            }
        }
    }
}

/// Connects in a thread of its own, so that the deadline bounds TLS and
/// authentication too (the crate's timeout covers the TCP handshake).
fn run_with_deadline(
    config: tokio_postgres::Config,
    rustls: Option<rustls::ClientConfig>,
    deadline: Option<Instant>,
    record: &Recorder,
) -> Result<Link, Failure> {
    let (tx, rx) = channel();
    let spawned = std::thread::Builder::new()
        .name("connect".to_string())
        .spawn(move || {
            let result = runtime().map(|runtime| match rustls {
                Some(tls) => Link::connect(
                    runtime,
                    &config,
                    tokio_postgres_rustls::MakeRustlsConnect::new(tls),
                ),
                None => Link::connect(runtime, &config, tokio_postgres::NoTls),
            });
            // The receiver may have given up (timeout): nothing to do.
            let _ = tx.send(result);
        });
    if spawned.is_err() {
        return Err(Failure::TlsSetup(
            "could not start the connection thread".into(),
        ));
    }
    let result = match deadline {
        Some(deadline) => rx.recv_timeout(deadline.saturating_duration_since(Instant::now())),
        None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
    };
    let tls = record.lock().map(|r| r.is_some()).unwrap_or(false);
    match result {
        Ok(Ok(Ok(client))) => Ok(client),
        Ok(Ok(Err(err))) => Err(Failure::Postgres { err, tls }),
        Ok(Err(_)) => Err(Failure::TlsSetup(
            "could not start the connection's runtime".into(),
        )),
        Err(_) => Err(Failure::Timeout),
    }
}

/// Why this session does not suit `want` (libpq's wording), if it does
/// not. The check runs in a pinned transaction of its own
/// (`db::session::session_attrs`): nothing runs unpinned, not even here.
fn session_mismatch(
    client: &mut Link,
    want: SessionAttrs,
    statement_timeout: std::time::Duration,
) -> Option<&'static str> {
    if want == SessionAttrs::Any {
        return None;
    }
    let timeouts = crate::db::session::Timeouts {
        statement: statement_timeout,
        ..Default::default()
    };
    let (read_only, standby) = match crate::db::session::session_attrs(client, &timeouts) {
        Ok(attrs) => attrs,
        Err(_) => return Some("could not check target_session_attrs"),
    };
    match want {
        SessionAttrs::ReadWrite if read_only => Some("session is read-only"),
        SessionAttrs::ReadOnly if !read_only => Some("session is not read-only"),
        SessionAttrs::Primary if standby => Some("server is in hot standby mode"),
        SessionAttrs::Standby if !standby => Some("server is not in hot standby mode"),
        _ => None,
    }
}
