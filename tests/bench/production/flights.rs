//! Round trips counted from the PostgreSQL wire protocol's point of view,
//! per proxied connection (what they are: the top of `proxy`).

/// What one connection cost in round trips.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionFlights {
    pub round_trips: u32,
    /// Round trips up to the first ReadyForQuery; None when the connection
    /// never got that far (or the protocol could not be followed).
    pub startup: Option<u32>,
}

/// The protocol codes of the untyped messages a client may send first.
const SSL_REQUEST: u32 = 80_877_103;
const GSSENC_REQUEST: u32 = 80_877_104;

/// Per-connection bookkeeping shared by the two readers.
#[derive(Default)]
pub struct Flights {
    pub round_trips: u32,
    pub startup: Option<u32>,
    /// The client has sent something the server has not answered yet.
    client_waiting: bool,
    client: ClientParser,
    server: ServerParser,
}

/// Follows the client's untyped start-up messages: each SSLRequest or
/// GSSENCRequest is answered by one byte, not by a typed message.
#[derive(Default)]
struct ClientParser {
    buffer: Vec<u8>,
    done: bool,
}

/// Follows the server's messages until the first ReadyForQuery.
#[derive(Default)]
struct ServerParser {
    /// One-byte answers to expect before typed messages.
    single_byte_answers: u32,
    /// Bytes of the current message's header (type and length) read so far.
    header: Vec<u8>,
    /// Bytes of the current message's body still to skip.
    skip: usize,
    /// Lost track (the connection switched to TLS or GSS encryption).
    lost: bool,
}

impl Flights {
    pub fn client_sent(&mut self, chunk: &[u8]) {
        self.client_waiting = true;
        if self.client.done {
            return;
        }
        self.client.buffer.extend_from_slice(chunk);
        while self.client.buffer.len() >= 8 {
            let len = u32::from_be_bytes([
                self.client.buffer[0],
                self.client.buffer[1],
                self.client.buffer[2],
                self.client.buffer[3],
            ]) as usize;
            if self.client.buffer.len() < len.max(8) {
                return;
            }
            let code = u32::from_be_bytes([
                self.client.buffer[4],
                self.client.buffer[5],
                self.client.buffer[6],
                self.client.buffer[7],
            ]);
            self.client.buffer.drain(..len.max(8));
            if code == SSL_REQUEST || code == GSSENC_REQUEST {
                self.server.single_byte_answers += 1;
            } else {
                // The StartupMessage (or a CancelRequest): from here on the
                // client sends typed messages, which we need not follow.
                self.client.done = true;
                self.client.buffer = Vec::new();
                return;
            }
        }
    }

    pub fn server_sent(&mut self, chunk: &[u8]) {
        if self.client_waiting {
            self.round_trips += 1;
            self.client_waiting = false;
        }
        if self.startup.is_some() || self.server.lost {
            return;
        }
        let mut rest = chunk;
        while !rest.is_empty() {
            let parser = &mut self.server;
            if parser.single_byte_answers > 0 {
                parser.single_byte_answers -= 1;
                // 'S' or 'G': the rest is encrypted; 'N': carry on in clear.
                if rest[0] != b'N' {
                    parser.lost = true;
                    return;
                }
                rest = &rest[1..];
                continue;
            }
            if parser.skip > 0 {
                let n = parser.skip.min(rest.len());
                parser.skip -= n;
                rest = &rest[n..];
                continue;
            }
            let need = 5 - parser.header.len();
            let n = need.min(rest.len());
            parser.header.extend_from_slice(&rest[..n]);
            rest = &rest[n..];
            if parser.header.len() < 5 {
                return;
            }
            let kind = parser.header[0];
            let len = u32::from_be_bytes([
                parser.header[1],
                parser.header[2],
                parser.header[3],
                parser.header[4],
            ]) as usize;
            parser.header.clear();
            // The length counts itself (4 bytes), not the type byte.
            parser.skip = len.saturating_sub(4);
            if kind == b'Z' {
                self.startup = Some(self.round_trips);
                return;
            }
        }
    }
}
