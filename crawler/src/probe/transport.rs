//! The probe's HTTP: a budget of at most 9 requests, https only, no credential or cookie (the
//! site client sends none and the probe adds none), every wait bounded by the probe's deadline.
//! Answers are read as JSON or as an event stream with seed 000's SSE parser, keeping the whole
//! JSON-RPC message (an error's `data` included) and the requests the server sent before it.

use bytes::BytesMut;
use http::header::{ACCEPT, ACCEPT_LANGUAGE, CONTENT_TYPE, WWW_AUTHENTICATE};
use http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use mcpcensus_store::{Header, RequestLog};
use serde_json::Value;
use tokio::time::Instant;
use url::Url;

use crate::net::{BodyReader, FetchError, FetchRequest, SiteClient};
use crate::session::{classify as classify_message, Exchange, Message, SseParser, EXCERPT_BYTES};

/// Most bytes of one answer read (a long tool list needs more than seed 000's 64 KB).
pub const PROBE_ANSWER_CAP: usize = 1024 * 1024;
/// Most bytes of one metadata document read.
pub const METADATA_CAP: usize = 64 * 1024;
/// Longest wait for one request.
pub const PROBE_REQUEST_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// What an answer's body was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyKind {
    Json,
    EventStream,
    /// Something else (HTML, text).
    Other,
    Empty,
}

/// One POST's answer.
#[derive(Debug, Clone)]
pub struct RpcRead {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub kind: BodyKind,
    /// The JSON-RPC message answering the request (or an error with a null id), whole.
    pub answer: Option<Value>,
    /// Methods of the requests the server sent before its answer (`roots/list`, ...).
    pub server_calls: Vec<String>,
}

impl RpcRead {
    /// `result`, when the answer is one.
    pub fn result(&self) -> Option<&Value> {
        self.answer.as_ref().and_then(|a| a.get("result"))
    }

    /// `error.code`, when the answer is an error.
    pub fn error_code(&self) -> Option<i64> {
        self.answer
            .as_ref()
            .and_then(|a| a.get("error"))
            .and_then(|e| e.get("code"))
            .and_then(Value::as_i64)
    }

    /// The `WWW-Authenticate` values joined, when any.
    pub fn challenge(&self) -> Option<String> {
        let values: Vec<String> = self
            .headers
            .get_all(WWW_AUTHENTICATE)
            .iter()
            .map(|v| String::from_utf8_lossy(v.as_bytes()).trim().to_owned())
            .filter(|v| !v.is_empty())
            .collect();
        (!values.is_empty()).then(|| values.join(", "))
    }

    /// 401 or 403: the server wants authentication.
    pub fn refused(&self) -> bool {
        matches!(
            self.status,
            StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN
        )
    }
}

/// Why the probe sent no (further) request or got no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// The 9 requests are spent.
    Budget,
    /// The probe's time ran out.
    OutOfTime,
    /// Not an https URL: never requested.
    NotHttps,
    /// No answer (connection, TLS, guard, ...).
    Failed(String),
}

impl Stop {
    pub fn describe(&self) -> String {
        match self {
            Stop::Budget => "the probe's 9 requests were spent".to_owned(),
            Stop::OutOfTime => "the probe's time ran out".to_owned(),
            Stop::NotHttps => "not an https URL: not requested".to_owned(),
            Stop::Failed(e) => e.clone(),
        }
    }
}

/// The probe's connection to a site: counts and logs every request.
#[derive(Debug)]
pub struct ProbeClient<'a> {
    client: &'a SiteClient,
    deadline: Instant,
    max_requests: usize,
    sent: usize,
    pub requests: Vec<RequestLog>,
    pub exchanges: Option<Vec<Exchange>>,
}

impl<'a> ProbeClient<'a> {
    pub fn new(client: &'a SiteClient, deadline: Instant, max_requests: usize) -> Self {
        Self {
            client,
            deadline,
            max_requests,
            sent: 0,
            requests: Vec::new(),
            exchanges: None,
        }
    }

    pub fn keep_exchanges(&mut self) {
        self.exchanges.get_or_insert_with(Vec::new);
    }

    pub fn sent(&self) -> usize {
        self.sent
    }

    pub fn budget_left(&self) -> usize {
        self.max_requests - self.sent
    }

    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    /// Takes one request from the budget, or says why none may be sent.
    fn take(&mut self, url: &Url) -> Result<std::time::Duration, Stop> {
        if url.scheme() != "https" {
            return Err(Stop::NotHttps);
        }
        if self.sent >= self.max_requests {
            return Err(Stop::Budget);
        }
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(Stop::OutOfTime);
        }
        self.sent += 1;
        Ok(left.min(PROBE_REQUEST_TIMEOUT))
    }

    fn log(
        &mut self,
        method: &str,
        url: &Url,
        purpose: &str,
        started: Instant,
        head: Option<(StatusCode, &HeaderMap, u64)>,
        error: Option<String>,
    ) {
        let status = head.map(|h| h.0);
        let bytes = head.map_or(0, |h| h.2);
        let kept = head
            .map(|(_, h, _)| {
                [CONTENT_TYPE, WWW_AUTHENTICATE]
                    .iter()
                    .flat_map(|name| {
                        h.get_all(name).iter().map(move |v| Header {
                            name: name.to_string(),
                            value: String::from_utf8_lossy(v.as_bytes())
                                .chars()
                                .take(1024)
                                .collect(),
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        self.requests.push(RequestLog {
            method: method.to_owned(),
            url: url.to_string(),
            purpose: format!("probe:{purpose}"),
            status: status.map(|s| s.as_u16()),
            bytes,
            ms: u32::try_from(started.elapsed().as_millis()).unwrap_or(u32::MAX),
            error,
            headers: kept,
        });
    }

    fn exchange(
        &self,
        purpose: &str,
        method: &str,
        url: &Url,
        headers: &[(HeaderName, HeaderValue)],
        body: &str,
    ) -> Option<Exchange> {
        self.exchanges.as_ref()?;
        Some(Exchange::request(
            &format!("probe:{purpose}"),
            method,
            url.as_str(),
            &self.client.outgoing_headers(headers),
            body.to_owned(),
        ))
    }

    fn push_exchange(&mut self, ex: Option<Exchange>) {
        if let (Some(ex), Some(all)) = (ex, self.exchanges.as_mut()) {
            all.push(ex);
        }
    }

    /// POSTs one JSON-RPC message and reads the answer to `id` (`None`: a notification, whose
    /// body is not read).
    pub async fn post(
        &mut self,
        url: &Url,
        purpose: &str,
        extra: Vec<(HeaderName, HeaderValue)>,
        body: String,
        id: Option<u64>,
    ) -> Result<RpcRead, Stop> {
        let timeout = self.take(url)?;
        let mut headers = vec![
            (ACCEPT_LANGUAGE, HeaderValue::from_static("en")),
            (
                ACCEPT,
                HeaderValue::from_static("application/json, text/event-stream"),
            ),
            (CONTENT_TYPE, HeaderValue::from_static("application/json")),
        ];
        headers.extend(extra);
        let mut ex = self.exchange(purpose, "POST", url, &headers, &body);
        let mut req = FetchRequest::post(url.clone(), body)
            .body_cap(PROBE_ANSWER_CAP)
            .timeout(timeout);
        req.headers = headers;
        let started = Instant::now();
        let head = match tokio::time::timeout_at(self.deadline, self.client.fetch_head(req)).await {
            Ok(Ok(head)) => head,
            Ok(Err(e)) => {
                let stop = stop_of(&e);
                self.log("POST", url, purpose, started, None, Some(stop.describe()));
                if let Some(ex) = ex.as_mut() {
                    ex.error = Some(stop.describe());
                }
                self.push_exchange(ex);
                return Err(stop);
            }
            Err(_) => {
                self.log(
                    "POST",
                    url,
                    purpose,
                    started,
                    None,
                    Some(Stop::OutOfTime.describe()),
                );
                self.push_exchange(ex);
                return Err(Stop::OutOfTime);
            }
        };
        let mut head = head;
        if let Some(ex) = ex.as_mut() {
            ex.answered(head.status, &head.headers);
        }
        let read = match id {
            Some(id) => read_rpc(&mut head.body, &head.headers, id, self.deadline).await,
            None => {
                head.body.abort();
                Ok((BodyKind::Empty, None, Vec::new(), Vec::new()))
            }
        };
        let bytes = head.body.bytes_read() as u64;
        match read {
            Ok((kind, answer, server_calls, excerpt)) => {
                self.log(
                    "POST",
                    url,
                    purpose,
                    started,
                    Some((head.status, &head.headers, bytes)),
                    None,
                );
                if let Some(ex) = ex.as_mut() {
                    ex.read_body(&excerpt, bytes);
                }
                self.push_exchange(ex);
                Ok(RpcRead {
                    status: head.status,
                    headers: head.headers,
                    kind,
                    answer,
                    server_calls,
                })
            }
            Err(e) => {
                let stop = stop_of(&e);
                self.log(
                    "POST",
                    url,
                    purpose,
                    started,
                    Some((head.status, &head.headers, bytes)),
                    Some(stop.describe()),
                );
                self.push_exchange(ex);
                Err(stop)
            }
        }
    }

    /// GETs a JSON metadata document: its status and, when it parsed as a JSON object, the
    /// object.
    pub async fn get_json(
        &mut self,
        url: &Url,
        purpose: &str,
    ) -> Result<(StatusCode, Option<Value>), Stop> {
        let timeout = self.take(url)?;
        let headers = vec![
            (ACCEPT, HeaderValue::from_static("application/json")),
            (ACCEPT_LANGUAGE, HeaderValue::from_static("en")),
        ];
        let mut ex = self.exchange(purpose, "GET", url, &headers, "");
        let mut req = FetchRequest::get(url.clone())
            .body_cap(METADATA_CAP)
            .timeout(timeout);
        req.headers = headers;
        let started = Instant::now();
        match tokio::time::timeout_at(self.deadline, self.client.fetch(req)).await {
            Ok(Ok(resp)) => {
                self.log(
                    "GET",
                    url,
                    purpose,
                    started,
                    Some((resp.status, &resp.headers, resp.body.len() as u64)),
                    None,
                );
                if let Some(ex) = ex.as_mut() {
                    ex.answered(resp.status, &resp.headers);
                    ex.read_body(
                        &resp.body[..resp.body.len().min(EXCERPT_BYTES)],
                        resp.body.len() as u64,
                    );
                }
                self.push_exchange(ex);
                let doc = resp
                    .status
                    .is_success()
                    .then(|| serde_json::from_slice::<Value>(&resp.body).ok())
                    .flatten()
                    .filter(Value::is_object);
                Ok((resp.status, doc))
            }
            Ok(Err(e)) => {
                let stop = stop_of(&e);
                self.log("GET", url, purpose, started, None, Some(stop.describe()));
                self.push_exchange(ex);
                Err(stop)
            }
            Err(_) => {
                self.log(
                    "GET",
                    url,
                    purpose,
                    started,
                    None,
                    Some(Stop::OutOfTime.describe()),
                );
                self.push_exchange(ex);
                Err(Stop::OutOfTime)
            }
        }
    }

    /// GETs `url` asking for an event stream; the open stream when the answer is one.
    pub async fn open_stream(
        &mut self,
        url: &Url,
        purpose: &str,
    ) -> Result<Option<EventStream>, Stop> {
        let timeout = self.take(url)?;
        let headers = vec![
            (ACCEPT, HeaderValue::from_static("text/event-stream")),
            (ACCEPT_LANGUAGE, HeaderValue::from_static("en")),
        ];
        let mut ex = self.exchange(purpose, "GET", url, &headers, "");
        let mut req = FetchRequest::get(url.clone())
            .body_cap(PROBE_ANSWER_CAP)
            .timeout(timeout);
        req.headers = headers;
        let started = Instant::now();
        let head = match tokio::time::timeout_at(self.deadline, self.client.fetch_head(req)).await {
            Ok(Ok(head)) => head,
            Ok(Err(e)) => {
                let stop = stop_of(&e);
                self.log("GET", url, purpose, started, None, Some(stop.describe()));
                self.push_exchange(ex);
                return Err(stop);
            }
            Err(_) => {
                self.log(
                    "GET",
                    url,
                    purpose,
                    started,
                    None,
                    Some(Stop::OutOfTime.describe()),
                );
                self.push_exchange(ex);
                return Err(Stop::OutOfTime);
            }
        };
        self.log(
            "GET",
            url,
            purpose,
            started,
            Some((head.status, &head.headers, 0)),
            None,
        );
        if let Some(ex) = ex.as_mut() {
            ex.answered(head.status, &head.headers);
        }
        self.push_exchange(ex);
        let mut head = head;
        if !head.status.is_success()
            || crate::session::media_type(&head.headers) != "text/event-stream"
        {
            head.body.abort();
            return Ok(None);
        }
        Ok(Some(EventStream {
            body: head.body,
            parser: SseParser::new(PROBE_ANSWER_CAP),
            pending: Vec::new(),
        }))
    }
}

/// An open event stream (the legacy HTTP+SSE transport's GET).
#[derive(Debug)]
pub struct EventStream {
    body: BodyReader,
    parser: SseParser,
    pending: Vec<crate::session::SseEvent>,
}

impl EventStream {
    /// The next event, waiting at most until `deadline`.
    pub async fn next_event(&mut self, deadline: Instant) -> Option<crate::session::SseEvent> {
        if self.body.deadline() > deadline {
            self.body.set_deadline(deadline);
        }
        loop {
            if !self.pending.is_empty() {
                return Some(self.pending.remove(0));
            }
            match tokio::time::timeout_at(deadline, self.body.chunk()).await {
                Ok(Ok(Some(chunk))) => self.pending.extend(self.parser.feed(&chunk)),
                _ => return self.parser.finish(),
            }
        }
    }

    /// The JSON-RPC message answering `id` on the stream, and the server's requests before it.
    pub async fn answer(&mut self, id: u64, deadline: Instant) -> (Option<Value>, Vec<String>) {
        let mut calls = Vec::new();
        while let Some(event) = self.next_event(deadline).await {
            if !event.is_message() {
                continue;
            }
            let Ok(value) = serde_json::from_str::<Value>(&event.data) else {
                continue;
            };
            if let Some(method) = server_call(&value) {
                calls.push(method);
            } else if answers(&value, id) {
                return (Some(value), calls);
            }
        }
        (None, calls)
    }

    pub fn close(mut self) {
        self.body.abort();
    }
}

fn stop_of(e: &FetchError) -> Stop {
    match e {
        FetchError::Timeout { .. } => Stop::OutOfTime,
        other => Stop::Failed(other.to_string()),
    }
}

/// The method of a request the server sent (a message with a method and an id).
fn server_call(value: &Value) -> Option<String> {
    match classify_message(value) {
        Message::Call if value.get("id").is_some_and(|id| !id.is_null()) => value
            .get("method")
            .and_then(Value::as_str)
            .map(str::to_owned),
        _ => None,
    }
}

/// True when `value` is a response to `id`, or an error with a null id.
fn answers(value: &Value, id: u64) -> bool {
    match classify_message(value) {
        Message::Result { id: got, .. } => got.as_u64() == Some(id),
        Message::Error { id: got, .. } => got.is_null() || got.as_u64() == Some(id),
        _ => false,
    }
}

type Read = (BodyKind, Option<Value>, Vec<String>, Vec<u8>);

/// Reads the answer to `id`: JSON (one message or a batch) or an event stream, stopping as soon
/// as the answer is complete.
async fn read_rpc(
    body: &mut BodyReader,
    headers: &HeaderMap,
    id: u64,
    deadline: Instant,
) -> Result<Read, FetchError> {
    if body.deadline() > deadline {
        body.set_deadline(deadline);
    }
    let labelled_sse = crate::session::media_type(headers) == "text/event-stream";
    let mut raw = BytesMut::new();
    let mut parser: Option<SseParser> = None;
    let mut calls = Vec::new();
    let mut excerpt = Vec::new();
    loop {
        let Some(chunk) = body.chunk().await? else {
            break;
        };
        if excerpt.len() < EXCERPT_BYTES {
            let take = chunk.len().min(EXCERPT_BYTES - excerpt.len());
            excerpt.extend_from_slice(&chunk[..take]);
        }
        if let Some(p) = parser.as_mut() {
            for event in p.feed(&chunk) {
                if let Some(found) = sse_answer(&event, id, &mut calls) {
                    body.abort();
                    return Ok((BodyKind::EventStream, Some(found), calls, excerpt));
                }
            }
            continue;
        }
        raw.extend_from_slice(&chunk);
        let text = raw.trim_ascii_start();
        let Some(&first) = text.first() else {
            continue;
        };
        if first != b'{' && first != b'[' && (labelled_sse || starts_like_sse(text)) {
            let mut p = SseParser::new(PROBE_ANSWER_CAP);
            let events = p.feed(&raw);
            raw = BytesMut::new();
            for event in events {
                if let Some(found) = sse_answer(&event, id, &mut calls) {
                    body.abort();
                    return Ok((BodyKind::EventStream, Some(found), calls, excerpt));
                }
            }
            parser = Some(p);
        } else if matches!(first, b'{' | b'[')
            && matches!(text.trim_ascii_end().last(), Some(b'}' | b']'))
        {
            // A complete JSON value ends the read, whether or not the body goes on.
            if let Ok(value) = serde_json::from_slice::<Value>(text) {
                body.abort();
                return Ok((BodyKind::Json, answer_in_value(value, id), calls, excerpt));
            }
        }
    }
    if let Some(mut p) = parser {
        let found = p
            .finish()
            .and_then(|event| sse_answer(&event, id, &mut calls));
        return Ok((BodyKind::EventStream, found, calls, excerpt));
    }
    let text = raw.trim_ascii();
    if text.is_empty() {
        return Ok((BodyKind::Empty, None, calls, excerpt));
    }
    match serde_json::from_slice::<Value>(text) {
        Ok(value) => Ok((BodyKind::Json, answer_in_value(value, id), calls, excerpt)),
        Err(_) => Ok((BodyKind::Other, None, calls, excerpt)),
    }
}

/// The message answering `id` in a JSON body: the value itself, or an item of a batch.
fn answer_in_value(value: Value, id: u64) -> Option<Value> {
    match value {
        Value::Array(items) => items.into_iter().find(|v| answers(v, id)),
        single => answers(&single, id).then_some(single),
    }
}

fn sse_answer(event: &crate::session::SseEvent, id: u64, calls: &mut Vec<String>) -> Option<Value> {
    if !event.is_message() {
        return None;
    }
    let value: Value = serde_json::from_str(&event.data).ok()?;
    if let Some(method) = server_call(&value) {
        calls.push(method);
        return None;
    }
    answers(&value, id).then_some(value)
}

fn starts_like_sse(start: &[u8]) -> bool {
    [&b":"[..], b"data:", b"event:", b"id:", b"retry:"]
        .iter()
        .any(|field| start.starts_with(field))
}
