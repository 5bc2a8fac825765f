//! A scripted plain-HTTP MCP server on 127.0.0.1:0 that records every request it gets.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http::{HeaderMap, Method, Request, Response, StatusCode};
use http_body::Frame;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use url::Url;

use crate::net::{Net, NetOptions, SiteClient};

/// The host name tests use; pinned to 127.0.0.1.
pub const HOST: &str = "mcp.test";

/// One request as the server saw it.
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: Method,
    pub path: String,
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
}

/// A piece of a scripted body.
#[derive(Debug, Clone)]
pub enum Part {
    Text(String),
    Pause(Duration),
    /// Keep the body open and send nothing more.
    Hold,
}

/// A scripted answer.
#[derive(Debug, Clone)]
pub struct Canned {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<Part>,
    /// Wait before sending the head.
    pub head_delay: Duration,
}

impl Canned {
    pub fn new(status: u16) -> Self {
        Self {
            status,
            headers: Vec::new(),
            body: Vec::new(),
            head_delay: Duration::ZERO,
        }
    }

    /// `status` with `Content-Type: application/json` and `body`.
    pub fn json(status: u16, body: impl Into<String>) -> Self {
        Self::new(status)
            .header("content-type", "application/json")
            .text(body)
    }

    /// 200 with `Content-Type: text/event-stream` and `body`.
    pub fn sse(body: impl Into<String>) -> Self {
        Self::new(200)
            .header("content-type", "text/event-stream")
            .text(body)
    }

    /// 202 with no body, as the SDKs answer a notification.
    pub fn accepted() -> Self {
        Self::new(202)
    }

    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    pub fn text(mut self, text: impl Into<String>) -> Self {
        self.body.push(Part::Text(text.into()));
        self
    }

    pub fn pause(mut self, pause: Duration) -> Self {
        self.body.push(Part::Pause(pause));
        self
    }

    pub fn hold(mut self) -> Self {
        self.body.push(Part::Hold);
        self
    }

    pub fn head_delay(mut self, delay: Duration) -> Self {
        self.head_delay = delay;
        self
    }
}

type Handler = Arc<dyn Fn(&Seen) -> Canned + Send + Sync>;

/// A running server; stops when dropped.
pub struct McpServer {
    pub addr: SocketAddr,
    /// TCP connections accepted.
    pub connections: Arc<AtomicUsize>,
    seen: Arc<Mutex<Vec<Seen>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for McpServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl McpServer {
    pub async fn start(handler: impl Fn(&Seen) -> Canned + Send + Sync + 'static) -> Self {
        let handler: Handler = Arc::new(handler);
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let seen = Arc::new(Mutex::new(Vec::new()));
        let task_seen = seen.clone();
        let connections = Arc::new(AtomicUsize::new(0));
        let task_connections = connections.clone();
        let task = tokio::spawn(async move {
            loop {
                let Ok((tcp, _)) = listener.accept().await else {
                    return;
                };
                task_connections.fetch_add(1, Ordering::SeqCst);
                let handler = handler.clone();
                let seen = task_seen.clone();
                tokio::spawn(async move {
                    let service = service_fn(move |req| {
                        let handler = handler.clone();
                        let seen = seen.clone();
                        async move { Ok::<_, Infallible>(answer(req, handler, seen).await) }
                    });
                    let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                        .serve_connection(TokioIo::new(tcp), service)
                        .await;
                });
            }
        });
        Self {
            addr,
            connections,
            seen,
            task,
        }
    }

    /// The endpoint URL.
    pub fn endpoint(&self) -> Url {
        Url::parse(&format!("http://{HOST}:{}/mcp", self.addr.port())).expect("url")
    }

    /// Requests so far, in arrival order.
    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().expect("lock").clone()
    }

    /// JSON-RPC methods received so far, in order; asserts every request was a POST to /mcp
    /// carrying one of the session's three methods, and that there were at most three.
    pub fn methods(&self) -> Vec<String> {
        let seen = self.seen();
        assert!(seen.len() <= 3, "more than 3 requests: {seen:?}");
        seen.iter()
            .map(|s| {
                assert_eq!(s.method, Method::POST, "{s:?}");
                assert_eq!(s.path, "/mcp", "{s:?}");
                let method = s.rpc_method().expect("a JSON-RPC method");
                assert!(
                    ["initialize", "notifications/initialized", "tools/list"]
                        .contains(&method.as_str()),
                    "forbidden method {method}"
                );
                method
            })
            .collect()
    }
}

async fn answer(
    req: Request<Incoming>,
    handler: Handler,
    seen: Arc<Mutex<Vec<Seen>>>,
) -> Response<BoxBody<Bytes, Infallible>> {
    let (parts, body) = req.into_parts();
    let body = body
        .collect()
        .await
        .map(|b| b.to_bytes())
        .unwrap_or_default();
    let request = Seen {
        method: parts.method,
        path: parts.uri.path().to_owned(),
        headers: parts.headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    };
    seen.lock().expect("lock").push(request.clone());
    let canned = handler(&request);
    if !canned.head_delay.is_zero() {
        tokio::time::sleep(canned.head_delay).await;
    }
    // Whole-text bodies go out with a Content-Length (as SDK servers send them); bodies with
    // pauses or holds are streamed.
    let whole = canned.body.iter().all(|part| matches!(part, Part::Text(_)));
    if whole {
        let text: String = canned
            .body
            .iter()
            .map(|part| match part {
                Part::Text(text) => text.as_str(),
                _ => "",
            })
            .collect();
        return build(&canned, Full::new(Bytes::from(text)).boxed());
    }
    let (tx, rx) = mpsc::channel::<Bytes>(4);
    let parts = canned.body.clone();
    tokio::spawn(async move {
        for part in parts {
            match part {
                Part::Text(text) => {
                    if tx.send(Bytes::from(text)).await.is_err() {
                        return;
                    }
                }
                Part::Pause(pause) => tokio::time::sleep(pause).await,
                Part::Hold => {
                    tx.closed().await;
                    return;
                }
            }
        }
    });
    build(&canned, BodyExt::boxed(ChannelBody(rx)))
}

fn build(
    canned: &Canned,
    body: BoxBody<Bytes, Infallible>,
) -> Response<BoxBody<Bytes, Infallible>> {
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

/// Network options for tests: `mcp.test` pinned to 127.0.0.1, loopback allowed, no waits.
pub fn net_options() -> NetOptions {
    NetOptions {
        static_hosts: HashMap::from([(HOST.to_owned(), vec![[127, 0, 0, 1].into()])]),
        allow_nets: vec!["127.0.0.0/8".parse().expect("net")],
        nameservers: vec!["127.0.0.1:9".parse().expect("addr")],
        per_host_rps: 1000.0,
        per_host_burst: std::num::NonZeroU32::new(100).expect("non-zero"),
        per_ip_rps: 1000.0,
        per_ip_burst: std::num::NonZeroU32::new(100).expect("non-zero"),
        resolver_timeout: Duration::from_millis(200),
        resolver_attempts: 0,
        throttle_jitter: Duration::ZERO,
        ..NetOptions::default()
    }
}

/// A site client for tests.
pub fn site_client() -> SiteClient {
    Net::new(net_options()).expect("net").site_client()
}
