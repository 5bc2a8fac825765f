//! A reverse proxy from a simulated TLS site to a plain-HTTP server on loopback (e.g. an
//! official SDK server started by a test), streaming the answer back.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::header::{HeaderName, HOST};
use http::Request;
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use tokio::sync::mpsc;

use crate::record::RecordedRequest;
use crate::reply::{LivePiece, Reply};
use crate::site::Site;

/// Time to connect to the upstream unless set.
pub const DEFAULT_PROXY_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// Body pieces buffered between the upstream and the client.
const PROXY_QUEUE: usize = 8;
/// Headers that belong to one connection and are never forwarded.
const HOP_BY_HOP: [&str; 8] = [
    "connection",
    "keep-alive",
    "proxy-connection",
    "transfer-encoding",
    "te",
    "trailer",
    "upgrade",
    "proxy-authorization",
];

/// Which `Host` the upstream is sent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ProxyHost {
    /// `127.0.0.1:PORT`, the upstream's own address (passes the Python SDK's DNS-rebinding
    /// protection).
    #[default]
    Upstream,
    /// The simulated site's host and port, as the client addressed it.
    Original,
    /// This value.
    Fixed(String),
}

/// Proxy settings.
#[derive(Clone, Debug)]
pub struct ProxyOptions {
    /// The `Host` sent upstream.
    pub host: ProxyHost,
    /// Time to connect to the upstream.
    pub connect_timeout: Duration,
    /// Adds `X-Forwarded-Host` and `X-Forwarded-Proto` naming the simulated site.
    pub forwarded_headers: bool,
}

impl Default for ProxyOptions {
    fn default() -> Self {
        Self {
            host: ProxyHost::Upstream,
            connect_timeout: DEFAULT_PROXY_CONNECT_TIMEOUT,
            forwarded_headers: false,
        }
    }
}

impl Reply {
    /// Forwards the request (method, path, headers, the recorded body) over HTTP/1.1 to
    /// `upstream`, a loopback address, and streams its answer back (status, headers, body,
    /// event streams included). `Host` becomes the upstream's address. An unreachable
    /// upstream gets 502; a non-loopback one is refused with 502 without connecting.
    pub fn proxy(upstream: SocketAddr) -> Reply {
        Self::proxy_with(upstream, ProxyOptions::default())
    }

    /// [`Reply::proxy`] with settings.
    pub fn proxy_with(upstream: SocketAddr, options: ProxyOptions) -> Reply {
        let options = Arc::new(options);
        Reply::handler_async(move |req| forward(req, upstream, Arc::clone(&options)))
    }
}

impl Site {
    /// Forwards every request no other route matches to `upstream` ([`Reply::proxy`]).
    pub fn proxy_to(self, upstream: SocketAddr) -> Self {
        self.default(Reply::proxy(upstream))
    }
}

type BoxError = Box<dyn std::error::Error + Send + Sync>;

async fn forward(
    req: Arc<RecordedRequest>,
    upstream: SocketAddr,
    options: Arc<ProxyOptions>,
) -> Reply {
    if !upstream.ip().is_loopback() {
        return Reply::text("simweb proxy: the upstream must be a loopback address")
            .with_status(502);
    }
    match exchange(&req, upstream, &options).await {
        Ok(reply) => reply,
        Err(e) => {
            tracing::debug!(error = %e, %upstream, "proxy upstream failed");
            Reply::text(format!("simweb proxy: upstream {upstream} failed: {e}")).with_status(502)
        }
    }
}

fn upstream_request(
    req: &RecordedRequest,
    upstream: SocketAddr,
    options: &ProxyOptions,
) -> Result<Request<Full<Bytes>>, BoxError> {
    let mut builder = Request::builder()
        .method(req.method.as_str())
        .uri(req.path.as_str());
    let original = super::guard::host_value(req);
    for (name, value) in &req.headers {
        let lower = name.as_str();
        if HOP_BY_HOP.contains(&lower) || name == HOST || lower == "content-length" {
            continue;
        }
        builder = builder.header(name, value);
    }
    let host = match &options.host {
        ProxyHost::Upstream => upstream.to_string(),
        ProxyHost::Original => original.clone(),
        ProxyHost::Fixed(value) => value.clone(),
    };
    builder = builder.header(HOST, host);
    if options.forwarded_headers {
        builder = builder
            .header("x-forwarded-host", original)
            .header("x-forwarded-proto", if req.tls { "https" } else { "http" });
    }
    Ok(builder.body(Full::new(req.body.clone()))?)
}

async fn exchange(
    req: &RecordedRequest,
    upstream: SocketAddr,
    options: &ProxyOptions,
) -> Result<Reply, BoxError> {
    let request = upstream_request(req, upstream, options)?;
    let tcp = tokio::time::timeout(options.connect_timeout, TcpStream::connect(upstream))
        .await
        .map_err(|_| "connect timed out")??;
    let _ = tcp.set_nodelay(true);
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(tcp)).await?;
    tokio::spawn(async move {
        if let Err(e) = conn.await {
            tracing::trace!(error = %e, "proxy upstream connection ended");
        }
    });
    let response = sender.send_request(request).await?;
    let (parts, mut body) = response.into_parts();
    let (tx, rx) = mpsc::channel::<LivePiece>(PROXY_QUEUE);
    let mut reply = Reply::live(rx).with_status(parts.status.as_u16());
    for (name, value) in &parts.headers {
        if is_forwarded_back(name) {
            reply = reply.header(name.as_str(), value.as_bytes());
        }
    }
    tokio::spawn(async move {
        loop {
            let frame = tokio::select! {
                _ = tx.closed() => return,
                frame = body.frame() => frame,
            };
            match frame {
                None => return,
                Some(Ok(frame)) => {
                    if let Ok(data) = frame.into_data() {
                        if tx.send(Ok(data)).await.is_err() {
                            return;
                        }
                    }
                }
                Some(Err(e)) => {
                    let _ = tx.send(Err(std::io::Error::other(e))).await;
                    return;
                }
            }
        }
    });
    Ok(reply)
}

fn is_forwarded_back(name: &HeaderName) -> bool {
    !HOP_BY_HOP.contains(&name.as_str())
}
