//! One TCP proxy for the tests and the benchmark (README, "Performance"):
//! in front of a server's TCP port or unix socket, it counts round trips
//! per connection, can make the link slow (a fixed one-way latency: the
//! benchmark's far link), and can break it on cue (the fault drills).
//!
//! * A *round trip* is a client flight the server answered: the client
//!   sends (one chunk or several), and the first reply handed back to it
//!   closes the round trip. A message nobody waits for (the closing
//!   Terminate) is not one. Both sockets of a connection are polled by one
//!   thread, the client's bytes taken first: writes of one flight that
//!   reach the proxy before a reply is handed back are one flight, however
//!   the threads of the machine are scheduled.
//! * *Start-up* is the round trips up to and including the one that
//!   brought the first ReadyForQuery: what connecting costs before the
//!   first query can be sent (with `sslmode=disable` and trust
//!   authentication, one). SSLRequest and GSSENCRequest are followed (a
//!   one-byte answer each); past an accepted one the bytes are encrypted
//!   and only counted.
//! * A *fault* names a message by its direction and its number after
//!   start-up (the first message the client sends once connected is 1),
//!   so a drill reads as what it breaks: "drop the connection after the
//!   read's first message" is `Fault::Drop { direction: ToServer, after: 1 }`.
//!
//! std and nix's poll only. Dropping the proxy stops the listener and
//! every connection and joins their threads.

mod connection;
mod protocol;

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use connection::Stream;
pub use protocol::Direction;

/// Where the proxy forwards to: the server's TCP address or unix socket.
#[derive(Debug, Clone)]
pub enum Upstream {
    Tcp(SocketAddr),
    Unix(PathBuf),
}

/// A break on cue, at a message counted after start-up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Once the `after`-th message in `direction` is handed on, nothing
    /// more is forwarded either way, and both connections stay open (a
    /// link gone silent) until a peer closes its side.
    Stall { direction: Direction, after: u32 },
    /// Once the `after`-th message in `direction` is handed on, both
    /// connections are closed.
    Drop { direction: Direction, after: u32 },
}

impl Fault {
    fn direction(self) -> Direction {
        match self {
            Fault::Stall { direction, .. } | Fault::Drop { direction, .. } => direction,
        }
    }

    fn after(self) -> u32 {
        match self {
            Fault::Stall { after, .. } | Fault::Drop { after, .. } => after,
        }
    }
}

/// How a proxy treats its connections.
#[derive(Debug, Clone)]
pub struct Options {
    pub upstream: Upstream,
    /// Every chunk is handed on this long after it was read, each way (a
    /// round trip through the proxy costs twice this).
    pub delay: Duration,
    pub fault: Option<Fault>,
}

impl Options {
    /// Counting only: no delay, no fault.
    pub fn counting(upstream: Upstream) -> Options {
        Options {
            upstream,
            delay: Duration::ZERO,
            fault: None,
        }
    }
}

/// What one connection cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flights {
    /// Every round trip, start-up included.
    pub round_trips: u32,
    /// Up to the first ReadyForQuery; None when the connection never got
    /// that far.
    pub startup: Option<u32>,
}

impl Flights {
    /// The round trips after connecting.
    pub fn after_startup(&self) -> u32 {
        self.round_trips - self.startup.unwrap_or(0)
    }
}

struct Shared {
    stopping: AtomicBool,
    live: Mutex<usize>,
    ended: Condvar,
    finished: Mutex<Vec<Flights>>,
    threads: Mutex<Vec<JoinHandle<()>>>,
}

/// The proxy: 127.0.0.1 on a free port.
pub struct Proxy {
    port: u16,
    shared: Arc<Shared>,
    acceptor: Option<JoinHandle<()>>,
}

/// A poisoned lock only means a proxy thread panicked; the data is counters.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Proxy {
    /// A counting proxy in front of `upstream`.
    pub fn start(upstream: Upstream) -> Result<Proxy> {
        Proxy::start_with(Options::counting(upstream))
    }

    pub fn start_with(options: Options) -> Result<Proxy> {
        let listener =
            TcpListener::bind("127.0.0.1:0").context("binding the proxy to 127.0.0.1")?;
        let port = listener.local_addr().context("the proxy's port")?.port();
        let shared = Arc::new(Shared {
            stopping: AtomicBool::new(false),
            live: Mutex::new(0),
            ended: Condvar::new(),
            finished: Mutex::new(Vec::new()),
            threads: Mutex::new(Vec::new()),
        });
        let for_acceptor = Arc::clone(&shared);
        let acceptor = thread::Builder::new()
            .name("proxy-accept".into())
            .spawn(move || accept(listener, options, for_acceptor))
            .context("starting the proxy")?;
        Ok(Proxy {
            port,
            shared,
            acceptor: Some(acceptor),
        })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Waits (at most `timeout`) until every connection has ended, then
    /// returns those that ended since the last call, in the order they
    /// ended. A connection still open then is an error, not counted.
    pub fn take(&self, timeout: Duration) -> Result<Vec<Flights>> {
        let deadline = Instant::now() + timeout;
        let mut live = lock(&self.shared.live);
        while *live > 0 {
            let now = Instant::now();
            if now >= deadline {
                anyhow::bail!(
                    "{} proxied connection(s) still open {timeout:?} after the command ended",
                    *live
                );
            }
            live = self
                .shared
                .ended
                .wait_timeout(live, deadline - now)
                .map(|(guard, _)| guard)
                .unwrap_or_else(|poisoned| poisoned.into_inner().0);
        }
        drop(live);
        Ok(std::mem::take(&mut *lock(&self.shared.finished)))
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.shared.stopping.store(true, Ordering::SeqCst);
        // Wake the blocking accept with a connection of our own.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        if let Some(acceptor) = self.acceptor.take() {
            let _ = acceptor.join();
        }
        // Each connection sees `stopping` within its poll's 100 ms.
        for thread in std::mem::take(&mut *lock(&self.shared.threads)) {
            let _ = thread.join();
        }
    }
}

fn accept(listener: TcpListener, options: Options, shared: Arc<Shared>) {
    for client in listener.incoming() {
        if shared.stopping.load(Ordering::SeqCst) {
            return;
        }
        let Ok(client) = client else { continue };
        if let Err(err) = start_connection(client, &options, &shared) {
            eprintln!("proxy: {err:#}");
        }
    }
}

/// Connects upstream and starts the connection's thread, which records
/// what it cost when it ends.
fn start_connection(client: TcpStream, options: &Options, shared: &Arc<Shared>) -> Result<()> {
    // Small writes must leave at once: Nagle's delay would add to ours.
    client
        .set_nodelay(true)
        .context("TCP_NODELAY on a client")?;
    let server = match &options.upstream {
        Upstream::Tcp(addr) => {
            let stream = TcpStream::connect(addr)
                .with_context(|| format!("connecting the proxy to {addr}"))?;
            stream.set_nodelay(true).context("TCP_NODELAY upstream")?;
            Stream::Tcp(stream)
        }
        Upstream::Unix(path) => Stream::Unix(
            UnixStream::connect(path)
                .with_context(|| format!("connecting the proxy to {}", path.display()))?,
        ),
    };
    let client = Stream::Tcp(client);
    *lock(&shared.live) += 1;
    let (delay, fault) = (options.delay, options.fault);
    let for_thread = Arc::clone(shared);
    let spawned = thread::Builder::new()
        .name("proxy-connection".into())
        .spawn(move || {
            let flights = connection::serve(client, server, delay, fault, &for_thread.stopping);
            lock(&for_thread.finished).push(flights);
            *lock(&for_thread.live) -= 1;
            for_thread.ended.notify_all();
        });
    match spawned {
        Ok(handle) => {
            let mut threads = lock(&shared.threads);
            // Threads of connections that have ended need no joining later.
            threads.retain(|thread| !thread.is_finished());
            threads.push(handle);
            Ok(())
        }
        Err(err) => {
            *lock(&shared.live) -= 1;
            Err(err).context("starting a proxy connection")
        }
    }
}
