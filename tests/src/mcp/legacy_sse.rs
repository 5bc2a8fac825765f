//! The legacy HTTP+SSE transport (2024-11-05): a GET stream whose first event names the
//! POST URI; POSTs get 202 and their answers arrive on the stream.

use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use bytes::Bytes;
use serde_json::Value;
use tokio::sync::mpsc;

use super::answers;
use super::fault::Fault;
use super::framing::message_event;
use super::post::{call_record, tweak_of};
use super::server::{Inner, McpServer};
use super::{auth, guard};
use crate::record::RecordedRequest;
use crate::reply::{LivePiece, Reply};
use crate::site::Site;
use crate::sse::SseEvent;

/// Events queued per stream; past it further answers for a client that does not read are
/// dropped.
pub const LEGACY_STREAM_QUEUE: usize = 64;

type Streams = Mutex<HashMap<String, mpsc::Sender<LivePiece>>>;

/// A legacy HTTP+SSE server. Mount with [`Site::legacy_sse`].
///
/// ```
/// use mcpcensus_simweb::mcp::{LegacySseServer, McpServer};
/// use mcpcensus_simweb::Site;
/// let legacy = LegacySseServer::new(McpServer::new().tools_named(&["search"]));
/// let site = Site::new("old.test").legacy_sse("/sse", &legacy);
/// # let _ = site;
/// ```
#[derive(Clone, Debug)]
pub struct LegacySseServer {
    server: McpServer,
    messages_path: String,
    endpoint_base: Option<String>,
    answer_delay: Duration,
    seed: u64,
    next: Arc<AtomicU64>,
    streams: Arc<Streams>,
}

impl LegacySseServer {
    /// Answers with `server`'s tools and settings (faults and versions included; its
    /// transport settings — sessions, framing, GET style — do not apply).
    pub fn new(server: McpServer) -> Self {
        Self {
            server,
            messages_path: "/messages".into(),
            endpoint_base: None,
            answer_delay: Duration::ZERO,
            seed: RandomState::new().hash_one(0x0073_7365_u64),
            next: Arc::new(AtomicU64::new(1)),
            streams: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// The path POSTs go to (default `/messages`).
    pub fn messages_path(mut self, path: &str) -> Self {
        self.messages_path = path.into();
        self
    }

    /// What the `endpoint` event names before `?sessionId=` (default: the messages path, a
    /// relative URL); e.g. an absolute URL on another host.
    pub fn endpoint_base(mut self, uri: &str) -> Self {
        self.endpoint_base = Some(uri.into());
        self
    }

    /// Sends each answer this long after the POST was accepted.
    pub fn answer_delay(mut self, delay: Duration) -> Self {
        self.answer_delay = delay;
        self
    }

    /// The server answering the messages (its calls are recorded there).
    pub fn server(&self) -> &McpServer {
        &self.server
    }

    /// The messages path.
    pub fn messages_path_str(&self) -> &str {
        &self.messages_path
    }

    /// Streams whose client is still connected.
    pub fn open_streams(&self) -> usize {
        let mut streams = self.streams.lock().unwrap_or_else(PoisonError::into_inner);
        streams.retain(|_, tx| !tx.is_closed());
        streams.len()
    }

    fn new_session(&self) -> String {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let hex = format!(
            "{:016x}{:016x}",
            self.seed,
            n.wrapping_mul(0x9e37_79b9_7f4a_7c15)
        );
        format!(
            "{}-{}-4{}-a{}-{}",
            &hex[0..8],
            &hex[8..12],
            &hex[13..16],
            &hex[17..20],
            &hex[20..32]
        )
    }

    /// The reply for GET on the SSE path: opens a stream announcing the POST URI.
    pub fn sse_reply(&self) -> Reply {
        let this = self.clone();
        let inner = self.server.inner();
        Reply::handler(move |req| {
            let reply = this.open_stream(&inner, req);
            inner.state.record(call_record(req, None, None, &reply));
            reply
        })
    }

    fn open_stream(&self, inner: &Inner, req: &RecordedRequest) -> Reply {
        if let Some(refusal) = guard::check(inner.spec.host_guard.as_ref(), req) {
            return refusal;
        }
        if let Some(challenge) = auth::check(inner.spec.auth.as_ref(), req) {
            return challenge;
        }
        if let Some(reply) = inner
            .take_fault("GET", false)
            .as_ref()
            .and_then(Fault::replacement)
        {
            return reply;
        }
        let session = self.new_session();
        let base = self
            .endpoint_base
            .clone()
            .unwrap_or_else(|| self.messages_path.clone());
        let (tx, rx) = mpsc::channel(LEGACY_STREAM_QUEUE);
        let endpoint = SseEvent::endpoint(format!("{base}?sessionId={session}")).encode();
        if tx.try_send(Ok(endpoint)).is_err() {
            return Reply::text("stream setup failed").with_status(500);
        }
        let mut streams = self.streams.lock().unwrap_or_else(PoisonError::into_inner);
        streams.retain(|_, tx| !tx.is_closed());
        streams.insert(session, tx);
        Reply::live_sse(rx)
    }

    /// The reply for POST on the messages path: 202 "Accepted", the answer on the stream.
    pub fn messages_reply(&self) -> Reply {
        let this = self.clone();
        let inner = self.server.inner();
        Reply::handler(move |req| {
            let parsed: Option<Value> = serde_json::from_slice(&req.body).ok();
            let method = parsed
                .as_ref()
                .and_then(|m| m.get("method"))
                .and_then(Value::as_str)
                .map(str::to_string);
            let reply = this.post_message(&inner, req, parsed.as_ref(), method.as_deref());
            inner
                .state
                .record(call_record(req, parsed.as_ref(), method, &reply));
            reply
        })
    }

    fn post_message(
        &self,
        inner: &Inner,
        req: &RecordedRequest,
        parsed: Option<&Value>,
        method: Option<&str>,
    ) -> Reply {
        if let Some(refusal) = guard::check(inner.spec.host_guard.as_ref(), req) {
            return refusal;
        }
        if let Some(challenge) = auth::check(inner.spec.auth.as_ref(), req) {
            return challenge;
        }
        let Some(session) = req
            .query()
            .into_iter()
            .flat_map(|q| q.split('&'))
            .find_map(|pair| pair.strip_prefix("sessionId="))
        else {
            return Reply::text("Missing sessionId parameter").with_status(400);
        };
        let tx = {
            let streams = self.streams.lock().unwrap_or_else(PoisonError::into_inner);
            streams.get(session).filter(|tx| !tx.is_closed()).cloned()
        };
        let Some(tx) = tx else {
            return Reply::text("Session not found").with_status(404);
        };
        let Some(message) = parsed.filter(|m| m.is_object()) else {
            return Reply::text("Invalid message").with_status(400);
        };
        let fault = inner.take_fault(method.unwrap_or(""), true);
        if let Some(reply) = fault.as_ref().and_then(Fault::replacement) {
            return reply;
        }
        let tweak = tweak_of(fault.as_ref());
        if let (Some(method), Some(id)) = (method, message.get("id")) {
            let outcome = answers::answer_2025(&inner.spec, method, message.get("params"), &tweak);
            let event = message_event(&answers::response(id.clone(), outcome), None, false);
            let delay = match fault {
                Some(Fault::Delay(d)) => d + self.answer_delay,
                _ => self.answer_delay,
            };
            send_later(tx, event.encode(), delay);
        }
        Reply::text("Accepted").with_status(202)
    }
}

/// Queues `bytes` on the stream now, or after `delay` from a task.
fn send_later(tx: mpsc::Sender<LivePiece>, bytes: Bytes, delay: Duration) {
    if delay.is_zero() {
        if tx.try_send(Ok(bytes)).is_err() {
            tracing::debug!("legacy SSE stream full or gone; answer dropped");
        }
        return;
    }
    tokio::spawn(async move {
        tokio::time::sleep(delay).await;
        let _ = tx.send(Ok(bytes)).await;
    });
}

impl Site {
    /// Mounts a legacy HTTP+SSE server: GET `sse_path` opens the stream, POST `sse_path` gets
    /// 405, POST on the messages path carries the messages.
    pub fn legacy_sse(self, sse_path: &str, server: &LegacySseServer) -> Self {
        self.route_method("GET", sse_path, server.sse_reply())
            .route_method(
                "POST",
                sse_path,
                Reply::text("Method Not Allowed")
                    .with_status(405)
                    .header("allow", "GET"),
            )
            .route_method("POST", &server.messages_path, server.messages_reply())
    }
}
