//! The capped session itself: at most three POSTs within 12 s, never a redirect followed.
//!
//! Seed 000: "the scan opens one MCP session over Streamable HTTP with at most 3 POST requests:
//! initialize, offering protocol version 2025-11-25 and accepting the version the server
//! answers; the notifications/initialized notification; and tools/list, sent only when the
//! server declares the tools capability. Each later request echoes the Mcp-Session-Id the server
//! issued and sends MCP-Protocol-Version." Nothing else is ever sent: no other method, no GET to
//! resume a stream, no DELETE to end the session.

use std::num::NonZeroUsize;
use std::time::Duration;

use http::header::{ACCEPT, ACCEPT_LANGUAGE, ALLOW, CONTENT_TYPE, LOCATION, WWW_AUTHENTICATE};
use http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use mcpcensus_store::{Header, Outcome, RequestLog};
use serde_json::Value;
use tokio::time::Instant;
use url::Url;

use super::answer::{read_answer, read_excerpt};
use super::jsonrpc::{
    initialize_body, initialized_body, tools_list_body, INITIALIZE_ID, OFFERED_PROTOCOL_VERSION,
    TOOLS_LIST_ID,
};
use super::report::{Exchange, SessionReport};
use super::tools::{canonical_json, read_tools};
use super::verdict::{judge, Decision, Judged, Reply, Step};
use crate::net::{FetchError, FetchRequest, SiteClient, TimeoutPhase};

/// Time for the whole session (seed 000: "The session has 12 s in all").
pub const SESSION_BUDGET: Duration = Duration::from_secs(12);
/// Most bytes of one answer read (seed 000: "up to 64 KB").
pub const ANSWER_CAP: usize = 64 * 1024;
/// Default cap on the tools kept in `tool_names` and `tools`.
pub const DEFAULT_TOOLS_CAP: NonZeroUsize = match NonZeroUsize::new(200) {
    Some(cap) => cap,
    None => NonZeroUsize::MIN,
};
/// Bytes of each answer kept in an [`Exchange`].
pub const EXCERPT_BYTES: usize = 2 * 1024;
/// Longest wait for an excerpt of an answer whose status alone decided (`--explain` only).
const EXCERPT_WAIT: Duration = Duration::from_secs(1);

/// `MCP-Session-Id` (header names are case-insensitive; 2025-03-26 wrote `Mcp-Session-Id`).
pub const MCP_SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");
/// `MCP-Protocol-Version`.
pub const MCP_PROTOCOL_VERSION: HeaderName = HeaderName::from_static("mcp-protocol-version");

/// The request log's error when the session's time ran out before an answer's head.
const OUT_OF_TIME: &str = "the session's time ran out before the answer";
/// Headers kept in each request log.
const LOGGED_HEADERS: [HeaderName; 5] = [
    CONTENT_TYPE,
    MCP_SESSION_ID,
    WWW_AUTHENTICATE,
    LOCATION,
    ALLOW,
];
/// Longest header value kept in a request log.
const LOGGED_HEADER_MAX: usize = 1024;

/// How a session runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionOptions {
    /// Tools kept in `tool_names` and `tools` (the first 25 are always in `tool_names_seed`).
    pub tools_cap: NonZeroUsize,
    /// Keep every request and answer in full for `mcpcensus check --explain`.
    pub keep_exchanges: bool,
    /// Time for the whole session: [`SESSION_BUDGET`] as the seed sets it; tests shorten it.
    pub budget: Duration,
}

impl Default for SessionOptions {
    fn default() -> Self {
        Self {
            tools_cap: DEFAULT_TOOLS_CAP,
            keep_exchanges: false,
            budget: SESSION_BUDGET,
        }
    }
}

/// True when a session may be opened: at least [`SESSION_BUDGET`] is left before the site's
/// deadline (seed 000: "it is opened only when the scan has that long left before its
/// deadline, so a slow server never cuts the scan short").
pub fn can_open(now: Instant, site_deadline: Instant) -> bool {
    fits(now, site_deadline, SESSION_BUDGET)
}

fn fits(now: Instant, site_deadline: Instant, budget: Duration) -> bool {
    site_deadline.saturating_duration_since(now) >= budget
}

/// Runs the session against `endpoint`. `site_deadline` is the scan's deadline for the site: when
/// it leaves less than the session's budget, nothing is sent and the verdict is not measured.
pub async fn run_session(
    client: &SiteClient,
    endpoint: &Url,
    opts: &SessionOptions,
    site_deadline: Instant,
) -> SessionReport {
    let now = Instant::now();
    let mut session = Session {
        client,
        endpoint,
        opts,
        deadline: now + opts.budget,
        session_id: None,
        version: HeaderValue::from_static(OFFERED_PROTOCOL_VERSION),
        report: SessionReport::new(),
    };
    if !fits(now, site_deadline, opts.budget) {
        return session.finish(Decision::too_little_time(opts.budget));
    }
    let decision = session.run().await;
    session.finish(decision)
}

struct Session<'a> {
    client: &'a SiteClient,
    endpoint: &'a Url,
    opts: &'a SessionOptions,
    /// The end of the session's budget.
    deadline: Instant,
    /// The `Mcp-Session-Id` to echo, when the server issued one.
    session_id: Option<HeaderValue>,
    /// The `MCP-Protocol-Version` to send after `initialize`.
    version: HeaderValue,
    report: SessionReport,
}

impl Session<'_> {
    async fn run(&mut self) -> Decision {
        let init = match self.step(Step::Initialize, initialize_body()).await {
            Judged::Decided(decision) => return decision,
            Judged::Proceed(result) => result.unwrap_or(Value::Null),
        };
        let declares_tools = self.learn(&init);

        if let Judged::Decided(decision) = self
            .step(Step::Initialized, initialized_body().to_owned())
            .await
        {
            return decision;
        }
        if !declares_tools {
            return Decision::no_tools_capability();
        }

        let result = match self.step(Step::ToolsList, tools_list_body()).await {
            Judged::Decided(decision) => return decision,
            Judged::Proceed(result) => result.unwrap_or(Value::Null),
        };
        let list = read_tools(&result, self.opts.tools_cap.get());
        let report = &mut self.report;
        report.tool_count = Some(u32::try_from(list.count).unwrap_or(u32::MAX));
        report.tool_names = list.names();
        report.tool_names_seed = list.seed_names();
        report.tools = list.tools;
        if list.count == 0 {
            Decision::empty_tool_list()
        } else {
            Decision::pass(list.count, report.protocol_version.as_deref())
        }
    }

    /// Keeps what the `initialize` result says; returns whether it declares the tools capability.
    fn learn(&mut self, result: &Value) -> bool {
        let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_owned);
        let report = &mut self.report;
        report.protocol_version = text(result.get("protocolVersion"));
        let info = result.get("serverInfo");
        report.server_name = text(info.and_then(|i| i.get("name")));
        report.server_version = text(info.and_then(|i| i.get("version")));
        let capabilities = result.get("capabilities").filter(|c| !c.is_null());
        report.capabilities = capabilities.map(canonical_json);
        // "Accepting the version the server answers": whatever it names is sent back; a server
        // that names none (or one that cannot be a header) gets the version we offered.
        if let Some(version) = report
            .protocol_version
            .as_deref()
            .and_then(|v| HeaderValue::from_str(v).ok())
        {
            self.version = version;
        }
        // `"tools": {}` declares it; an absent, null or false member does not.
        capabilities
            .and_then(|c| c.get("tools"))
            .is_some_and(|t| !matches!(t, Value::Null | Value::Bool(false)))
    }

    fn finish(mut self, decision: Decision) -> SessionReport {
        tracing::debug!(
            outcome = decision.outcome.as_str(),
            defect = decision.defect,
            requests = self.report.requests.len(),
            "mcp session done"
        );
        self.report.outcome = decision.outcome;
        self.report.reason = decision.reason;
        self.report.defect = decision.defect;
        if decision.outcome != Outcome::Partial {
            // The challenge is kept only when it made the verdict.
            self.report.auth_challenge = None;
        }
        self.report
    }

    /// Sends one request, reads its answer as the step requires, logs it and judges it.
    async fn step(&mut self, step: Step, body: String) -> Judged {
        let reply = self.exchange(step, body).await;
        judge(step, &reply, self.opts.budget)
    }

    fn headers(&self, step: Step) -> Vec<(HeaderName, HeaderValue)> {
        let mut headers = vec![
            (ACCEPT_LANGUAGE, HeaderValue::from_static("en")),
            (
                ACCEPT,
                HeaderValue::from_static("application/json, text/event-stream"),
            ),
            (CONTENT_TYPE, HeaderValue::from_static("application/json")),
        ];
        if step != Step::Initialize {
            headers.push((MCP_PROTOCOL_VERSION, self.version.clone()));
            if let Some(id) = &self.session_id {
                headers.push((MCP_SESSION_ID, id.clone()));
            }
        }
        headers
    }

    async fn exchange(&mut self, step: Step, body: String) -> Reply {
        let headers = self.headers(step);
        let mut exchange = self.opts.keep_exchanges.then(|| {
            Exchange::request(
                step.method(),
                "POST",
                self.endpoint.as_str(),
                &self.client.outgoing_headers(&headers),
                body.clone(),
            )
        });
        let started = Instant::now();
        let remaining = self.deadline.saturating_duration_since(started);
        if remaining.is_zero() {
            return Reply::OutOfTime; // nothing is sent without time to read its answer
        }
        let mut request = FetchRequest::post(self.endpoint.clone(), body)
            .body_cap(ANSWER_CAP)
            .timeout(remaining);
        request.headers = headers;
        let mut log = RequestLog {
            method: "POST".to_owned(),
            url: self.endpoint.to_string(),
            purpose: step.method().to_owned(),
            ..RequestLog::default()
        };

        // The outer deadline also covers the client's politeness wait, which its own request
        // timeout does not count.
        let head =
            match tokio::time::timeout_at(self.deadline, self.client.fetch_head(request)).await {
                Ok(Ok(head)) => head,
                Ok(Err(err)) => {
                    let reply = match err {
                        FetchError::Timeout {
                            phase: TimeoutPhase::Headers | TimeoutPhase::Body,
                            ..
                        } => {
                            // The request's timeout is the session's remaining time: the same
                            // event as the outer deadline below, whichever timer fires first.
                            log.error = Some(OUT_OF_TIME.to_owned());
                            Reply::OutOfTime
                        }
                        err => {
                            log.error = Some(err.to_string());
                            Reply::NoAnswer(err)
                        }
                    };
                    return self.record(log, exchange, started, reply);
                }
                Err(_) => {
                    log.error = Some(OUT_OF_TIME.to_owned());
                    return self.record(log, exchange, started, Reply::OutOfTime);
                }
            };
        let mut head = head;
        let status = head.status;
        log.status = Some(status.as_u16());
        log.headers = logged_headers(&head.headers);
        if let Some(ex) = exchange.as_mut() {
            ex.answered(status, &head.headers);
        }
        let challenge = (status == StatusCode::UNAUTHORIZED)
            .then(|| challenge(&head.headers))
            .flatten();
        if step == Step::Initialize {
            self.take_session_id(&head.headers);
            self.report.auth_challenge.clone_from(&challenge);
        } else if challenge.is_some() {
            self.report.auth_challenge.clone_from(&challenge);
        }

        let body = if step == Step::Initialized {
            // Only the status and the headers: dropping the body releases the connection.
            None
        } else if decided_by_status(status) {
            if let Some(ex) = exchange.as_mut() {
                let wait = self.deadline.min(Instant::now() + EXCERPT_WAIT);
                let excerpt = read_excerpt(&mut head.body, EXCERPT_BYTES, wait).await;
                ex.body_excerpt = String::from_utf8_lossy(&excerpt).into_owned();
                ex.body_read = true;
            }
            None
        } else {
            let id = if step == Step::Initialize {
                INITIALIZE_ID
            } else {
                TOOLS_LIST_ID
            };
            let excerpt_cap = if exchange.is_some() { EXCERPT_BYTES } else { 0 };
            let read = read_answer(
                &mut head.body,
                &head.headers,
                id,
                ANSWER_CAP,
                excerpt_cap,
                self.deadline,
            )
            .await;
            log.bytes = head.body.bytes_read() as u64;
            match read {
                Ok(answer) => {
                    if let Some(ex) = exchange.as_mut() {
                        ex.body_excerpt = String::from_utf8_lossy(&answer.excerpt).into_owned();
                        ex.body_read = true;
                    }
                    Some(answer.body)
                }
                // An error status fails on its status alone; its body only refines the reason.
                Err(err) if !status.is_success() => {
                    log.error = Some(err.to_string());
                    None
                }
                Err(err) => {
                    log.error = Some(err.to_string());
                    let reply = match err {
                        FetchError::Timeout { .. } => Reply::OutOfTime,
                        err => Reply::Broken(err),
                    };
                    return self.record(log, exchange, started, reply);
                }
            }
        };
        log.bytes = head.body.bytes_read() as u64;
        drop(head);
        let reply = Reply::Answered {
            status,
            challenge,
            body,
        };
        self.record(log, exchange, started, reply)
    }

    fn record(
        &mut self,
        mut log: RequestLog,
        exchange: Option<Exchange>,
        started: Instant,
        reply: Reply,
    ) -> Reply {
        log.ms = u32::try_from(started.elapsed().as_millis()).unwrap_or(u32::MAX);
        tracing::debug!(
            purpose = log.purpose.as_str(),
            status = log.status,
            ms = log.ms,
            "mcp session request"
        );
        if let Some(mut ex) = exchange {
            ex.error.clone_from(&log.error);
            ex.body_bytes = log.bytes;
            self.report.exchanges.push(ex);
        }
        self.report.requests.push(log);
        reply
    }

    /// Keeps the `Mcp-Session-Id` of the `initialize` answer to echo on later requests.
    fn take_session_id(&mut self, headers: &HeaderMap) {
        let Some(id) = headers.get(&MCP_SESSION_ID) else {
            return;
        };
        if id.as_bytes().is_empty() {
            return;
        }
        self.report.session_id_issued = true;
        self.session_id = Some(id.clone());
    }
}

/// Statuses whose verdict needs no body: redirects, 401, 403, 429 and 5xx.
fn decided_by_status(status: StatusCode) -> bool {
    status.is_redirection()
        || status == StatusCode::UNAUTHORIZED
        || status == StatusCode::FORBIDDEN
        || status == StatusCode::TOO_MANY_REQUESTS
        || status.is_server_error()
}

/// Every `WWW-Authenticate` value joined, when there is a non-empty one.
fn challenge(headers: &HeaderMap) -> Option<String> {
    let values: Vec<String> = headers
        .get_all(WWW_AUTHENTICATE)
        .iter()
        .map(|v| String::from_utf8_lossy(v.as_bytes()).trim().to_owned())
        .filter(|v| !v.is_empty())
        .collect();
    (!values.is_empty()).then(|| values.join(", "))
}

fn logged_headers(headers: &HeaderMap) -> Vec<Header> {
    LOGGED_HEADERS
        .iter()
        .flat_map(|name| {
            headers.get_all(name).iter().map(move |value| Header {
                name: name.to_string(),
                value: clip(
                    &String::from_utf8_lossy(value.as_bytes()),
                    LOGGED_HEADER_MAX,
                ),
            })
        })
        .collect()
}

/// At most `max` bytes of `text`, cut at a character boundary.
fn clip(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_owned()
}
