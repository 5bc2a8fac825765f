//! The probe's HTTP: a budget of at most 9 requests, https only, no credential or cookie (the
//! site client sends none and the probe adds none), every wait bounded by the probe's deadline,
//! which counts the server's time: our own waits (politeness, the host's turn) move it later.
//! Answers are read with the shared MCP client's reader, keeping the whole JSON-RPC message (an
//! error's `data` included) and the requests the server sent before it.

use http::header::{ACCEPT, ACCEPT_LANGUAGE};
use http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use mcpcensus_store::FailureKind;
use serde_json::Value;
use url::Url;

use crate::mcp::{challenge, read_answer, rpc_headers, EventStream, Framing};
use crate::net::content::media_type;
use crate::net::json::parse_json;
use crate::net::{
    Entry, FetchError, FetchHead, FetchRequest, Recorder, ServerDeadline, SiteClient, EXCERPT_BYTES,
};

/// Most bytes of one answer read (a long tool list needs more than the survey's 64 KB).
pub const PROBE_ANSWER_CAP: usize = 1024 * 1024;
/// Most bytes of one metadata document read.
pub const METADATA_CAP: usize = 64 * 1024;
/// Longest wait for one request.
pub const PROBE_REQUEST_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// One POST's answer.
#[derive(Debug, Clone)]
pub struct RpcRead {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub framing: Framing,
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
        challenge(&self.headers)
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
    /// No answer (connection, TLS, guard, ...): its kind and words.
    Failed(FailureKind, String),
}

impl Stop {
    pub fn describe(&self) -> String {
        match self {
            Stop::Budget => "the probe's 9 requests were spent".to_owned(),
            Stop::OutOfTime => "the probe's time ran out".to_owned(),
            Stop::NotHttps => "not an https URL: not requested".to_owned(),
            Stop::Failed(_, e) => e.clone(),
        }
    }

    /// The typed kind of the stop, for the request log.
    pub fn kind(&self) -> FailureKind {
        match self {
            // The deep probe's own limits: its budget is a refusal to send, its time a timeout.
            Stop::Budget => FailureKind::Refused,
            Stop::OutOfTime => FailureKind::Timeout,
            Stop::NotHttps => FailureKind::InvalidUrl,
            Stop::Failed(kind, _) => *kind,
        }
    }
}

/// The probe's connection to a site: counts and records every request.
#[derive(Debug)]
pub struct ProbeClient<'a> {
    client: &'a SiteClient,
    /// The probe's end, moved later by the client's waits (they are not the server's time).
    deadline: ServerDeadline,
    max_requests: usize,
    sent: usize,
    pub recorder: Recorder,
}

impl<'a> ProbeClient<'a> {
    pub fn new(client: &'a SiteClient, deadline: ServerDeadline, max_requests: usize) -> Self {
        Self {
            client,
            deadline,
            max_requests,
            sent: 0,
            recorder: Recorder::new(false),
        }
    }

    pub fn keep_exchanges(&mut self) {
        self.recorder.transcript.get_or_insert_with(Vec::new);
    }

    pub fn sent(&self) -> usize {
        self.sent
    }

    pub fn budget_left(&self) -> usize {
        self.max_requests - self.sent
    }

    /// The probe's deadline: read `at()` when a wait starts, never kept across a request.
    pub fn deadline(&self) -> &ServerDeadline {
        &self.deadline
    }

    /// Takes one request from the budget, or says why none may be sent.
    fn take(&mut self, url: &Url) -> Result<std::time::Duration, Stop> {
        if url.scheme() != "https" {
            return Err(Stop::NotHttps);
        }
        if self.sent >= self.max_requests {
            return Err(Stop::Budget);
        }
        let left = self.deadline.remaining();
        if left.is_zero() {
            return Err(Stop::OutOfTime);
        }
        self.sent += 1;
        Ok(left.min(PROBE_REQUEST_TIMEOUT))
    }

    /// Starts recording one request, its purpose marked as the probe's.
    fn start(&self, purpose: &str, req: &FetchRequest, body: &str) -> Entry {
        self.recorder.start(
            self.client,
            &format!("probe:{purpose}"),
            req.method.as_str(),
            &req.url,
            &req.headers,
            body,
        )
    }

    /// Sends `req` for its head within the probe's deadline; a failure is recorded.
    async fn head(&mut self, req: FetchRequest, entry: &mut Entry) -> Result<FetchHead, Stop> {
        // The request's own timeout leaves our waits out, and so does this outer bound.
        let stop = match self.deadline.run(self.client.fetch_head(req)).await {
            Some(Ok(head)) => return Ok(head),
            Some(Err(e)) => stop_of(&e),
            None => Stop::OutOfTime,
        };
        entry.failed(stop.kind(), stop.describe());
        Err(stop)
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
        let mut req = FetchRequest::post(url.clone(), body.clone())
            .body_cap(PROBE_ANSWER_CAP)
            .timeout(timeout);
        req.headers = rpc_headers();
        req.headers.extend(extra);
        let mut entry = self.start(purpose, &req, &body);
        let mut head = match self.head(req, &mut entry).await {
            Ok(head) => head,
            Err(stop) => {
                self.recorder.finish(entry);
                return Err(stop);
            }
        };
        entry.answered(head.status, &head.headers);
        let read = match id {
            Some(id) => {
                let cap = PROBE_ANSWER_CAP;
                read_answer(
                    &mut head.body,
                    &head.headers,
                    id,
                    cap,
                    EXCERPT_BYTES,
                    self.deadline.at(),
                )
                .await
                .map(|read| (read.framing, read.message, read.server_calls, read.excerpt))
            }
            None => {
                head.body.abort();
                Ok((Framing::Empty, None, Vec::new(), Vec::new()))
            }
        };
        let bytes = head.body.bytes_read() as u64;
        let result = match read {
            Ok((framing, answer, server_calls, excerpt)) => {
                entry.read_body(&excerpt, bytes);
                Ok(RpcRead {
                    status: head.status,
                    headers: head.headers,
                    framing,
                    answer,
                    server_calls,
                })
            }
            Err(e) => {
                entry.bytes(bytes);
                let stop = stop_of(&e);
                entry.failed(stop.kind(), stop.describe());
                Err(stop)
            }
        };
        self.recorder.finish(entry);
        result
    }

    /// GETs a JSON metadata document: its status and, when it parsed as a JSON object, the
    /// object.
    pub async fn get_json(
        &mut self,
        url: &Url,
        purpose: &str,
    ) -> Result<(StatusCode, Option<Value>), Stop> {
        let timeout = self.take(url)?;
        let mut req = FetchRequest::get(url.clone())
            .body_cap(METADATA_CAP)
            .timeout(timeout);
        req.headers = vec![
            (ACCEPT, HeaderValue::from_static("application/json")),
            (ACCEPT_LANGUAGE, HeaderValue::from_static("en")),
        ];
        let mut entry = self.start(purpose, &req, "");
        let outcome = match self.deadline.run(self.client.fetch(req)).await {
            Some(Ok(resp)) => {
                entry.answered(resp.status, &resp.headers);
                entry.read_body(&resp.body, resp.body.len() as u64);
                let doc = resp
                    .status
                    .is_success()
                    .then(|| parse_json(&resp.body).ok())
                    .flatten()
                    .filter(Value::is_object);
                Ok((resp.status, doc))
            }
            Some(Err(e)) => Err(stop_of(&e)),
            None => Err(Stop::OutOfTime),
        };
        if let Err(stop) = &outcome {
            entry.failed(stop.kind(), stop.describe());
        }
        self.recorder.finish(entry);
        outcome
    }

    /// GETs `url` asking for an event stream; the open stream when the answer is one.
    pub async fn open_stream(
        &mut self,
        url: &Url,
        purpose: &str,
    ) -> Result<Option<EventStream>, Stop> {
        let timeout = self.take(url)?;
        let mut req = FetchRequest::get(url.clone())
            .body_cap(PROBE_ANSWER_CAP)
            .timeout(timeout);
        req.headers = vec![
            (ACCEPT, HeaderValue::from_static("text/event-stream")),
            (ACCEPT_LANGUAGE, HeaderValue::from_static("en")),
        ];
        let mut entry = self.start(purpose, &req, "");
        let head = self.head(req, &mut entry).await;
        if let Ok(head) = &head {
            entry.answered(head.status, &head.headers);
        }
        self.recorder.finish(entry);
        let mut head = head?;
        if !head.status.is_success()
            || media_type(&head.headers).as_deref() != Some("text/event-stream")
        {
            head.body.abort();
            return Ok(None);
        }
        Ok(Some(EventStream::new(head.body, PROBE_ANSWER_CAP)))
    }
}

fn stop_of(e: &FetchError) -> Stop {
    match e {
        FetchError::Timeout { .. } => Stop::OutOfTime,
        other => Stop::Failed(other.failure_kind(), other.to_string()),
    }
}
