//! A TCP proxy that counts round trips (README, "Performance"): for the
//! round-trip test, which holds each command to the number of times it
//! waits for the server. A *round trip* is a client flight the server
//! answered: the client sends (one chunk or several), and the server's
//! first chunk back closes it. The closing Terminate, which nobody waits
//! for, is not one. *Start-up* is the round trips up to and including the
//! one that brought the first ReadyForQuery (connect with
//! `sslmode=disable`: the proxy follows the clear protocol only).
//!
//! std only, no delay: two threads per connection, each updating the
//! count before it forwards a chunk, so the order the two sides see is the
//! order counted.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

/// What one connection cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flights {
    /// Every round trip, start-up included.
    pub round_trips: u32,
    /// Up to the first ReadyForQuery; `None` if it never came.
    pub startup: Option<u32>,
}

impl Flights {
    /// The round trips after connecting.
    pub fn after_startup(&self) -> u32 {
        self.round_trips - self.startup.unwrap_or(0)
    }
}

/// One connection's count as the bytes go by.
#[derive(Default)]
struct Count {
    round_trips: u32,
    startup: Option<u32>,
    waiting: bool,
    /// The server's bytes of the message header read so far, and the bytes
    /// of its body still to skip (until the first ReadyForQuery).
    header: Vec<u8>,
    skip: usize,
}

impl Count {
    fn client_sent(&mut self) {
        self.waiting = true;
    }

    fn server_sent(&mut self, mut chunk: &[u8]) {
        if self.waiting {
            self.round_trips += 1;
            self.waiting = false;
        }
        while self.startup.is_none() && !chunk.is_empty() {
            if self.skip > 0 {
                let n = self.skip.min(chunk.len());
                self.skip -= n;
                chunk = &chunk[n..];
                continue;
            }
            let n = (5 - self.header.len()).min(chunk.len());
            self.header.extend_from_slice(&chunk[..n]);
            chunk = &chunk[n..];
            if self.header.len() < 5 {
                return;
            }
            let len = u32::from_be_bytes([
                self.header[1],
                self.header[2],
                self.header[3],
                self.header[4],
            ]) as usize;
            if self.header[0] == b'Z' {
                self.startup = Some(self.round_trips);
            }
            self.header.clear();
            self.skip = len.saturating_sub(4);
        }
    }

    fn flights(&self) -> Flights {
        Flights {
            round_trips: self.round_trips,
            startup: self.startup,
        }
    }
}

struct Shared {
    stopping: AtomicBool,
    live: Mutex<usize>,
    ended: Condvar,
    finished: Mutex<Vec<Flights>>,
    threads: Mutex<Vec<JoinHandle<()>>>,
    streams: Mutex<Vec<TcpStream>>,
}

/// The proxy: 127.0.0.1 on a free port, to a server's Unix socket.
pub struct CountingProxy {
    port: u16,
    shared: Arc<Shared>,
    acceptor: Option<JoinHandle<()>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl CountingProxy {
    /// Forwards every connection to the Unix socket `socket`.
    pub fn start(socket: PathBuf) -> Result<CountingProxy> {
        let listener = TcpListener::bind("127.0.0.1:0").context("binding the counting proxy")?;
        let port = listener.local_addr().context("the proxy's port")?.port();
        let shared = Arc::new(Shared {
            stopping: AtomicBool::new(false),
            live: Mutex::new(0),
            ended: Condvar::new(),
            finished: Mutex::new(Vec::new()),
            threads: Mutex::new(Vec::new()),
            streams: Mutex::new(Vec::new()),
        });
        let for_acceptor = Arc::clone(&shared);
        let acceptor = thread::Builder::new()
            .name("counting-proxy".into())
            .spawn(move || accept(listener, socket, for_acceptor))
            .context("starting the counting proxy")?;
        Ok(CountingProxy {
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
    /// ended.
    pub fn take(&self, timeout: Duration) -> Result<Vec<Flights>> {
        let deadline = Instant::now() + timeout;
        let mut live = lock(&self.shared.live);
        while *live > 0 {
            let now = Instant::now();
            if now >= deadline {
                anyhow::bail!("{} proxied connection(s) still open", *live);
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

impl Drop for CountingProxy {
    fn drop(&mut self) {
        self.shared.stopping.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        if let Some(acceptor) = self.acceptor.take() {
            let _ = acceptor.join();
        }
        for stream in lock(&self.shared.streams).iter() {
            let _ = stream.shutdown(Shutdown::Both);
        }
        for thread in std::mem::take(&mut *lock(&self.shared.threads)) {
            let _ = thread.join();
        }
    }
}

fn accept(listener: TcpListener, socket: PathBuf, shared: Arc<Shared>) {
    for client in listener.incoming() {
        if shared.stopping.load(Ordering::SeqCst) {
            return;
        }
        let Ok(client) = client else { continue };
        let Ok(server) = UnixStream::connect(&socket) else {
            continue;
        };
        if let Err(err) = connection(client, server, &shared) {
            eprintln!("counting proxy: {err:#}");
        }
    }
}

/// A socket end the proxy reads from or writes to.
trait End: Read + Write + Send {
    /// No more bytes will be written: the peer reads EOF.
    fn close_write(&self);
}

impl End for TcpStream {
    fn close_write(&self) {
        let _ = self.shutdown(Shutdown::Write);
    }
}

impl End for UnixStream {
    fn close_write(&self) {
        let _ = self.shutdown(Shutdown::Write);
    }
}

/// One direction: read from, write to, and whether the client sends it.
type Side = (Box<dyn End>, Box<dyn End>, bool);

/// Two threads, one per direction; the last one to finish records the
/// connection's count.
fn connection(client: TcpStream, server: UnixStream, shared: &Arc<Shared>) -> Result<()> {
    let count = Arc::new(Mutex::new(Count::default()));
    let remaining = Arc::new(Mutex::new(2u8));
    lock(&shared.streams).push(client.try_clone()?);
    *lock(&shared.live) += 1;
    let sides: [Side; 2] = [
        (
            Box::new(client.try_clone()?),
            Box::new(server.try_clone()?),
            true,
        ),
        (Box::new(server), Box::new(client), false),
    ];
    for (from, to, from_client) in sides {
        let (count, remaining, shared_for) = (
            Arc::clone(&count),
            Arc::clone(&remaining),
            Arc::clone(shared),
        );
        let handle = thread::Builder::new()
            .name("counting-proxy-side".into())
            .spawn(move || {
                pump(from, to, from_client, &count);
                let mut left = lock(&remaining);
                *left -= 1;
                if *left == 0 {
                    lock(&shared_for.finished).push(lock(&count).flights());
                    *lock(&shared_for.live) -= 1;
                    shared_for.ended.notify_all();
                }
            })?;
        lock(&shared.threads).push(handle);
    }
    Ok(())
}

/// Copies one direction, counting each chunk before it is forwarded; at
/// its end the other side reads EOF, so its reader ends too.
fn pump(mut from: Box<dyn End>, mut to: Box<dyn End>, from_client: bool, count: &Mutex<Count>) {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        {
            let mut count = lock(count);
            if from_client {
                count.client_sent();
            } else {
                count.server_sent(&buf[..n]);
            }
        }
        if to.write_all(&buf[..n]).is_err() {
            break;
        }
    }
    to.close_write();
}
