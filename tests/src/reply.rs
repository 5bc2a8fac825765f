//! Declarative replies: status, headers, body and the faults that can be layered on them.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use bytes::Bytes;
use serde_json::{json, Value};
use tokio::sync::mpsc;

use crate::record::RecordedRequest;
use crate::sse::SseEvent;

/// A scripted answer computed from the request (the body is already read, up to the cap).
pub type Handler = Arc<dyn Fn(&RecordedRequest) -> Reply + Send + Sync>;

/// The future an [`AsyncHandler`] returns.
pub type ReplyFuture = Pin<Box<dyn Future<Output = Reply> + Send>>;

/// A scripted answer computed asynchronously (e.g. by asking an upstream server).
pub type AsyncHandler = Arc<dyn Fn(Arc<RecordedRequest>) -> ReplyFuture + Send + Sync>;

/// One piece of a live body: bytes to send, or an error that aborts the body.
pub type LivePiece = Result<Bytes, std::io::Error>;

/// The receiving end of a live body, taken by the first response that uses it.
#[derive(Clone)]
pub(crate) struct LiveSource(Arc<Mutex<Option<mpsc::Receiver<LivePiece>>>>);

impl LiveSource {
    /// The receiver, if no response took it yet.
    pub(crate) fn take(&self) -> Option<mpsc::Receiver<LivePiece>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).take()
    }
}

/// How long [`Reply::hang`] waits before giving up (the connection is normally gone long before).
pub const HANG_LIMIT: Duration = Duration::from_secs(3600);

/// What the body is made of.
#[derive(Clone)]
pub(crate) enum Kind {
    /// Bytes held in memory.
    Body(Bytes),
    /// `len` filler bytes generated while streaming.
    Huge(u64),
    /// Server-sent events, each with its own delay.
    Sse(Arc<[SseEvent]>),
    /// Close the connection (HTTP/1) or reset the stream (HTTP/2) without answering.
    Reset,
    /// Never send the headers (until [`HANG_LIMIT`], shutdown or the client leaves).
    Hang,
    /// Compute the reply from the request.
    Handler(Handler),
    /// Compute the reply from the request, asynchronously.
    AsyncHandler(AsyncHandler),
    /// Bytes pushed through a channel while the response is open.
    Live(LiveSource),
}

/// A declarative HTTP answer. Build with a constructor, then chain modifiers:
///
/// ```
/// use std::time::Duration;
/// use mcpcensus_simweb::Reply;
/// let slow = Reply::text("hello").delay(Duration::from_millis(200)).trickle(1, Duration::from_millis(10));
/// let card = Reply::json(serde_json::json!({"name": "x"})).header("access-control-allow-origin", "*");
/// ```
#[derive(Clone)]
pub struct Reply {
    pub(crate) kind: Kind,
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, Vec<u8>)>,
    pub(crate) head_delay: Duration,
    pub(crate) trickle: Option<(usize, Duration)>,
    pub(crate) fail_after: Option<u64>,
    pub(crate) chunked: bool,
    pub(crate) keep_open: bool,
    pub(crate) heartbeat: Option<Duration>,
}

impl fmt::Debug for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match &self.kind {
            Kind::Body(b) => format!("body({} bytes)", b.len()),
            Kind::Huge(n) => format!("huge({n} bytes)"),
            Kind::Sse(e) => format!("sse({} events)", e.len()),
            Kind::Reset => "reset".into(),
            Kind::Hang => "hang".into(),
            Kind::Handler(_) => "handler".into(),
            Kind::AsyncHandler(_) => "async handler".into(),
            Kind::Live(_) => "live".into(),
        };
        f.debug_struct("Reply")
            .field("status", &self.status)
            .field("kind", &kind)
            .field("headers", &self.headers.len())
            .finish_non_exhaustive()
    }
}

impl Reply {
    fn with_kind(status: u16, kind: Kind) -> Self {
        Self {
            kind,
            status,
            headers: Vec::new(),
            head_delay: Duration::ZERO,
            trickle: None,
            fail_after: None,
            chunked: false,
            keep_open: false,
            heartbeat: None,
        }
    }

    /// `status` with an empty body.
    pub fn status(status: u16) -> Self {
        Self::with_kind(status, Kind::Body(Bytes::new()))
    }

    /// 404 with a short text body.
    pub fn not_found() -> Self {
        Self::text("Not Found").with_status(404)
    }

    /// 200 `text/plain`.
    pub fn text(body: impl Into<String>) -> Self {
        Self::bytes("text/plain; charset=utf-8", body.into())
    }

    /// 200 `text/html`.
    pub fn html(body: impl Into<String>) -> Self {
        Self::bytes("text/html; charset=utf-8", body.into())
    }

    /// 200 `application/json` with `value` serialized.
    pub fn json(value: Value) -> Self {
        Self::bytes("application/json", value.to_string())
    }

    /// 200 with `content_type` and a raw body.
    pub fn bytes(content_type: &str, body: impl Into<Bytes>) -> Self {
        Self::with_kind(200, Kind::Body(body.into())).content_type(content_type)
    }

    /// A redirect (`status` 301, 302, 303, 307 or 308) to `location`.
    pub fn redirect(status: u16, location: &str) -> Self {
        Self::status(status).header("location", location)
    }

    /// 200 `application/octet-stream` with `len` bytes generated while streaming (never held in
    /// memory). Sent with `Content-Length` unless [`Reply::chunked`].
    pub fn huge(len: u64) -> Self {
        Self::with_kind(200, Kind::Huge(len)).content_type("application/octet-stream")
    }

    /// 200 `text/event-stream` made of `events`; the stream ends after the last one unless
    /// [`Reply::keep_open`].
    pub fn sse(events: impl IntoIterator<Item = SseEvent>) -> Self {
        Self::with_kind(200, Kind::Sse(events.into_iter().collect()))
            .content_type("text/event-stream")
            .header("cache-control", "no-cache")
    }

    /// Close the connection (HTTP/1.1) or reset the stream (HTTP/2) without answering.
    pub fn reset() -> Self {
        Self::with_kind(0, Kind::Reset)
    }

    /// Never send the response headers (a server held back by a proxy); the request stays
    /// pending until the client gives up, the web shuts down or [`HANG_LIMIT`] passes.
    pub fn hang() -> Self {
        Self::with_kind(0, Kind::Hang)
    }

    /// Compute the reply from the recorded request (may return any reply, including another
    /// handler, followed up to a few levels).
    pub fn handler<F>(f: F) -> Self
    where
        F: Fn(&RecordedRequest) -> Reply + Send + Sync + 'static,
    {
        Self::with_kind(0, Kind::Handler(Arc::new(f)))
    }

    /// Like [`Reply::handler`], but the answer is computed by a future (followed like a
    /// handler; dropped when the client leaves or the web shuts down).
    pub fn handler_async<F, Fut>(f: F) -> Self
    where
        F: Fn(Arc<RecordedRequest>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Reply> + Send + 'static,
    {
        Self::with_kind(
            0,
            Kind::AsyncHandler(Arc::new(move |req| Box::pin(f(req)) as ReplyFuture)),
        )
    }

    /// 200 with a body made of the pieces received on `rx`, sent as they come; the body ends
    /// when every sender is dropped (or aborts on an `Err` piece). Senders see the channel
    /// closed once the client leaves. The receiver is taken by the first response that uses
    /// this reply: a clone used again answers an empty body. Set the content type yourself.
    pub fn live(rx: mpsc::Receiver<LivePiece>) -> Self {
        Self::with_kind(200, Kind::Live(LiveSource(Arc::new(Mutex::new(Some(rx))))))
    }

    /// [`Reply::live`] as `text/event-stream` with `Cache-Control: no-cache`.
    pub fn live_sse(rx: mpsc::Receiver<LivePiece>) -> Self {
        Self::live(rx)
            .content_type("text/event-stream")
            .header("cache-control", "no-cache")
    }

    /// A JSON-RPC endpoint: the body is parsed as JSON and handed to `f`; a body that is not
    /// JSON gets 400 with a JSON-RPC parse error (-32700), without calling `f`.
    pub fn jsonrpc<F>(f: F) -> Self
    where
        F: Fn(&RpcCall<'_>) -> Reply + Send + Sync + 'static,
    {
        Self::handler(
            move |req| match serde_json::from_slice::<Value>(&req.body) {
                Ok(message) => f(&RpcCall {
                    request: req,
                    message: &message,
                }),
                Err(_) => Reply::json(json!({
                    "jsonrpc": "2.0", "id": null,
                    "error": {"code": -32700, "message": "Parse error"}
                }))
                .with_status(400),
            },
        )
    }

    /// 200 `application/json` carrying a JSON-RPC result for `id`.
    pub fn rpc_result(id: Value, result: Value) -> Self {
        Self::json(json!({"jsonrpc": "2.0", "id": id, "result": result}))
    }

    /// 200 `application/json` carrying a JSON-RPC error for `id` (use [`Reply::with_status`]
    /// for a 4xx).
    pub fn rpc_error(id: Value, code: i64, message: &str) -> Self {
        Self::json(json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}))
    }

    /// 202 Accepted with no body (the answer to a JSON-RPC notification).
    pub fn accepted() -> Self {
        Self::status(202)
    }

    /// Replaces the status code.
    pub fn with_status(mut self, status: u16) -> Self {
        self.status = status;
        self
    }

    /// Replaces the body with bytes held in memory (keeps status and headers).
    pub fn body(mut self, body: impl Into<Bytes>) -> Self {
        self.kind = Kind::Body(body.into());
        self
    }

    /// Adds a header (repeatable: two calls send the header twice). A name or value that HTTP
    /// cannot carry turns the answer into a 500 naming it.
    pub fn header(mut self, name: &str, value: impl AsRef<[u8]>) -> Self {
        self.headers
            .push((name.to_ascii_lowercase(), value.as_ref().to_vec()));
        self
    }

    /// Removes every header named `name` set so far.
    pub fn without_header(mut self, name: &str) -> Self {
        let name = name.to_ascii_lowercase();
        self.headers.retain(|(n, _)| *n != name);
        self
    }

    /// Sets `Content-Type`, replacing any set before.
    pub fn content_type(self, value: &str) -> Self {
        self.without_header("content-type")
            .header("content-type", value)
    }

    /// Waits this long before sending the response headers.
    pub fn delay(mut self, delay: Duration) -> Self {
        self.head_delay = delay;
        self
    }

    /// Sends the body `bytes` at a time, waiting `interval` between pieces.
    pub fn trickle(mut self, bytes: usize, interval: Duration) -> Self {
        self.trickle = Some((bytes.max(1), interval));
        self
    }

    /// Sends the first `bytes` bytes of the body, then aborts the connection (or stream).
    pub fn fail_after(mut self, bytes: u64) -> Self {
        self.fail_after = Some(bytes);
        self
    }

    /// Sends no `Content-Length` (chunked transfer in HTTP/1.1).
    pub fn chunked(mut self) -> Self {
        self.chunked = true;
        self
    }

    /// After the body, keep the response open until the client goes away (or shutdown):
    /// an event stream that never ends.
    pub fn keep_open(mut self) -> Self {
        self.keep_open = true;
        self
    }

    /// While kept open, send an SSE comment (`: keep-alive`) every `interval`.
    pub fn heartbeat(mut self, interval: Duration) -> Self {
        self.heartbeat = Some(interval);
        self
    }

    /// Whether this reply computes its answer from the request.
    pub fn is_handler(&self) -> bool {
        matches!(self.kind, Kind::Handler(_) | Kind::AsyncHandler(_))
    }
}

/// A JSON-RPC message received by a [`Reply::jsonrpc`] endpoint.
#[derive(Debug, Clone, Copy)]
pub struct RpcCall<'a> {
    /// The HTTP request that carried it.
    pub request: &'a RecordedRequest,
    /// The parsed body.
    pub message: &'a Value,
}

impl RpcCall<'_> {
    /// The `method` member, if any.
    pub fn method(&self) -> Option<&str> {
        self.message.get("method").and_then(Value::as_str)
    }

    /// The `id` member, if any (`null` included).
    pub fn id(&self) -> Option<&Value> {
        self.message.get("id")
    }

    /// The `id`, or JSON `null` when absent: handy for building answers.
    pub fn id_or_null(&self) -> Value {
        self.id().cloned().unwrap_or(Value::Null)
    }

    /// The `params` member, if any.
    pub fn params(&self) -> Option<&Value> {
        self.message.get("params")
    }

    /// A message with a method and no id.
    pub fn is_notification(&self) -> bool {
        self.method().is_some() && self.id().is_none()
    }

    /// A request header (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.request.header(name)
    }
}
