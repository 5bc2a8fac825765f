//! The capped session itself: at most three POSTs within 12 s, never a redirect followed.
//!
//! The survey: "the scan opens one MCP session over Streamable HTTP with at most 3 POST requests:
//! initialize, offering protocol version 2025-11-25 and accepting the version the server
//! answers; the notifications/initialized notification; and tools/list, sent only when the
//! server declares the tools capability. Each later request echoes the Mcp-Session-Id the server
//! issued and sends MCP-Protocol-Version." Nothing else is ever sent: no other method, no GET to
//! resume a stream, no DELETE to end the session.

use std::num::NonZeroUsize;
use std::time::Duration;

use http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use mcpcensus_store::{FailureKind, FirstToolNames, Outcome, FIRST_TOOL_NAMES};
use serde_json::Value;
use tokio::time::Instant;
use url::Url;

use super::judge::{self, judge, Judged, Reply, Step};
use super::report::SessionReport;
use super::requests::{
    initialize_body, initialized_body, tools_list_body, INITIALIZE_ID, OFFERED_PROTOCOL_VERSION,
    TOOLS_LIST_ID,
};
use super::tools::{canonical_json, names_in_cut_list, read_tools};
use crate::mcp::Body;
use crate::mcp::{
    challenge, read_answer, read_excerpt, rpc_headers, MCP_PROTOCOL_VERSION, MCP_SESSION_ID,
};
use crate::net::{
    Entry, FetchError, FetchHead, FetchRequest, Recorder, ServerDeadline, SiteClient, TimeoutPhase,
    EXCERPT_BYTES,
};
use crate::verdict::Verdict;

/// Time for the whole session (the survey: "The session has 12 s in all").
pub const SESSION_BUDGET: Duration = Duration::from_secs(12);
/// Most bytes of one answer read (the survey: "up to 64 KB").
pub const ANSWER_CAP: usize = 64 * 1024;
// HTTP/2 lets a server send a stream's window before the client reads: no more than the cap.
const _: () = assert!(crate::net::H2_STREAM_WINDOW as usize <= ANSWER_CAP);
/// Default cap on the tools kept in `tool_names` and `tools`.
pub const DEFAULT_TOOLS_CAP: NonZeroUsize = match NonZeroUsize::new(200) {
    Some(cap) => cap,
    None => NonZeroUsize::MIN,
};
/// Longest wait for an excerpt of an answer whose status alone decided (`--explain` only).
const EXCERPT_WAIT: Duration = Duration::from_secs(1);

/// The request log's error when the session's time ran out before an answer's head.
const OUT_OF_TIME: &str = "the session's time ran out before the answer";

/// How a session runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionOptions {
    /// Tools kept in `tool_names` and `tools` (the first 25 are always in `tool_names_first_25`).
    pub tools_cap: NonZeroUsize,
    /// Keep every request and answer in full for `mcpcensus check --explain`.
    pub keep_exchanges: bool,
    /// Time for the whole session: [`SESSION_BUDGET`] as the survey sets it; tests shorten it.
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
/// deadline (the survey: "it is opened only when the scan has that long left before its
/// deadline, so a slow server never cuts the scan short").
pub fn can_open(now: Instant, site_deadline: Instant) -> bool {
    fits(now, site_deadline, SESSION_BUDGET)
}

fn fits(now: Instant, site_deadline: Instant, budget: Duration) -> bool {
    site_deadline.saturating_duration_since(now) >= budget
}

/// Runs the session against `endpoint`. `site_deadline` is the scan's deadline for the site
/// (counting `client`'s waits): when it leaves less than the session's budget, nothing is sent
/// and the verdict is not measured.
pub async fn run_session(
    client: &SiteClient,
    endpoint: &Url,
    opts: &SessionOptions,
    site_deadline: &ServerDeadline,
) -> SessionReport {
    let mut session = Session {
        client,
        endpoint,
        opts,
        deadline: site_deadline.within(opts.budget),
        session_id: None,
        version: HeaderValue::from_static(OFFERED_PROTOCOL_VERSION),
        report: SessionReport::new(),
        recorder: Recorder::new(opts.keep_exchanges),
    };
    if !fits(Instant::now(), site_deadline.at(), opts.budget) {
        return session.finish(judge::too_little_time(opts.budget));
    }
    let decision = session.run().await;
    session.finish(decision)
}

struct Session<'a> {
    client: &'a SiteClient,
    endpoint: &'a Url,
    opts: &'a SessionOptions,
    /// The end of the session's budget, moved by our own waits since it started (they are
    /// not the server's time).
    deadline: ServerDeadline,
    /// The `Mcp-Session-Id` to echo, when the server issued one.
    session_id: Option<HeaderValue>,
    /// The `MCP-Protocol-Version` to send after `initialize`.
    version: HeaderValue,
    report: SessionReport,
    recorder: Recorder,
}

impl Session<'_> {
    async fn run(&mut self) -> Verdict {
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
            return judge::no_tools_capability();
        }

        let result = match self.step(Step::ToolsList, tools_list_body()).await {
            Judged::Decided(mut decision) => {
                let read = self.report.tool_names.len();
                if read > 0 && decision.kind == Some(FailureKind::BodyCap) {
                    decision
                        .reason
                        .push_str(&format!(" ({read} tool names read in them)"));
                }
                return decision;
            }
            Judged::Proceed(result) => result.unwrap_or(Value::Null),
        };
        let list = read_tools(&result, self.opts.tools_cap.get());
        let report = &mut self.report;
        report.tool_count = Some(u32::try_from(list.count).unwrap_or(u32::MAX));
        report.tool_names = list.names();
        report.tool_names_first_25 = list.first_names();
        report.tools = list.tools;
        if list.count == 0 {
            judge::empty_tool_list()
        } else {
            judge::pass(list.count, report.protocol_version.as_deref())
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

    fn finish(mut self, decision: Verdict) -> SessionReport {
        tracing::debug!(
            outcome = decision.outcome.as_str(),
            defect = decision.defect,
            requests = self.recorder.requests.len(),
            "mcp session done"
        );
        self.report.requests = std::mem::take(&mut self.recorder.requests);
        self.report.exchanges = self.recorder.transcript.take().unwrap_or_default();
        if decision.outcome != Outcome::Partial {
            // The challenge is kept only when it made the verdict.
            self.report.auth_challenge = None;
        }
        self.report.verdict = decision;
        self.report
    }

    /// Sends one request, reads its answer as the step requires, logs it and judges it.
    async fn step(&mut self, step: Step, body: String) -> Judged {
        let reply = self.exchange(step, body).await;
        judge(step, &reply, self.opts.budget)
    }

    fn headers(&self, step: Step) -> Vec<(HeaderName, HeaderValue)> {
        let mut headers = rpc_headers();
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
        let mut entry = self.recorder.start(
            self.client,
            step.method(),
            "POST",
            self.endpoint,
            &headers,
            &body,
        );
        let remaining = self.deadline.remaining();
        if remaining.is_zero() {
            return Reply::OutOfTime; // nothing is sent without time to read its answer
        }
        let mut request = FetchRequest::post(self.endpoint.clone(), body)
            .body_cap(ANSWER_CAP)
            .timeout(remaining);
        request.headers = headers;
        let mut head = match self.send(request).await {
            Ok(head) => head,
            Err((kind, error, reply)) => {
                entry.failed(kind, error);
                return self.record(entry, reply);
            }
        };
        let status = head.status;
        entry.answered(status, &head.headers);
        let challenge = (status == StatusCode::UNAUTHORIZED)
            .then(|| challenge(&head.headers))
            .flatten();
        if step == Step::Initialize {
            self.take_session_id(&head.headers);
            self.report.auth_challenge.clone_from(&challenge);
        } else if challenge.is_some() {
            self.report.auth_challenge.clone_from(&challenge);
        }
        let body = self.read_body(step, &mut head, &mut entry).await;
        entry.bytes(head.body.bytes_read() as u64);
        drop(head);
        let reply = match body {
            Ok(body) => Reply::Answered {
                status,
                challenge,
                body,
            },
            Err(reply) => reply,
        };
        self.record(entry, reply)
    }

    /// Sends the request; without an answer's head, the log's error and the reply.
    async fn send(&self, request: FetchRequest) -> Result<FetchHead, (FailureKind, String, Reply)> {
        // The request's own timeout leaves our waits out, and so does this outer bound.
        match self.deadline.run(self.client.fetch_head(request)).await {
            Some(Ok(head)) => Ok(head),
            // The request's timeout is the session's remaining time: the same event as the
            // outer deadline, whichever timer fires first.
            Some(Err(FetchError::Timeout {
                phase: TimeoutPhase::Headers | TimeoutPhase::Body,
                ..
            }))
            | None => Err((
                FailureKind::Timeout,
                OUT_OF_TIME.to_owned(),
                Reply::OutOfTime,
            )),
            Some(Err(err)) => Err((err.failure_kind(), err.to_string(), Reply::NoAnswer(err))),
        }
    }

    /// Reads the answer's body as the step requires: `Ok(None)` when it is not read (the
    /// notification's answer, an answer its status decides), `Err` when reading it decided.
    async fn read_body(
        &mut self,
        step: Step,
        head: &mut FetchHead,
        entry: &mut Entry,
    ) -> Result<Option<Body>, Reply> {
        if step == Step::Initialized {
            // Only the status and the headers: dropping the body releases the connection.
            return Ok(None);
        }
        if decided_by_status(head.status) {
            if entry.in_transcript() {
                let wait = self.deadline.at().min(Instant::now() + EXCERPT_WAIT);
                entry.excerpt(&read_excerpt(&mut head.body, EXCERPT_BYTES, wait).await);
            }
            return Ok(None);
        }
        let id = if step == Step::Initialize {
            INITIALIZE_ID
        } else {
            TOOLS_LIST_ID
        };
        let excerpt_cap = if entry.in_transcript() {
            EXCERPT_BYTES
        } else {
            0
        };
        let read = read_answer(
            &mut head.body,
            &head.headers,
            id,
            ANSWER_CAP,
            excerpt_cap,
            self.deadline.at(),
        )
        .await;
        match read {
            Ok(answer) => {
                entry.excerpt(&answer.excerpt);
                if let (Step::ToolsList, Some(cut)) = (step, &answer.cut) {
                    // An answer over 64 KB fails as the survey says; the names its first 64 KB
                    // hold are kept, so a report can tell servers that fail only on the cap.
                    let names = names_in_cut_list(cut, self.opts.tools_cap.get());
                    self.report.tool_names_first_25 =
                        FirstToolNames(names.iter().take(FIRST_TOOL_NAMES).cloned().collect());
                    self.report.tool_names = names;
                }
                Ok(Some(answer.body))
            }
            // An error status fails on its status alone; its body only refines the reason.
            Err(err) if !head.status.is_success() => {
                entry.fetch_failed(&err);
                Ok(None)
            }
            Err(err) => {
                entry.fetch_failed(&err);
                Err(match err {
                    FetchError::Timeout { .. } => Reply::OutOfTime,
                    err => Reply::Broken(err),
                })
            }
        }
    }

    fn record(&mut self, entry: Entry, reply: Reply) -> Reply {
        tracing::debug!(
            purpose = entry.log.purpose.as_str(),
            status = entry.log.status,
            "mcp session request"
        );
        self.recorder.finish(entry);
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
