//! The wire harness: one answer's raw bytes read by the crawler's own HTTP/1.1 exchange
//! (`conn.rs`: head, framing, the chunked coding, the body) over an in-memory stream, as if a
//! server had sent them and closed. For the fuzz target `h1_answer` and the differential test
//! against hyper (`net/tests/differential.rs`); built only for tests and with the
//! `wire-harness` feature.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;

use http::Method;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::conn::{self, ExchangeError, Home};
use super::connector::NetStream;
use super::pool::{ConnKey, Pool};

/// What the exchange made of an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawAnswer {
    /// The status code.
    pub status: u16,
    /// Each header field in order: its lower-case name and its value's bytes.
    pub headers: Vec<(String, Vec<u8>)>,
    /// The body, decoded from its framing.
    pub body: Vec<u8>,
}

/// Why the exchange refused an answer: a short stable name of the failure.
pub type Refusal = &'static str;

/// Reads `raw` as the answer to a GET (or a HEAD) of `/`: the server side reads the request,
/// writes `raw` and closes. Needs a Tokio runtime (any flavour).
pub async fn read_answer(raw: Vec<u8>, head: bool) -> Result<RawAnswer, Refusal> {
    let client = server_answering(raw);
    let permit = Arc::new(tokio::sync::Semaphore::new(1))
        .acquire_owned()
        .await
        .map_err(|_| "semaphore closed")?;
    let peer = SocketAddr::from((Ipv4Addr::LOCALHOST, 80));
    let io = NetStream::in_memory(client, peer, permit);
    let method = if head { Method::HEAD } else { Method::GET };
    let url = url::Url::parse("http://wire.test/").map_err(|_| "url")?;
    let wire = super::h1::encode_request(&method, &url, &[], b"");
    let home = Home {
        pool: Arc::new(Pool::new(std::time::Duration::from_secs(1), 1)),
        key: ConnKey::new("wire.test", 80, false),
    };
    let (head, mut body) = conn::exchange(io, &wire, &method, home)
        .await
        .map_err(refusal)?;
    let mut bytes = Vec::new();
    while let Some(chunk) = body.chunk().await.map_err(refusal)? {
        bytes.extend_from_slice(&chunk);
    }
    let headers = head
        .headers
        .iter()
        .map(|(name, value)| (name.as_str().to_owned(), value.as_bytes().to_vec()))
        .collect();
    Ok(RawAnswer {
        status: head.status.as_u16(),
        headers,
        body: bytes,
    })
}

/// The client's side of an in-memory pipe whose server reads one request head, writes `raw`
/// and closes (for any client: this exchange's, and hyper's in the differential test).
pub fn server_answering(raw: Vec<u8>) -> tokio::io::DuplexStream {
    let (client, mut server) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        // The request first, as a server reads it; then the answer and the close.
        let mut request = Vec::new();
        let mut buf = [0u8; 1024];
        while !request.windows(4).any(|w| w == b"\r\n\r\n") {
            match server.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => request.extend_from_slice(&buf[..n]),
            }
        }
        let _ = server.write_all(&raw).await;
        let _ = server.shutdown().await;
    });
    client
}

fn refusal(error: ExchangeError) -> Refusal {
    match error {
        ExchangeError::Wire(wire) => wire.name(),
        ExchangeError::Closed { answered: false } => "closed_before_answer",
        ExchangeError::Closed { answered: true } => "closed_mid_answer",
        ExchangeError::Io { .. } => "io",
    }
}
