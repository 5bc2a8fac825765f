//! The server: accepts on 127.0.0.1:0, answers each request with its handler's [`Canned`],
//! and records every request and connection in [`Stats`].

use std::convert::Infallible;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use bytes::Bytes;
use http::{HeaderMap, Method, Request, Response, StatusCode, Version};
use http_body::Frame;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio_rustls::TlsAcceptor;

use super::canned::{Canned, Part};
use super::pki::TestPki;

/// How the server talks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// TLS, ALPN h2 and http/1.1.
    TlsH2,
    /// TLS, ALPN http/1.1 only.
    TlsH1,
    /// Plain TCP.
    Plain,
}

/// One request as it arrived.
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: Method,
    pub path: String,
    pub version: Version,
    pub headers: HeaderMap,
    pub body: String,
}

impl Seen {
    /// The JSON-RPC method of the body.
    pub fn rpc_method(&self) -> Option<String> {
        let value: serde_json::Value = serde_json::from_str(&self.body).ok()?;
        value.get("method")?.as_str().map(str::to_owned)
    }

    pub fn header(&self, name: &str) -> Option<String> {
        self.headers
            .get(name)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
    }

    /// The host the request named (`Host`, or the h2 authority), without the port.
    pub fn host(&self) -> Option<String> {
        let host = self.header("host")?;
        Some(host.split(':').next().unwrap_or_default().to_owned())
    }
}

/// Counters the server keeps.
#[derive(Debug, Default)]
pub struct Stats {
    /// TCP connections accepted.
    pub accepted: AtomicUsize,
    /// Connections open now.
    pub active: AtomicUsize,
    /// Most connections open at once.
    pub max_active: AtomicUsize,
    /// Requests, in arrival order.
    requests: Mutex<Vec<Seen>>,
    /// Body bytes handed to the socket layer by streamed answers.
    pub streamed: AtomicUsize,
}

struct Active(Arc<Stats>);

impl Active {
    fn open(stats: &Arc<Stats>) -> Self {
        let now = stats.active.fetch_add(1, Ordering::SeqCst) + 1;
        stats.max_active.fetch_max(now, Ordering::SeqCst);
        Self(stats.clone())
    }
}

impl Drop for Active {
    fn drop(&mut self) {
        self.0.active.fetch_sub(1, Ordering::SeqCst);
    }
}

type Handler = Arc<dyn Fn(&Seen) -> Canned + Send + Sync>;
type Body = BoxBody<Bytes, Infallible>;

/// A running server; stops when dropped.
pub struct TestServer {
    pub addr: SocketAddr,
    pub stats: Arc<Stats>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl TestServer {
    /// A plain-HTTP server.
    pub async fn start(handler: impl Fn(&Seen) -> Canned + Send + Sync + 'static) -> Self {
        Self::start_with(Mode::Plain, None, handler).await
    }

    /// A TLS server with `pki`'s certificate (plain when `mode` is [`Mode::Plain`]).
    pub async fn start_tls(
        pki: &TestPki,
        mode: Mode,
        handler: impl Fn(&Seen) -> Canned + Send + Sync + 'static,
    ) -> Self {
        Self::start_with(mode, Some(pki), handler).await
    }

    async fn start_with(
        mode: Mode,
        pki: Option<&TestPki>,
        handler: impl Fn(&Seen) -> Canned + Send + Sync + 'static,
    ) -> Self {
        let handler: Handler = Arc::new(handler);
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let stats = Arc::new(Stats::default());
        let acceptor = match (mode, pki) {
            (Mode::TlsH2, Some(pki)) => Some(TlsAcceptor::from(pki.server_config(true))),
            (Mode::TlsH1, Some(pki)) => Some(TlsAcceptor::from(pki.server_config(false))),
            (Mode::Plain, _) => None,
            (_, None) => panic!("a TLS test server needs a TestPki"),
        };
        let task_stats = stats.clone();
        let task = tokio::spawn(async move {
            loop {
                let Ok((tcp, _)) = listener.accept().await else {
                    return;
                };
                task_stats.accepted.fetch_add(1, Ordering::SeqCst);
                let (stats, handler, acceptor) =
                    (task_stats.clone(), handler.clone(), acceptor.clone());
                tokio::spawn(async move {
                    let _active = Active::open(&stats);
                    match acceptor {
                        Some(acceptor) => {
                            if let Ok(tls) = acceptor.accept(tcp).await {
                                serve(TokioIo::new(tls), stats.clone(), handler).await;
                            }
                        }
                        None => serve(TokioIo::new(tcp), stats.clone(), handler).await,
                    }
                });
            }
        });
        Self { addr, stats, task }
    }

    /// Requests so far, in arrival order.
    pub fn seen(&self) -> Vec<Seen> {
        self.stats.requests.lock().expect("lock").clone()
    }
}

async fn serve<I>(io: I, stats: Arc<Stats>, handler: Handler)
where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let service = service_fn(move |req| {
        let (stats, handler) = (stats.clone(), handler.clone());
        async move { Ok::<_, Infallible>(answer(req, &handler, stats).await) }
    });
    let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
        .serve_connection(io, service)
        .await;
}

async fn answer(req: Request<Incoming>, handler: &Handler, stats: Arc<Stats>) -> Response<Body> {
    let (parts, body) = req.into_parts();
    let body = body
        .collect()
        .await
        .map(|b| b.to_bytes())
        .unwrap_or_default();
    let mut headers = parts.headers;
    // h2 carries the host as the authority; record it as `Host` so tests read one header.
    if let (false, Some(authority)) = (headers.contains_key("host"), parts.uri.authority()) {
        if let Ok(value) = authority.as_str().parse() {
            headers.insert(http::header::HOST, value);
        }
    }
    let request = Seen {
        method: parts.method,
        path: parts.uri.path().to_owned(),
        version: parts.version,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    };
    stats.requests.lock().expect("lock").push(request.clone());
    let canned = handler(&request);
    if !canned.head_delay.is_zero() {
        tokio::time::sleep(canned.head_delay).await;
    }
    match canned.whole_text() {
        Some(text) => build(&canned, Full::new(Bytes::from(text)).boxed()),
        None => build(&canned, stream(canned.body.clone(), stats)),
    }
}

/// A body fed part by part through a one-slot channel, so a reader that stops reading stops
/// the server too (`Stats::streamed` shows how far it got).
fn stream(parts: Vec<Part>, stats: Arc<Stats>) -> Body {
    let (tx, rx) = mpsc::channel::<Bytes>(1);
    tokio::spawn(async move {
        let send = |chunk: Bytes| {
            let (tx, stats) = (&tx, &stats);
            async move {
                let len = chunk.len();
                let sent = tx.send(chunk).await.is_ok();
                if sent {
                    stats.streamed.fetch_add(len, Ordering::SeqCst);
                }
                sent
            }
        };
        for part in parts {
            match part {
                Part::Text(text) => {
                    if !send(Bytes::from(text)).await {
                        return;
                    }
                }
                Part::Pause(pause) => tokio::time::sleep(pause).await,
                Part::Repeat {
                    chunk,
                    times,
                    every,
                } => {
                    for _ in 0..times {
                        if !every.is_zero() {
                            tokio::time::sleep(every).await;
                        }
                        if !send(chunk.clone()).await {
                            return;
                        }
                    }
                }
                Part::Hold => {
                    tx.closed().await;
                    return;
                }
            }
        }
    });
    BodyExt::boxed(ChannelBody(rx))
}

fn build(canned: &Canned, body: Body) -> Response<Body> {
    let mut response = Response::new(body);
    *response.status_mut() = StatusCode::from_u16(canned.status).expect("status");
    for (name, value) in &canned.headers {
        response.headers_mut().append(
            http::HeaderName::from_bytes(name.as_bytes()).expect("name"),
            http::HeaderValue::from_str(value).expect("value"),
        );
    }
    response
}

struct ChannelBody(mpsc::Receiver<Bytes>);

impl http_body::Body for ChannelBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.0
            .poll_recv(cx)
            .map(|chunk| chunk.map(|c| Ok(Frame::data(c))))
    }
}
