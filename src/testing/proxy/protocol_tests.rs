use super::*;

fn typed_message(kind: u8, body: &[u8]) -> Vec<u8> {
    let mut message = vec![kind];
    message.extend_from_slice(&(body.len() as u32 + 4).to_be_bytes());
    message.extend_from_slice(body);
    message
}

fn untyped(code: u32, rest: &[u8]) -> Vec<u8> {
    let mut packet = (rest.len() as u32 + 8).to_be_bytes().to_vec();
    packet.extend_from_slice(&code.to_be_bytes());
    packet.extend_from_slice(rest);
    packet
}

#[test]
fn follows_ssl_refused_then_startup_and_typed_messages_across_chunks() {
    let mut protocol = Protocol::default();
    let ssl = untyped(SSL_REQUEST, &[]);
    assert_eq!(protocol.read(Direction::ToServer, &ssl).offsets, vec![8]);
    assert_eq!(protocol.read(Direction::ToClient, b"N").offsets, vec![1]);
    let startup = untyped(196_608, b"user\0postgres\0\0");
    assert_eq!(
        protocol.read(Direction::ToServer, &startup).offsets,
        vec![startup.len()]
    );
    // Authentication ok, a parameter, ReadyForQuery: one chunk.
    let mut answer = typed_message(b'R', &[0, 0, 0, 0]);
    answer.extend(typed_message(b'S', b"a\0b\0"));
    let before_ready = answer.len();
    answer.extend(typed_message(b'Z', b"I"));
    let ends = protocol.read(Direction::ToClient, &answer);
    assert_eq!(ends.offsets.len(), 3);
    assert_eq!(ends.first_ready, Some(before_ready + 6));
    assert!(protocol.ready());
    // A query split inside its header, then inside its body.
    let query = typed_message(b'Q', b"SELECT 1\0");
    let (a, b) = query.split_at(3);
    assert!(protocol.read(Direction::ToServer, a).offsets.is_empty());
    let (b, c) = b.split_at(4);
    assert!(protocol.read(Direction::ToServer, b).offsets.is_empty());
    assert_eq!(protocol.read(Direction::ToServer, c).offsets, vec![c.len()]);
    // The next ReadyForQuery is not the first.
    let ends = protocol.read(Direction::ToClient, &typed_message(b'Z', b"I"));
    assert_eq!(ends.first_ready, None);
    assert!(protocol.followed());
}

#[test]
fn stops_following_once_tls_is_accepted() {
    let mut protocol = Protocol::default();
    protocol.read(Direction::ToServer, &untyped(SSL_REQUEST, &[]));
    protocol.read(Direction::ToClient, b"S");
    assert!(!protocol.followed());
    assert!(
        protocol
            .read(Direction::ToClient, b"\x16\x03\x01")
            .offsets
            .is_empty()
    );
}
