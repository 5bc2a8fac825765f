//! Sites that answer HTTP/1.1 with hand-written bytes, as servers nobody controls do: framing
//! hyper's server would never write (chunk lines without a size, folded header lines, codings
//! nobody asked for), answers nobody asked for after each answer, bodies that end where the
//! server drops TLS without its close_notify. Served over TLS 1.2 or 1.3 (the site's choice),
//! with ALPN `http/1.1` only, by a loop that reads each request head (and its body, by
//! `Content-Length`) and writes the answer its method, path and JSON-RPC method pick.
//!
//! ```
//! use mcpcensus_simweb::{RawAnswer, RawHttp, Site};
//! let site = Site::new("raw.test").raw_http(
//!     RawHttp::tls13()
//!         .route("GET", "/robots.txt", RawAnswer::new("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"))
//!         .stray("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nevil"),
//! );
//! assert!(site.raw_mode().is_some());
//! ```

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// Requests one raw connection answers at most, and the longest it waits for one.
const MAX_REQUESTS: usize = 200;
const REQUEST_WAIT: Duration = Duration::from_secs(30);
/// The longest request (head and body) read.
const MAX_REQUEST: usize = 256 * 1024;

/// How the server ends after an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawEnd {
    /// The connection stays open for the next request.
    KeepOpen,
    /// TLS's close_notify, then the close.
    Close,
    /// The TCP connection closes with no close_notify (a truncation attack looks the same).
    CloseWithoutNotify,
}

/// One answer's bytes, exactly as written, and how the connection ends after it.
#[derive(Clone, Debug)]
pub struct RawAnswer {
    bytes: Vec<u8>,
    end: RawEnd,
}

impl RawAnswer {
    /// These bytes, the connection kept open after them.
    pub fn new(bytes: impl Into<Vec<u8>>) -> Self {
        Self {
            bytes: bytes.into(),
            end: RawEnd::KeepOpen,
        }
    }

    /// Ends the connection after the answer as `end` says.
    pub fn then(mut self, end: RawEnd) -> Self {
        self.end = end;
        self
    }
}

/// A site's raw HTTP/1.1 behaviour.
#[derive(Clone, Debug)]
pub struct RawHttp {
    tls12: bool,
    /// (method, path, JSON-RPC method of the body or "" for any) → answer.
    routes: Vec<(String, String, String, RawAnswer)>,
    default: RawAnswer,
    stray: Option<Vec<u8>>,
}

impl RawHttp {
    fn new(tls12: bool) -> Self {
        Self {
            tls12,
            routes: Vec::new(),
            default: RawAnswer::new("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"),
            stray: None,
        }
    }

    /// Served over TLS 1.2 only.
    pub fn tls12() -> Self {
        Self::new(true)
    }

    /// Served over TLS 1.3 only.
    pub fn tls13() -> Self {
        Self::new(false)
    }

    /// True when served over TLS 1.2 only.
    pub fn is_tls12(&self) -> bool {
        self.tls12
    }

    /// `answer` to `method path` (any JSON-RPC method).
    pub fn route(self, method: &str, path: &str, answer: RawAnswer) -> Self {
        self.rpc(method, path, "", answer)
    }

    /// `answer` to `method path` whose JSON-RPC body calls `rpc` (`initialize`, `tools/list`).
    pub fn rpc(mut self, method: &str, path: &str, rpc: &str, answer: RawAnswer) -> Self {
        self.routes
            .push((method.into(), path.into(), rpc.into(), answer));
        self
    }

    /// The answer to every request no route matches.
    pub fn default(mut self, answer: RawAnswer) -> Self {
        self.default = answer;
        self
    }

    /// Bytes written right after every answer, unasked for (a second answer, say).
    pub fn stray(mut self, bytes: impl Into<Vec<u8>>) -> Self {
        self.stray = Some(bytes.into());
        self
    }

    fn answer(&self, method: &str, path: &str, body: &[u8]) -> &RawAnswer {
        let body = String::from_utf8_lossy(body);
        self.routes
            .iter()
            .find(|(m, p, rpc, _)| {
                m == method
                    && p == path
                    && (rpc.is_empty() || body.contains(&format!("\"method\":\"{rpc}\"")))
            })
            .map_or(&self.default, |(_, _, _, answer)| answer)
    }
}

/// The TLS configuration of a raw site: its one TLS version, ALPN `http/1.1`, the web's
/// certificates.
pub(crate) fn server_config(
    raw: &RawHttp,
    base: &rustls::ServerConfig,
) -> Result<Arc<rustls::ServerConfig>, rustls::Error> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let version: &'static rustls::SupportedProtocolVersion = if raw.tls12 {
        &rustls::version::TLS12
    } else {
        &rustls::version::TLS13
    };
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[version])?
        .with_no_client_auth()
        .with_cert_resolver(base.cert_resolver.clone());
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

/// Serves one connection of a raw site.
pub(crate) async fn serve<S>(mut tls: tokio_rustls::server::TlsStream<S>, raw: &RawHttp)
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let mut seen = Vec::new();
    for _ in 0..MAX_REQUESTS {
        let Ok(Some((method, path, body))) =
            tokio::time::timeout(REQUEST_WAIT, read_request(&mut tls, &mut seen))
                .await
                .unwrap_or(Ok(None))
        else {
            return;
        };
        let answer = raw.answer(&method, &path, &body);
        if tls.write_all(&answer.bytes).await.is_err() || tls.flush().await.is_err() {
            return;
        }
        if let Some(stray) = &raw.stray {
            // A record of its own, after the answer's.
            if tls.write_all(stray).await.is_err() || tls.flush().await.is_err() {
                return;
            }
        }
        match answer.end {
            RawEnd::KeepOpen => {}
            RawEnd::Close => {
                let _ = tls.shutdown().await;
                return;
            }
            RawEnd::CloseWithoutNotify => {
                let (mut tcp, _) = tls.into_inner();
                let _ = tcp.shutdown().await;
                return;
            }
        }
    }
}

/// The next request: its method, path and body (by `Content-Length`); `None` at the close.
async fn read_request<S: AsyncRead + Unpin>(
    io: &mut S,
    seen: &mut Vec<u8>,
) -> std::io::Result<Option<(String, String, Vec<u8>)>> {
    loop {
        if let Some(end) = seen.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&seen[..end]).into_owned();
            let length = head
                .lines()
                .filter_map(|line| line.split_once(':'))
                .find(|(name, _)| name.trim().eq_ignore_ascii_case("content-length"))
                .and_then(|(_, value)| value.trim().parse::<usize>().ok())
                .unwrap_or(0);
            if seen.len() >= end + 4 + length {
                let body = seen[end + 4..end + 4 + length].to_vec();
                seen.drain(..end + 4 + length);
                let mut first = head.lines().next().unwrap_or_default().split(' ');
                let method = first.next().unwrap_or_default().to_owned();
                let target = first.next().unwrap_or_default();
                let path = target.split('?').next().unwrap_or_default().to_owned();
                return Ok(Some((method, path, body)));
            }
        }
        if seen.len() > MAX_REQUEST {
            return Ok(None);
        }
        let mut buf = [0u8; 4096];
        let n = io.read(&mut buf).await?;
        if n == 0 {
            return Ok(None);
        }
        seen.extend_from_slice(&buf[..n]);
    }
}
