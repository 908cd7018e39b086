//! One proxied connection, on one thread: both sockets polled together,
//! the client's bytes taken before the server's when both are there (so
//! the writes of one flight are one flight however the threads were
//! scheduled), each chunk handed on `delay` after it was read, in order,
//! and the fault applied at the message it names.

use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::os::fd::{AsFd, BorrowedFd};
use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use nix::poll::{PollFd, PollFlags, PollTimeout, poll};

use super::protocol::{Direction, Protocol};
use super::{Fault, Flights};

/// One side of a proxied connection, TCP or unix socket alike.
pub enum Stream {
    Tcp(TcpStream),
    Unix(UnixStream),
}

impl Stream {
    fn fd(&self) -> BorrowedFd<'_> {
        match self {
            Stream::Tcp(s) => s.as_fd(),
            Stream::Unix(s) => s.as_fd(),
        }
    }

    fn nonblocking(&self) -> io::Result<()> {
        match self {
            Stream::Tcp(s) => s.set_nonblocking(true),
            Stream::Unix(s) => s.set_nonblocking(true),
        }
    }

    pub fn shutdown(&self, how: Shutdown) {
        // Errors only mean the socket is already gone.
        let _ = match self {
            Stream::Tcp(s) => s.shutdown(how),
            Stream::Unix(s) => s.shutdown(how),
        };
    }

    fn read_some(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Tcp(s) => s.read(buffer),
            Stream::Unix(s) => s.read(buffer),
        }
    }

    fn write_some(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Tcp(s) => s.write(bytes),
            Stream::Unix(s) => s.write(bytes),
        }
    }
}

/// What happens once a chunk is handed on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Then {
    Nothing,
    /// The peer's end of stream: shut this side for writing.
    Eof,
    /// The fault's message went by.
    Trip,
}

/// Bytes read from one side, due at the other.
struct Chunk {
    due: Instant,
    bytes: Vec<u8>,
    written: usize,
    /// The connection's first ReadyForQuery is in it (to the client).
    first_ready: bool,
    then: Then,
}

/// How the connection goes on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Forwarding,
    /// The fault's message is read; what follows is dropped until it is
    /// handed on.
    Tripping,
    /// Stalled: nothing more is forwarded; the sockets stay open until a
    /// peer closes its side.
    Stalled,
    Done,
}

/// Proxies `client` to `server` until both are done (or `stopping`); what
/// the connection cost.
pub fn serve(
    client: Stream,
    server: Stream,
    delay: Duration,
    fault: Option<Fault>,
    stopping: &AtomicBool,
) -> Flights {
    let mut link = Link {
        sides: [client, server],
        queues: [VecDeque::new(), VecDeque::new()],
        open: [true, true],
        protocol: Protocol::default(),
        after_startup: [0, 0],
        state: State::Forwarding,
        delay,
        fault,
        flights: Flights {
            round_trips: 0,
            startup: None,
        },
        sent_since_reply: false,
    };
    if link.sides.iter().any(|s| s.nonblocking().is_err()) {
        link.state = State::Done;
    }
    while link.state != State::Done && !stopping.load(Ordering::SeqCst) {
        link.turn();
    }
    for side in &link.sides {
        side.shutdown(Shutdown::Both);
    }
    link.flights
}

const CLIENT: usize = 0;
const SERVER: usize = 1;

struct Link {
    /// The client, the server.
    sides: [Stream; 2],
    /// What is due at each side.
    queues: [VecDeque<Chunk>; 2],
    /// Each side still sends.
    open: [bool; 2],
    protocol: Protocol,
    /// The messages read from each side since start-up ended.
    after_startup: [u32; 2],
    state: State,
    delay: Duration,
    fault: Option<Fault>,
    flights: Flights,
    /// The client sent something since a reply was last handed to it.
    sent_since_reply: bool,
}

impl Link {
    /// One wait on both sockets, then what they have, client first, then
    /// what is due.
    fn turn(&mut self) {
        let now = Instant::now();
        let wake = self
            .queues
            .iter()
            .filter_map(|q| q.front())
            .map(|c| c.due.saturating_duration_since(now))
            .min()
            .unwrap_or(Duration::from_millis(100))
            .min(Duration::from_millis(100));
        let due = |q: &VecDeque<Chunk>| q.front().is_some_and(|c| c.due <= now);
        let interest = |i: usize| {
            let mut flags = PollFlags::empty();
            if self.open[i] {
                flags |= PollFlags::POLLIN;
            }
            if due(&self.queues[1 - i]) {
                flags |= PollFlags::POLLOUT;
            }
            flags
        };
        let flags = [interest(CLIENT), interest(SERVER)];
        let mut fds = [
            PollFd::new(self.sides[CLIENT].fd(), flags[CLIENT]),
            PollFd::new(self.sides[SERVER].fd(), flags[SERVER]),
        ];
        let waited = u16::try_from(wake.as_millis()).unwrap_or(100);
        let ready = match poll(&mut fds, PollTimeout::from(waited)) {
            Ok(_) => fds.map(|fd| fd.revents().unwrap_or(PollFlags::empty())),
            Err(_) => [PollFlags::empty(); 2],
        };
        let readable = PollFlags::POLLIN | PollFlags::POLLHUP | PollFlags::POLLERR;
        for i in [CLIENT, SERVER] {
            if self.open[i] && ready[i].intersects(readable) {
                self.read_from(i);
            }
        }
        // A side that hung up answers every poll at once: with nothing
        // else to do, do not spin on it.
        let idle = (0..2).all(|i| self.open[i] || !ready[i].contains(PollFlags::POLLHUP));
        if !idle && self.queues.iter().all(|q| q.is_empty()) {
            std::thread::sleep(Duration::from_millis(1));
        }
        for i in [CLIENT, SERVER] {
            self.write_to(1 - i);
        }
        if !self.open[CLIENT] && !self.open[SERVER] && self.queues.iter().all(|q| q.is_empty()) {
            self.state = State::Done;
        }
    }

    /// Reads what side `i` has and queues it for the other side.
    fn read_from(&mut self, i: usize) {
        let mut buffer = vec![0u8; 64 * 1024];
        let n = match self.sides[i].read_some(&mut buffer) {
            Ok(n) => n,
            Err(err) if err.kind() == io::ErrorKind::WouldBlock => return,
            Err(_) => 0,
        };
        if n == 0 {
            self.open[i] = false;
            match self.state {
                // The other side learns of it when all before it is there.
                State::Forwarding => self.queue(1 - i, Vec::new(), false, Then::Eof),
                // A stalled link has nobody to tell: the connection ends.
                _ => self.state = State::Done,
            }
            return;
        }
        if self.state != State::Forwarding {
            return;
        }
        buffer.truncate(n);
        let direction = if i == CLIENT {
            Direction::ToServer
        } else {
            Direction::ToClient
        };
        let was_ready = self.protocol.ready();
        let ends = self.protocol.read(direction, &buffer);
        let mut then = Then::Nothing;
        if was_ready && self.protocol.followed() {
            for end in &ends.offsets {
                self.after_startup[i] += 1;
                if let Some(fault) = self.fault
                    && fault.direction() == direction
                    && fault.after() == self.after_startup[i]
                {
                    buffer.truncate(*end);
                    then = Then::Trip;
                    self.state = State::Tripping;
                    break;
                }
            }
        }
        if i == CLIENT {
            self.sent_since_reply = true;
        }
        self.queue(1 - i, buffer, ends.first_ready.is_some(), then);
    }

    fn queue(&mut self, to: usize, bytes: Vec<u8>, first_ready: bool, then: Then) {
        self.queues[to].push_back(Chunk {
            due: Instant::now() + self.delay,
            bytes,
            written: 0,
            first_ready,
            then,
        });
    }

    /// Hands side `to` what is due at it, as far as it takes it now.
    fn write_to(&mut self, to: usize) {
        while let Some(chunk) = self.queues[to].front_mut() {
            if chunk.due > Instant::now() {
                return;
            }
            if to == CLIENT && chunk.written == 0 && !chunk.bytes.is_empty() {
                // A reply reaches the client: it closes a round trip if the
                // client sent since the last one.
                if std::mem::take(&mut self.sent_since_reply) {
                    self.flights.round_trips += 1;
                }
                if chunk.first_ready && self.flights.startup.is_none() {
                    self.flights.startup = Some(self.flights.round_trips);
                }
            }
            while chunk.written < chunk.bytes.len() {
                match self.sides[to].write_some(&chunk.bytes[chunk.written..]) {
                    Ok(0) => break,
                    Ok(n) => chunk.written += n,
                    Err(err) if err.kind() == io::ErrorKind::WouldBlock => return,
                    Err(_) => break,
                }
            }
            let then = chunk.then;
            self.queues[to].pop_front();
            match then {
                Then::Nothing => {}
                Then::Eof => self.sides[to].shutdown(Shutdown::Write),
                Then::Trip => self.trip(),
            }
        }
    }

    /// The fault's message is handed on: the fault happens.
    fn trip(&mut self) {
        match self.fault {
            Some(Fault::Drop { .. }) => self.state = State::Done,
            _ => {
                self.queues.iter_mut().for_each(VecDeque::clear);
                self.state = State::Stalled;
            }
        }
    }
}
