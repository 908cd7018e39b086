//! A port where something else listens (an HTTP server): the sentence
//! says so in psql's words, by sslmode, and names the next step — not the
//! driver's "bytes remaining on stream".

use std::io::{Read, Write};
use std::net::TcpListener;

use crate::support::bin;

/// A server on the loopback that answers every connection as an HTTP
/// server would, `n` times.
fn http_server(n: usize) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback listener");
    let port = listener.local_addr().expect("its address").port();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(n).flatten() {
            let mut stream = stream;
            let mut buf = [0u8; 1024];
            let _ = stream.read(&mut buf);
            let _ = stream.write_all(b"HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
        }
    });
    port
}

#[test]
fn an_http_port_is_named_as_not_postgresql() {
    let port = http_server(2);
    for (sslmode, psql_says) in [
        ("prefer", "received invalid response to SSL negotiation"),
        ("disable", "expected authentication request from server"),
    ] {
        let run = bin()
            .env(
                "DATABASE_URL",
                format!("postgresql://u@127.0.0.1:{port}/db?sslmode={sslmode}&connect_timeout=5"),
            )
            .args(["stuck"])
            .output()
            .expect("running the binary");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains(psql_says), "{sslmode}: {stderr}");
        assert!(stderr.contains("does not speak PostgreSQL"), "{stderr}");
        assert!(!stderr.contains("bytes remaining"), "{stderr}");
    }
}
