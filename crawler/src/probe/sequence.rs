//! The deep probe's requests in order: `server/discover` with 2026-07-28; `initialize`
//! when the answer is not a recognised modern one (the spec's rule: a result with
//! `supportedVersions`, or a 400 carrying -32020, -32021 or -32022, is modern); a GET for the
//! legacy HTTP+SSE transport when `initialize` is refused with 400, 404 or 405; `tools/list` in
//! the dialect that answered, following `nextCursor` within the budget; and on a 401 or 403 the
//! protected-resource and authorization-server metadata. At most 9 requests in all.

use http::{HeaderName, HeaderValue, StatusCode};
use mcpcensus_store::{RequestLog, Transport};
use serde_json::{json, Value};
use url::Url;

use super::auth::{no_auth, unseen_auth};
use super::facts::{ProbeFacts, MODERN_VERSION};
use super::transport::{ProbeClient, RpcRead, Stop};
use crate::mcp::{Framing, MCP_PROTOCOL_VERSION, MCP_SESSION_ID};
use crate::net::{Exchange, ServerDeadline, SiteClient};
use crate::session::{initialize_body, initialized_body, CLIENT_NAME, CLIENT_VERSION};

/// Most requests the probe sends (the deep probe: "it sends at most 9 requests").
pub const PROBE_MAX_REQUESTS: usize = 9;
/// The `Mcp-Method` header of 2026-07-28.
pub const MCP_METHOD: HeaderName = HeaderName::from_static("mcp-method");
/// The modern errors that tell a 2026-07-28 server (spec notes §4).
const MODERN_ERRORS: [i64; 3] = [-32020, -32021, -32022];
pub(super) const ID_DISCOVER: u64 = 1;
pub(super) const ID_INITIALIZE: u64 = 1;
pub(super) const ID_TOOLS_FIRST: u64 = 2;

/// What the probe did and saw.
#[derive(Debug, Default)]
pub struct ProbeReport {
    pub facts: ProbeFacts,
    pub requests: Vec<RequestLog>,
    pub exchanges: Vec<Exchange>,
    /// The first request got no answer: the classification is not written.
    pub unreachable: bool,
    pub server_name: Option<String>,
    pub server_version: Option<String>,
}

/// The dialect tools/list is asked in.
#[derive(Debug, Clone)]
pub(super) enum Dialect {
    Modern {
        version: String,
    },
    Legacy {
        version: Option<HeaderValue>,
        session: Option<HeaderValue>,
    },
}

/// Runs the probe against `endpoint`, ending by `deadline`: the server's time, which `client`'s
/// own waits move later, as the session's.
pub async fn run_probe(
    client: &SiteClient,
    endpoint: &Url,
    deadline: &ServerDeadline,
    keep_exchanges: bool,
) -> ProbeReport {
    let mut report = ProbeReport {
        facts: ProbeFacts {
            https: endpoint.scheme() == "https",
            ..ProbeFacts::default()
        },
        ..ProbeReport::default()
    };
    if !report.facts.https {
        report.facts.note = Some("not served over HTTPS: not probed".to_owned());
        return report;
    }
    let mut pc = ProbeClient::new(client, deadline.clone(), PROBE_MAX_REQUESTS);
    if keep_exchanges {
        pc.keep_exchanges();
    }
    let mut probe = Probe {
        pc,
        endpoint,
        report: &mut report,
    };
    probe.run().await;
    let Probe { pc, .. } = probe;
    report.requests = pc.recorder.requests;
    report.exchanges = pc.recorder.transcript.unwrap_or_default();
    report
}

pub(super) struct Probe<'a, 'c> {
    pub(super) pc: ProbeClient<'c>,
    pub(super) endpoint: &'a Url,
    pub(super) report: &'a mut ProbeReport,
}

pub(super) fn modern_body(method: &str, id: u64, version: &str, cursor: Option<&str>) -> String {
    let mut params = json!({"_meta": {
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientInfo": {"name": CLIENT_NAME, "version": CLIENT_VERSION},
        "io.modelcontextprotocol/clientCapabilities": {},
    }});
    if let Some(cursor) = cursor {
        params["cursor"] = Value::from(cursor);
    }
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

pub(super) fn legacy_tools_body(id: u64, cursor: Option<&str>) -> String {
    let params = match cursor {
        Some(c) => json!({"cursor": c}),
        None => json!({}),
    };
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": params}).to_string()
}

pub(super) fn header(text: &str) -> Option<HeaderValue> {
    HeaderValue::from_str(text).ok()
}

impl Probe<'_, '_> {
    pub(super) fn note(&mut self, stop: &Stop) {
        self.report
            .facts
            .note
            .get_or_insert_with(|| stop.describe());
    }

    /// A JSON-RPC message in a JSON or event-stream body to a POST: Streamable HTTP.
    pub(super) fn saw_post_answer(&mut self, read: &RpcRead) {
        let framed = matches!(read.framing, Framing::Json | Framing::EventStream);
        if framed && (read.answer.is_some() || read.refused()) {
            self.report.facts.transport = Some(Transport::StreamableHttp);
        }
        self.report
            .facts
            .server_calls
            .extend(read.server_calls.iter().cloned());
    }

    pub(super) fn learn_server(&mut self, info: Option<&Value>) {
        let text = |key: &str| {
            info.and_then(|i| i.get(key))
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        self.report.server_name = text("name");
        self.report.server_version = text("version");
    }

    pub(super) async fn run(&mut self) {
        let endpoint = self.endpoint.clone();
        let discovered = self
            .pc
            .post(
                &endpoint,
                "server/discover",
                modern_headers("server/discover", MODERN_VERSION),
                modern_body("server/discover", ID_DISCOVER, MODERN_VERSION, None),
                Some(ID_DISCOVER),
            )
            .await;
        let read = match discovered {
            Ok(read) => read,
            Err(stop @ (Stop::Failed(..) | Stop::OutOfTime)) => {
                // The deep probe "falls back to the older initialize handshake when the server
                // does not answer": only when that gets no answer either is it unreachable.
                self.note(&stop);
                self.legacy().await;
                self.settle_auth();
                let facts = &self.report.facts;
                self.report.unreachable =
                    !facts.initialize_answered && facts.auth.is_none() && facts.transport.is_none();
                return;
            }
            Err(stop) => return self.note(&stop),
        };
        self.saw_post_answer(&read);
        if read.refused() {
            return self.read_auth(read.challenge()).await;
        }
        if let Some(version) = self.modern(&read).await {
            // The deep probe "asks for the list of tools with no credential", whatever the
            // server declares (the survey asks only when it declares tools).
            self.list_tools(Dialect::Modern { version }).await;
            self.settle_auth();
            return;
        }
        self.legacy().await;
        self.settle_auth();
    }

    /// `auth` is `none` only when a tool list was answered without credentials: a server that
    /// answered its handshake but listed no tools may still guard them, so it is `unknown`.
    pub(super) fn settle_auth(&mut self) {
        let facts = &self.report.facts;
        if facts.auth.is_some() || facts.tools.refused {
            return;
        }
        if facts.tools.answered {
            self.report.facts.auth = Some(no_auth());
        } else if facts.initialize_answered || facts.discover_versions.is_some() {
            self.report.facts.auth = Some(unseen_auth());
        }
    }

    /// Reads a modern answer to `server/discover`; the version to speak when it is one.
    pub(super) async fn modern(&mut self, read: &RpcRead) -> Option<String> {
        if let Some(result) = read.result() {
            let versions = result.get("supportedVersions")?.as_array()?;
            let versions: Vec<String> = versions
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect();
            return Some(self.accept_discover(result.clone(), versions));
        }
        if read.status != StatusCode::BAD_REQUEST
            || !read
                .error_code()
                .is_some_and(|c| MODERN_ERRORS.contains(&c))
        {
            return None;
        }
        // A modern server that refused our request: -32022 names the versions it supports.
        let supported: Vec<String> = read
            .answer
            .as_ref()
            .and_then(|a| a.pointer("/error/data/supported"))
            .and_then(Value::as_array)
            .map(|v| {
                v.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        self.report.facts.discover_versions = Some(supported.clone());
        let retry = supported
            .iter()
            .filter(|v| v.as_str() >= MODERN_VERSION && v.as_str() != MODERN_VERSION)
            .max()?
            .clone();
        let endpoint = self.endpoint.clone();
        let again = self
            .pc
            .post(
                &endpoint,
                "server/discover",
                modern_headers("server/discover", &retry),
                modern_body("server/discover", ID_DISCOVER, &retry, None),
                Some(ID_DISCOVER),
            )
            .await
            .ok()?;
        self.saw_post_answer(&again);
        let result = again.result()?.clone();
        let versions = result
            .get("supportedVersions")
            .and_then(Value::as_array)
            .map(|v| {
                v.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or(supported);
        let _ = self.accept_discover(result, versions);
        Some(retry)
    }

    pub(super) fn accept_discover(&mut self, result: Value, versions: Vec<String>) -> String {
        let speak = if versions.iter().any(|v| v == MODERN_VERSION) {
            MODERN_VERSION.to_owned()
        } else {
            versions
                .iter()
                .max()
                .cloned()
                .unwrap_or_else(|| MODERN_VERSION.to_owned())
        };
        self.report.facts.discover_versions = Some(versions);
        self.report.facts.capabilities = result.get("capabilities").cloned();
        self.learn_server(result.pointer("/_meta/io.modelcontextprotocol~1serverInfo"));
        speak
    }

    /// `initialize`, then the legacy SSE transport when it is refused with 400, 404 or 405.
    pub(super) async fn legacy(&mut self) {
        let endpoint = self.endpoint.clone();
        let read = match self
            .pc
            .post(
                &endpoint,
                "initialize",
                Vec::new(),
                initialize_body(),
                Some(ID_INITIALIZE),
            )
            .await
        {
            Ok(read) => read,
            Err(stop) => return self.note(&stop),
        };
        self.saw_post_answer(&read);
        if read.refused() {
            return self.read_auth(read.challenge()).await;
        }
        if let Some(result) = read.result().cloned() {
            let session = read
                .headers
                .get(MCP_SESSION_ID)
                .filter(|v| !v.is_empty())
                .cloned();
            let version = self.accept_initialize(&result, session.is_some());
            let dialect = Dialect::Legacy {
                version: version.as_deref().and_then(header),
                session,
            };
            if let Err(stop) = self.initialized(&dialect).await {
                return self.note(&stop);
            }
            self.list_tools(dialect).await;
            return;
        }
        if matches!(read.status.as_u16(), 400 | 404 | 405) {
            self.legacy_sse().await;
        }
    }

    pub(super) fn accept_initialize(&mut self, result: &Value, session: bool) -> Option<String> {
        let facts = &mut self.report.facts;
        facts.initialize_answered = true;
        facts.session_id_issued = session;
        facts.negotiated = result
            .get("protocolVersion")
            .and_then(Value::as_str)
            .map(str::to_owned);
        facts.capabilities = result.get("capabilities").cloned();
        let negotiated = facts.negotiated.clone();
        self.learn_server(result.get("serverInfo"));
        negotiated
    }

    pub(super) async fn initialized(&mut self, dialect: &Dialect) -> Result<(), Stop> {
        let endpoint = self.endpoint.clone();
        let read = self
            .pc
            .post(
                &endpoint,
                "notifications/initialized",
                dialect_headers(dialect, "notifications/initialized"),
                initialized_body().to_owned(),
                None,
            )
            .await?;
        if read.refused() {
            self.read_auth(read.challenge()).await;
        }
        Ok(())
    }

    /// `tools/list`, page after page, while the budget lasts.
    pub(super) async fn list_tools(&mut self, dialect: Dialect) {
        let endpoint = self.endpoint.clone();
        let mut cursor: Option<String> = None;
        let mut id = ID_TOOLS_FIRST;
        loop {
            let body = match &dialect {
                Dialect::Modern { version } => {
                    modern_body("tools/list", id, version, cursor.as_deref())
                }
                Dialect::Legacy { .. } => legacy_tools_body(id, cursor.as_deref()),
            };
            let sent = self
                .pc
                .post(
                    &endpoint,
                    "tools/list",
                    dialect_headers(&dialect, "tools/list"),
                    body,
                    Some(id),
                )
                .await;
            let read = match sent {
                Ok(read) => read,
                Err(stop) => {
                    self.report.facts.tools.pending_cursor |= cursor.is_some();
                    return self.note(&stop);
                }
            };
            self.saw_post_answer(&read);
            if read.refused() {
                self.report.facts.tools.refused = true;
                return self.read_auth(read.challenge()).await;
            }
            let Some(result) = read.result() else {
                self.report.facts.tools.pending_cursor |= cursor.is_some();
                return;
            };
            if self.take_page(result, &mut cursor) {
                return;
            }
            id += 1;
        }
    }

    /// Keeps one page; true when it was the last (or its cursor repeats).
    pub(super) fn take_page(&mut self, result: &Value, cursor: &mut Option<String>) -> bool {
        let tools = &mut self.report.facts.tools;
        tools.answered = true;
        if let Some(entries) = result.get("tools").and_then(Value::as_array) {
            tools.keep(entries);
        }
        let next = result
            .get("nextCursor")
            .and_then(Value::as_str)
            .filter(|c| !c.is_empty())
            .map(str::to_owned);
        tools.pending_cursor = next.is_some();
        match next {
            Some(next) if cursor.as_deref() != Some(next.as_str()) => {
                *cursor = Some(next);
                false
            }
            _ => true,
        }
    }
}

pub(super) fn modern_headers(method: &str, version: &str) -> Vec<(HeaderName, HeaderValue)> {
    let mut headers = Vec::new();
    if let Some(v) = header(version) {
        headers.push((MCP_PROTOCOL_VERSION, v));
    }
    if let Some(m) = header(method) {
        headers.push((MCP_METHOD, m));
    }
    headers
}

pub(super) fn dialect_headers(dialect: &Dialect, method: &str) -> Vec<(HeaderName, HeaderValue)> {
    match dialect {
        Dialect::Modern { version } => modern_headers(method, version),
        Dialect::Legacy { version, session } => {
            let mut headers = Vec::new();
            if let Some(v) = version {
                headers.push((MCP_PROTOCOL_VERSION, v.clone()));
            }
            if let Some(s) = session {
                headers.push((MCP_SESSION_ID, s.clone()));
            }
            headers
        }
    }
}
