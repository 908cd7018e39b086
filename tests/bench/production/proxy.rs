//! A TCP proxy that makes a nearby server look far away: every chunk read
//! from either side is written to the other side `delay` after it was read
//! (order kept), so a round trip through it costs twice the delay. It also
//! counts round trips per connection, from the PostgreSQL wire protocol's
//! point of view:
//!
//! * a *round trip* is a client flight the server answered: the client
//!   sends (one chunk or several), then the server's first chunk back
//!   closes the round trip. A client message nobody waits for (the closing
//!   Terminate) is not one;
//! * the *start-up* round trips are those up to and including the one that
//!   brought the first ReadyForQuery: what connecting costs before the first
//!   query can be sent (with `sslmode=disable` and trust authentication,
//!   one).
//!
//! std only: four threads per connection (a reader and a delayed writer in
//! each direction). Dropping the proxy stops the listener and every
//! connection and joins all of its threads.

use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

pub use super::flights::ConnectionFlights;
use super::flights::Flights;

/// Where the proxy forwards to: the server's TCP address or unix socket.
#[derive(Debug, Clone)]
pub enum Upstream {
    Tcp(SocketAddr),
    Unix(PathBuf),
}

/// One side of a proxied connection, TCP or unix socket alike.
enum Stream {
    Tcp(TcpStream),
    Unix(UnixStream),
}

impl Stream {
    fn try_clone(&self) -> io::Result<Stream> {
        Ok(match self {
            Stream::Tcp(s) => Stream::Tcp(s.try_clone()?),
            Stream::Unix(s) => Stream::Unix(s.try_clone()?),
        })
    }

    fn shutdown(&self, how: Shutdown) {
        // Errors only mean the socket is already gone.
        let _ = match self {
            Stream::Tcp(s) => s.shutdown(how),
            Stream::Unix(s) => s.shutdown(how),
        };
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Tcp(s) => s.read(buf),
            Stream::Unix(s) => s.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Tcp(s) => s.write(buf),
            Stream::Unix(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Stream::Tcp(s) => s.flush(),
            Stream::Unix(s) => s.flush(),
        }
    }
}

/// What the proxy shares with its threads.
struct Shared {
    delay: Duration,
    stopping: AtomicBool,
    /// Live connections: their flight counters and a handle to shut them.
    live: Mutex<Vec<Live>>,
    /// Signalled whenever a connection ends.
    ended: Condvar,
    /// The finished connections since the last `take_flights`.
    finished: Mutex<Vec<ConnectionFlights>>,
    threads: Mutex<Vec<JoinHandle<()>>>,
}

struct Live {
    id: u64,
    client: Stream,
    server: Stream,
}

pub struct DelayProxy {
    port: u16,
    shared: Arc<Shared>,
    acceptor: Option<JoinHandle<()>>,
}

impl DelayProxy {
    /// Listens on 127.0.0.1 (a free port) and forwards to `upstream`,
    /// delaying each direction by `delay`.
    pub fn start(upstream: Upstream, delay: Duration) -> Result<DelayProxy> {
        let listener =
            TcpListener::bind("127.0.0.1:0").context("binding the delay proxy to 127.0.0.1")?;
        let port = listener
            .local_addr()
            .context("reading the delay proxy's port")?
            .port();
        let shared = Arc::new(Shared {
            delay,
            stopping: AtomicBool::new(false),
            live: Mutex::new(Vec::new()),
            ended: Condvar::new(),
            finished: Mutex::new(Vec::new()),
            threads: Mutex::new(Vec::new()),
        });
        let for_acceptor = Arc::clone(&shared);
        let acceptor = thread::Builder::new()
            .name("delay-proxy-accept".into())
            .spawn(move || accept_loop(listener, upstream, for_acceptor))
            .context("starting the delay proxy")?;
        Ok(DelayProxy {
            port,
            shared,
            acceptor: Some(acceptor),
        })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Waits until every connection has ended (the client went away and the
    /// server closed its side), at most `timeout`; then returns the flights
    /// of the connections that ended since the last call. A connection
    /// still open after `timeout` is reported as an error, not counted.
    pub fn take_flights(&self, timeout: Duration) -> Result<Vec<ConnectionFlights>> {
        let deadline = Instant::now() + timeout;
        let mut live = lock(&self.shared.live);
        while !live.is_empty() {
            let now = Instant::now();
            if now >= deadline {
                anyhow::bail!(
                    "{} proxied connection(s) still open {timeout:?} after the command ended",
                    live.len()
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

impl Drop for DelayProxy {
    fn drop(&mut self) {
        self.shared.stopping.store(true, Ordering::SeqCst);
        // Wake the blocking accept with a connection of our own.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        if let Some(acceptor) = self.acceptor.take() {
            let _ = acceptor.join();
        }
        for live in lock(&self.shared.live).iter() {
            live.client.shutdown(Shutdown::Both);
            live.server.shutdown(Shutdown::Both);
        }
        let threads = std::mem::take(&mut *lock(&self.shared.threads));
        for thread in threads {
            let _ = thread.join();
        }
    }
}

/// A poisoned lock only means a proxy thread panicked; the data is counters.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn accept_loop(listener: TcpListener, upstream: Upstream, shared: Arc<Shared>) {
    let mut next_id = 0u64;
    for incoming in listener.incoming() {
        if shared.stopping.load(Ordering::SeqCst) {
            break;
        }
        let Ok(client) = incoming else { continue };
        next_id += 1;
        if let Err(err) = proxy_connection(next_id, client, &upstream, &shared) {
            eprintln!("delay proxy: {err:#}");
        }
    }
}

/// Connects upstream and starts the four threads of one connection.
fn proxy_connection(
    id: u64,
    client: TcpStream,
    upstream: &Upstream,
    shared: &Arc<Shared>,
) -> Result<()> {
    // Small writes must leave at once, in both directions: Nagle's delay
    // would add to ours.
    client
        .set_nodelay(true)
        .context("TCP_NODELAY on a client")?;
    let server = match upstream {
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
    let flights = Arc::new(Mutex::new(Flights::default()));
    lock(&shared.live).push(Live {
        id,
        client: client.try_clone().context("cloning a client socket")?,
        server: server.try_clone().context("cloning a server socket")?,
    });
    // The last of the four threads to finish records the connection.
    let ending = Arc::new(Ending {
        id,
        flights: Arc::clone(&flights),
        shared: Arc::clone(shared),
    });
    let pairs = [
        (
            client.try_clone().context("cloning a client socket")?,
            server.try_clone().context("cloning a server socket")?,
            Direction::ToServer,
        ),
        (server, client, Direction::ToClient),
    ];
    let mut threads = lock(&shared.threads);
    for (from, to, direction) in pairs {
        let (sender, receiver) = mpsc::channel::<(Instant, Option<Vec<u8>>)>();
        let delay = shared.delay;
        let reader_flights = Arc::clone(&flights);
        let reader_ending = Arc::clone(&ending);
        threads.push(
            thread::Builder::new()
                .name(format!("delay-proxy-{id}-read"))
                .spawn(move || {
                    read_side(from, sender, delay, direction, &reader_flights);
                    drop(reader_ending);
                })
                .context("starting a proxy reader")?,
        );
        let writer_ending = Arc::clone(&ending);
        threads.push(
            thread::Builder::new()
                .name(format!("delay-proxy-{id}-write"))
                .spawn(move || {
                    write_side(to, receiver);
                    drop(writer_ending);
                })
                .context("starting a proxy writer")?,
        );
    }
    // Threads of connections that have ended need no joining later.
    threads.retain(|thread| !thread.is_finished());
    Ok(())
}

#[derive(Clone, Copy)]
enum Direction {
    ToServer,
    ToClient,
}

fn read_side(
    mut from: Stream,
    to_writer: mpsc::Sender<(Instant, Option<Vec<u8>>)>,
    delay: Duration,
    direction: Direction,
    flights: &Mutex<Flights>,
) {
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        match from.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                // The delay runs from the moment the chunk was read.
                let due = Instant::now() + delay;
                let chunk = buffer[..n].to_vec();
                {
                    let mut flights = lock(flights);
                    match direction {
                        Direction::ToServer => flights.client_sent(&chunk),
                        Direction::ToClient => flights.server_sent(&chunk),
                    }
                }
                if to_writer.send((due, Some(chunk))).is_err() {
                    break;
                }
            }
        }
    }
    // End of stream travels with the same delay as the data before it.
    let _ = to_writer.send((Instant::now() + delay, None));
}

fn write_side(mut to: Stream, chunks: mpsc::Receiver<(Instant, Option<Vec<u8>>)>) {
    while let Ok((due, chunk)) = chunks.recv() {
        let now = Instant::now();
        if due > now {
            thread::sleep(due - now);
        }
        match chunk {
            Some(bytes) => {
                if to.write_all(&bytes).is_err() {
                    break;
                }
            }
            None => break,
        }
    }
    to.shutdown(Shutdown::Write);
}

/// Dropped by the last thread of a connection: moves its flights from the
/// live list to the finished one.
struct Ending {
    id: u64,
    flights: Arc<Mutex<Flights>>,
    shared: Arc<Shared>,
}

impl Drop for Ending {
    fn drop(&mut self) {
        let flights = lock(&self.flights);
        lock(&self.shared.finished).push(ConnectionFlights {
            round_trips: flights.round_trips,
            startup: flights.startup,
        });
        drop(flights);
        let mut live = lock(&self.shared.live);
        live.retain(|l| l.id != self.id);
        self.shared.ended.notify_all();
    }
}
