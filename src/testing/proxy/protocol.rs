//! Following PostgreSQL's wire protocol through the proxy: where each
//! message ends, in each direction, from the first byte on. The client
//! starts with untyped packets (SSLRequest, GSSENCRequest, each answered
//! by one byte, then the StartupMessage); everything after is a typed
//! message (a type byte, a length that counts itself). Past a `S` or `G`
//! answer the bytes are encrypted and no longer followed.

/// The protocol codes of the untyped packets a client may send first.
const SSL_REQUEST: u32 = 80_877_103;
const GSSENC_REQUEST: u32 = 80_877_104;

/// Which way bytes travel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    ToServer,
    ToClient,
}

/// Where the messages of one chunk end, and what they were.
#[derive(Debug, Default)]
pub(super) struct Ends {
    /// The offset just past each message that ended in the chunk.
    pub offsets: Vec<usize>,
    /// The offset just past the connection's first ReadyForQuery, when it
    /// is in this chunk (server to client only).
    pub first_ready: Option<usize>,
}

/// Both directions of one connection.
#[derive(Default)]
pub(super) struct Protocol {
    client: Framing,
    server: Framing,
    /// One-byte answers the server owes (one per SSLRequest or
    /// GSSENCRequest).
    single_byte_answers: u32,
    /// The client sent its StartupMessage: from then on, typed messages.
    started: bool,
    /// The first ReadyForQuery went by.
    ready: bool,
    /// Encrypted from here on: nothing more is followed.
    lost: bool,
}

/// One direction's position inside its current message.
#[derive(Default)]
struct Framing {
    /// Bytes of the header read so far: the type byte (typed messages
    /// only) and the length.
    header: Vec<u8>,
    /// Body bytes still to pass.
    skip: usize,
}

impl Protocol {
    /// Whether the start-up is over (the first ReadyForQuery went by).
    pub fn ready(&self) -> bool {
        self.ready
    }

    /// Whether messages are still followed (no TLS or GSS encryption).
    pub fn followed(&self) -> bool {
        !self.lost
    }

    /// The messages that end in `chunk`, read in `direction`.
    pub fn read(&mut self, direction: Direction, chunk: &[u8]) -> Ends {
        let mut ends = Ends::default();
        let mut at = 0;
        while at < chunk.len() && !self.lost {
            at += match direction {
                Direction::ToServer => self.client_bytes(&chunk[at..], at, &mut ends),
                Direction::ToClient => self.server_bytes(&chunk[at..], at, &mut ends),
            };
        }
        ends
    }

    /// Consumes what it can of `rest` (at `base` in the chunk); returns
    /// how much.
    fn client_bytes(&mut self, rest: &[u8], base: usize, ends: &mut Ends) -> usize {
        if self.started {
            return typed(&mut self.client, rest, base, ends).0;
        }
        // An untyped packet: its length (4 bytes, counting itself), then
        // its code and the rest.
        let framing = &mut self.client;
        if framing.skip == 0 && framing.header.len() < 8 {
            let n = (8 - framing.header.len()).min(rest.len());
            framing.header.extend_from_slice(&rest[..n]);
            if framing.header.len() < 8 {
                return n;
            }
            let word = |i: usize| {
                u32::from_be_bytes([
                    framing.header[i],
                    framing.header[i + 1],
                    framing.header[i + 2],
                    framing.header[i + 3],
                ])
            };
            let (len, code) = (word(0) as usize, word(4));
            framing.header.clear();
            framing.skip = len.saturating_sub(8);
            if code == SSL_REQUEST || code == GSSENC_REQUEST {
                self.single_byte_answers += 1;
            } else {
                self.started = true;
            }
            if framing.skip == 0 {
                ends.offsets.push(base + n);
            }
            return n;
        }
        let n = framing.skip.min(rest.len());
        framing.skip -= n;
        if framing.skip == 0 {
            ends.offsets.push(base + n);
        }
        n
    }

    fn server_bytes(&mut self, rest: &[u8], base: usize, ends: &mut Ends) -> usize {
        if self.single_byte_answers > 0 && self.server.header.is_empty() && self.server.skip == 0 {
            self.single_byte_answers -= 1;
            // 'S' or 'G': the rest is encrypted; 'N': carry on in clear.
            if rest[0] != b'N' {
                self.lost = true;
            }
            ends.offsets.push(base + 1);
            return 1;
        }
        let (n, kind) = typed(&mut self.server, rest, base, ends);
        if kind == Some(b'Z') && !self.ready {
            self.ready = true;
            ends.first_ready = ends.offsets.last().copied();
        }
        n
    }
}

/// Consumes what it can of a typed message from `rest`; returns how much,
/// and the message's type when it ended here.
fn typed(framing: &mut Framing, rest: &[u8], base: usize, ends: &mut Ends) -> (usize, Option<u8>) {
    if framing.skip > 0 {
        let n = framing.skip.min(rest.len());
        framing.skip -= n;
        if framing.skip > 0 {
            return (n, None);
        }
        ends.offsets.push(base + n);
        return (n, framing.header.first().copied());
    }
    if framing.header.len() == 5 {
        // A message whose body ended at the last chunk's end was done.
        framing.header.clear();
    }
    let n = (5 - framing.header.len()).min(rest.len());
    framing.header.extend_from_slice(&rest[..n]);
    if framing.header.len() < 5 {
        return (n, None);
    }
    let len = u32::from_be_bytes([
        framing.header[1],
        framing.header[2],
        framing.header[3],
        framing.header[4],
    ]) as usize;
    framing.skip = len.saturating_sub(4);
    if framing.skip > 0 {
        return (n, None);
    }
    ends.offsets.push(base + n);
    (n, framing.header.first().copied())
}

#[cfg(test)]
#[path = "protocol_tests.rs"]
mod tests;
