//! [`McpServer`]: a configurable simulated MCP server, turned into [`Reply`] handlers.

use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use serde_json::{Map, Value};

use super::auth::BearerAuth;
use super::fault::{Fault, FaultRule};
use super::get::GetStyle;
use super::guard::HostGuard;
use super::tools::{self, Tool};
use crate::reply::Reply;

/// The 2026 revision (`server/discover`, no sessions, `_meta` envelope).
pub const PROTOCOL_2026: &str = "2026-07-28";
/// The newest 2025-era revision (`initialize`).
pub const PROTOCOL_2025: &str = "2025-11-25";
/// The 2025-era revisions a server supports by default, newest first.
pub const KNOWN_2025_VERSIONS: [&str; 4] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
/// `_meta` key of the protocol version (2026).
pub const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// `_meta` key of the client capabilities (2026).
pub const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// `_meta` key of the client info (2026).
pub const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// `_meta` key of the server info (2026 results).
pub const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
/// `ttlMs` of 2026 list results unless set.
pub const DEFAULT_TTL_MS: u64 = 3_600_000;

/// How answers to requests are framed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Framing {
    /// One `application/json` object.
    #[default]
    Json,
    /// `text/event-stream`: optional priming event, notifications, keep-alive comments, then
    /// `event: message` with the answer.
    Sse,
}

/// How a server checks `MCP-Protocol-Version` on requests after `initialize` (2025 dialect).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProtocolHeader {
    /// Never looked at.
    Ignore,
    /// What both SDKs do: a missing header is taken as 2025-03-26, an unsupported one gets 400.
    #[default]
    CheckIfPresent,
    /// A missing or unsupported header gets 400.
    Require,
}

/// The shape of event-stream answers.
#[derive(Clone, Debug, Default)]
pub(crate) struct SseStyle {
    pub(crate) priming: bool,
    pub(crate) retry_ms: Option<u64>,
    pub(crate) ids: bool,
    pub(crate) crlf: bool,
    pub(crate) notifications: Vec<Value>,
    pub(crate) keep_alives: usize,
    pub(crate) gap: Duration,
    pub(crate) keep_open: bool,
}

/// Everything a server is configured with.
#[derive(Clone, Debug)]
pub(crate) struct Spec {
    pub(crate) name: String,
    pub(crate) version: String,
    pub(crate) title: Option<String>,
    pub(crate) instructions: Option<String>,
    pub(crate) tools: Vec<Tool>,
    pub(crate) tools_capability: bool,
    pub(crate) resources: Vec<(String, String)>,
    pub(crate) prompts: Vec<String>,
    pub(crate) extra_capabilities: Map<String, Value>,
    pub(crate) supported: Vec<String>,
    pub(crate) initialize: bool,
    pub(crate) discover: bool,
    pub(crate) discover_versions: Vec<String>,
    pub(crate) ttl_ms: u64,
    pub(crate) cache_scope: String,
    pub(crate) stateful: bool,
    pub(crate) protocol_header: ProtocolHeader,
    pub(crate) strict_accept: bool,
    pub(crate) initialized_status: u16,
    pub(crate) page_size: Option<usize>,
    pub(crate) framing: Framing,
    pub(crate) sse: SseStyle,
    pub(crate) faults: Vec<FaultRule>,
    pub(crate) get: GetStyle,
    pub(crate) host_guard: Option<HostGuard>,
    pub(crate) auth: Option<BearerAuth>,
}

impl Spec {
    /// The version `initialize` answers when the client offers `offered`.
    pub(crate) fn negotiate(&self, offered: Option<&str>) -> String {
        match offered {
            Some(v) if self.supported.iter().any(|s| s == v) => v.to_string(),
            _ => self
                .supported
                .first()
                .cloned()
                .unwrap_or_else(|| PROTOCOL_2025.to_string()),
        }
    }

    /// Whether a `MCP-Protocol-Version` value is one this server speaks.
    pub(crate) fn speaks(&self, version: &str) -> bool {
        (self.initialize && self.supported.iter().any(|s| s == version))
            || (self.discover && self.discover_versions.iter().any(|s| s == version))
    }

    pub(crate) fn server_info(&self) -> Value {
        let mut info = Map::new();
        info.insert("name".into(), Value::String(self.name.clone()));
        info.insert("version".into(), Value::String(self.version.clone()));
        if let Some(title) = &self.title {
            info.insert("title".into(), Value::String(title.clone()));
        }
        Value::Object(info)
    }

    pub(crate) fn capabilities(&self) -> Value {
        let mut caps = Map::new();
        if self.tools_capability {
            caps.insert("tools".into(), serde_json::json!({"listChanged": false}));
        }
        if !self.resources.is_empty() {
            caps.insert("resources".into(), serde_json::json!({}));
        }
        if !self.prompts.is_empty() {
            caps.insert("prompts".into(), serde_json::json!({}));
        }
        for (k, v) in &self.extra_capabilities {
            caps.insert(k.clone(), v.clone());
        }
        Value::Object(caps)
    }
}

/// One call the server received on its endpoint.
#[derive(Clone, Debug, PartialEq)]
pub struct McpCall {
    /// `GET`, `POST` or `DELETE`.
    pub http_method: String,
    /// The JSON-RPC method (POST only; `None` for responses and unparsable bodies).
    pub method: Option<String>,
    /// The JSON-RPC id, if any.
    pub id: Option<Value>,
    /// The `Mcp-Session-Id` header sent.
    pub session_id: Option<String>,
    /// The `MCP-Protocol-Version` header sent.
    pub protocol_header: Option<String>,
    /// The `Mcp-Method` header sent.
    pub mcp_method_header: Option<String>,
    /// The HTTP status answered (0: reset or hang).
    pub status: u16,
}

/// What a server saw and issued, shared by all replies made from one [`McpServer`].
#[derive(Debug)]
pub(crate) struct State {
    seed: u64,
    next_session: AtomicU64,
    /// Minted session ids, `true` while alive.
    sessions: Mutex<HashMap<String, bool>>,
    calls: Mutex<Vec<McpCall>>,
    fault_hits: Mutex<HashMap<usize, u64>>,
}

impl State {
    fn new() -> Self {
        Self {
            seed: RandomState::new().hash_one(0x6d63_7073_u64),
            next_session: AtomicU64::new(1),
            sessions: Mutex::new(HashMap::new()),
            calls: Mutex::new(Vec::new()),
            fault_hits: Mutex::new(HashMap::new()),
        }
    }

    /// A new session id (32 hex digits, like the SDKs' `uuid4().hex`).
    pub(crate) fn mint_session(&self) -> String {
        let n = self.next_session.fetch_add(1, Ordering::Relaxed);
        let id = format!(
            "{:016x}{:016x}",
            self.seed,
            n.wrapping_mul(0x9e37_79b9_7f4a_7c15)
        );
        self.sessions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id.clone(), true);
        id
    }

    /// `Some(true)` alive, `Some(false)` ended, `None` never minted.
    pub(crate) fn session(&self, id: &str) -> Option<bool> {
        self.sessions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(id)
            .copied()
    }

    pub(crate) fn end_session(&self, id: &str) {
        if let Some(alive) = self
            .sessions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_mut(id)
        {
            *alive = false;
        }
    }

    pub(crate) fn record(&self, call: McpCall) {
        self.calls
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(call);
    }
}

/// A configured server and its shared state: what the replies capture.
#[derive(Debug)]
pub(crate) struct Inner {
    pub(crate) spec: Spec,
    pub(crate) state: Arc<State>,
}

impl Inner {
    /// The fault for this step, counting the hit (first matching rule that still applies).
    pub(crate) fn take_fault(&self, step: &str, is_post: bool) -> Option<Fault> {
        let mut hits = self
            .state
            .fault_hits
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        for (i, rule) in self.spec.faults.iter().enumerate() {
            if !rule.matches(step, is_post) {
                continue;
            }
            let used = hits.entry(i).or_insert(0);
            if rule.times.is_some_and(|n| *used >= n) {
                continue;
            }
            *used += 1;
            return Some(rule.fault.clone());
        }
        None
    }
}

/// A simulated MCP server: configure with the chained setters, then mount it with
/// [`crate::Site::mcp`] or take its replies ([`McpServer::post_reply`],
/// [`McpServer::get_reply`], [`McpServer::delete_reply`]).
///
/// Clones share what the server saw ([`McpServer::calls`]) and the sessions it minted.
///
/// ```
/// use mcpcensus_simweb::mcp::{Fault, McpServer};
/// use mcpcensus_simweb::Site;
/// let server = McpServer::python_stateful().n_tools(30).page_size(10)
///     .fault_once("tools/list", Fault::Status(503));
/// let site = Site::new("mcp.test").mcp("/mcp", &server);
/// # let _ = site;
/// ```
#[derive(Clone, Debug)]
pub struct McpServer {
    spec: Spec,
    state: Arc<State>,
}

impl Default for McpServer {
    fn default() -> Self {
        Self::new()
    }
}

impl McpServer {
    /// A stateless 2025-era server (initialize only, no `server/discover`) answering JSON,
    /// with one tool `echo`; GET gets 405 with `Allow: POST`. Accept and Content-Type are
    /// checked like the SDKs do (406 / 415), `MCP-Protocol-Version` when present.
    pub fn new() -> Self {
        Self {
            spec: Spec {
                name: "simweb-mcp".into(),
                version: "1.0.0".into(),
                title: None,
                instructions: None,
                tools: vec![Tool::new("echo").description("Echoes its input")],
                tools_capability: true,
                resources: Vec::new(),
                prompts: Vec::new(),
                extra_capabilities: Map::new(),
                supported: KNOWN_2025_VERSIONS.iter().map(|s| s.to_string()).collect(),
                initialize: true,
                discover: false,
                discover_versions: vec![PROTOCOL_2026.into()],
                ttl_ms: DEFAULT_TTL_MS,
                cache_scope: "public".into(),
                stateful: false,
                protocol_header: ProtocolHeader::CheckIfPresent,
                strict_accept: true,
                initialized_status: 202,
                page_size: None,
                framing: Framing::Json,
                sse: SseStyle {
                    ids: true,
                    ..SseStyle::default()
                },
                faults: Vec::new(),
                get: GetStyle::Generic405,
                host_guard: None,
                auth: None,
            },
            state: Arc::new(State::new()),
        }
    }

    /// Python SDK, stateless, JSON answers: both dialects; GET opens an event stream that
    /// never ends.
    pub fn python_stateless() -> Self {
        Self::new()
            .name("python-stateless")
            .dialects(true, true)
            .get_style(GetStyle::PythonStateless)
    }

    /// Python SDK, stateful: both dialects; answers over SSE (`\r\n` line ends, no priming),
    /// mints `Mcp-Session-Id`; a GET without a session gets 400 with a JSON-RPC body and a
    /// fresh session id.
    pub fn python_stateful() -> Self {
        Self::new()
            .name("python-stateful")
            .dialects(true, true)
            .stateful()
            .sse()
            .sse_crlf(true)
            .sse_ids(false)
            .get_style(GetStyle::PythonStateful)
    }

    /// TypeScript SDK v1, stateful: initialize only; SSE answers with a session id; a GET
    /// without a session gets 400 `text/html` "Missing session ID".
    pub fn ts_v1_stateful() -> Self {
        Self::new()
            .name("ts-v1-stateful")
            .stateful()
            .sse()
            .get_style(GetStyle::TsV1Stateful)
    }

    /// TypeScript SDK v1, stateless: initialize only, JSON; GET gets 405 with a JSON-RPC
    /// body and no `Allow`.
    pub fn ts_v1_stateless() -> Self {
        Self::new()
            .name("ts-v1-stateless")
            .get_style(GetStyle::TsV1Stateless)
    }

    /// TypeScript SDK v2: both dialects, stateless JSON, GET 405 with `Allow: POST`.
    pub fn ts_v2() -> Self {
        Self::new().name("ts-v2").dialects(true, true)
    }

    /// A 2026-07-28-only server: `server/discover`, no `initialize` (answered with 400 and
    /// -32022 listing the supported versions).
    pub fn modern_only() -> Self {
        Self::new().name("modern-only").dialects(false, true)
    }

    /// `serverInfo.name`.
    pub fn name(mut self, name: &str) -> Self {
        self.spec.name = name.into();
        self
    }

    /// `serverInfo.version`.
    pub fn version(mut self, version: &str) -> Self {
        self.spec.version = version.into();
        self
    }

    /// `serverInfo.title`.
    pub fn title(mut self, title: &str) -> Self {
        self.spec.title = Some(title.into());
        self
    }

    /// `instructions` of the initialize and discover results.
    pub fn instructions(mut self, text: &str) -> Self {
        self.spec.instructions = Some(text.into());
        self
    }

    /// Replaces the tool list (the tools capability stays declared).
    pub fn tools(mut self, tools: impl IntoIterator<Item = Tool>) -> Self {
        self.spec.tools = tools.into_iter().collect();
        self.spec.tools_capability = true;
        self
    }

    /// Adds one tool (after the default `echo` unless the list was replaced).
    pub fn tool(mut self, tool: Tool) -> Self {
        self.spec.tools.push(tool);
        self.spec.tools_capability = true;
        self
    }

    /// Tools with these names (default descriptions and schema).
    pub fn tools_named(self, names: &[&str]) -> Self {
        self.tools(names.iter().map(|n| Tool::new(*n)))
    }

    /// `n` tools named `tool_01` … .
    pub fn n_tools(self, n: usize) -> Self {
        self.tools(tools::numbered(n))
    }

    /// Declares the tools capability but lists no tool.
    pub fn empty_tools(self) -> Self {
        self.tools(Vec::new())
    }

    /// Declares no tools capability (a resources-only server: one resource unless set);
    /// `tools/list` is answered -32601 and still recorded.
    pub fn no_tools_capability(mut self) -> Self {
        self.spec.tools.clear();
        self.spec.tools_capability = false;
        if self.spec.resources.is_empty() {
            self.spec.resources = vec![("file:///readme.txt".into(), "readme".into())];
        }
        self
    }

    /// Resources `(uri, name)`, declaring the resources capability.
    pub fn resources_named(mut self, resources: &[(&str, &str)]) -> Self {
        self.spec.resources = resources
            .iter()
            .map(|(u, n)| (u.to_string(), n.to_string()))
            .collect();
        self
    }

    /// Prompts by name, declaring the prompts capability.
    pub fn prompts_named(mut self, names: &[&str]) -> Self {
        self.spec.prompts = names.iter().map(|n| n.to_string()).collect();
        self
    }

    /// Adds a capability member (e.g. `"logging", json!({})`).
    pub fn capability(mut self, key: &str, value: Value) -> Self {
        self.spec.extra_capabilities.insert(key.into(), value);
        self
    }

    /// The newest 2025-era version spoken: `initialize` echoes an offered version up to this
    /// one and answers this one otherwise (e.g. `"2025-03-26"` to an offer of 2025-11-25).
    pub fn protocol(mut self, newest: &str) -> Self {
        let mut older: Vec<String> = KNOWN_2025_VERSIONS
            .iter()
            .filter(|v| **v <= newest)
            .map(|v| v.to_string())
            .collect();
        if !older.iter().any(|v| v == newest) {
            older.insert(0, newest.to_string());
        }
        self.spec.supported = older;
        self
    }

    /// The exact 2025-era versions spoken, preferred first.
    pub fn supported_versions(mut self, versions: &[&str]) -> Self {
        self.spec.supported = versions.iter().map(|v| v.to_string()).collect();
        self
    }

    /// Which handshakes are answered: 2025-era `initialize`, 2026-07-28 `server/discover`.
    pub fn dialects(mut self, initialize: bool, discover: bool) -> Self {
        self.spec.initialize = initialize;
        self.spec.discover = discover;
        self
    }

    /// `supportedVersions` of `server/discover` (default `["2026-07-28"]`).
    pub fn discover_versions(mut self, versions: &[&str]) -> Self {
        self.spec.discover_versions = versions.iter().map(|v| v.to_string()).collect();
        self
    }

    /// `ttlMs` of 2026 list and discover results.
    pub fn ttl_ms(mut self, ttl: u64) -> Self {
        self.spec.ttl_ms = ttl;
        self
    }

    /// `cacheScope` of 2026 list and discover results (`"public"` or `"private"`).
    pub fn cache_scope(mut self, scope: &str) -> Self {
        self.spec.cache_scope = scope.into();
        self
    }

    /// Mints `Mcp-Session-Id` on initialize and requires it afterwards.
    pub fn stateful(mut self) -> Self {
        self.spec.stateful = true;
        self
    }

    /// Issues no session id.
    pub fn stateless(mut self) -> Self {
        self.spec.stateful = false;
        self
    }

    /// 400 on a missing or unsupported `MCP-Protocol-Version` after initialize.
    pub fn require_protocol_header(self) -> Self {
        self.protocol_header(ProtocolHeader::Require)
    }

    /// How `MCP-Protocol-Version` is checked after initialize.
    pub fn protocol_header(mut self, check: ProtocolHeader) -> Self {
        self.spec.protocol_header = check;
        self
    }

    /// Accepts any `Accept` and `Content-Type` (the SDKs answer 406 / 415 otherwise).
    pub fn lenient_accept(mut self) -> Self {
        self.spec.strict_accept = false;
        self
    }

    /// Status answering notifications (default 202).
    pub fn initialized_status(mut self, status: u16) -> Self {
        self.spec.initialized_status = status;
        self
    }

    /// Tools (and resources, prompts) per page; more come with `nextCursor`.
    pub fn page_size(mut self, n: usize) -> Self {
        self.spec.page_size = Some(n.max(1));
        self
    }

    /// Answers `application/json`.
    pub fn json(mut self) -> Self {
        self.spec.framing = Framing::Json;
        self
    }

    /// Answers `text/event-stream`.
    pub fn sse(mut self) -> Self {
        self.spec.framing = Framing::Sse;
        self
    }

    /// Starts event streams with a priming event (`id: 0`, empty data).
    pub fn priming(mut self, on: bool) -> Self {
        self.spec.sse.priming = on;
        self
    }

    /// Puts a `retry:` field on the priming event.
    pub fn retry_ms(mut self, ms: u64) -> Self {
        self.spec.sse.retry_ms = Some(ms);
        self
    }

    /// Numbers events with `id:` (default on).
    pub fn sse_ids(mut self, on: bool) -> Self {
        self.spec.sse.ids = on;
        self
    }

    /// Ends event-stream lines with `\r\n` (sse-starlette, used by the Python SDK).
    pub fn sse_crlf(mut self, on: bool) -> Self {
        self.spec.sse.crlf = on;
        self
    }

    /// Sends this notification (a JSON-RPC message) before each event-stream answer.
    pub fn notify_before(mut self, notification: Value) -> Self {
        self.spec.sse.notifications.push(notification);
        self
    }

    /// Sends `n` keep-alive comments before each event-stream answer.
    pub fn keep_alive_comments(mut self, n: usize) -> Self {
        self.spec.sse.keep_alives = n;
        self
    }

    /// Waits this long before each event of an event-stream answer.
    pub fn event_gap(mut self, gap: Duration) -> Self {
        self.spec.sse.gap = gap;
        self
    }

    /// Keeps event-stream answers open after the answer (until the client leaves).
    pub fn keep_open(mut self) -> Self {
        self.spec.sse.keep_open = true;
        self
    }

    /// Injects `fault` at every call of `step` (a JSON-RPC method, `GET`, `DELETE`, or `*`
    /// for every POST). Rules are tried in the order added.
    pub fn fault_on(self, step: &str, fault: Fault) -> Self {
        self.fault_rule(step, fault, None)
    }

    /// Injects `fault` at the first call of `step` only.
    pub fn fault_once(self, step: &str, fault: Fault) -> Self {
        self.fault_rule(step, fault, Some(1))
    }

    /// Injects `fault` at the first `times` calls of `step`.
    pub fn fault_times(self, step: &str, fault: Fault, times: u64) -> Self {
        self.fault_rule(step, fault, Some(times))
    }

    fn fault_rule(mut self, step: &str, fault: Fault, times: Option<u64>) -> Self {
        self.spec.faults.push(FaultRule {
            step: step.into(),
            fault,
            times,
        });
        self
    }

    /// How GET on the endpoint is answered.
    pub fn get_style(mut self, style: GetStyle) -> Self {
        self.spec.get = style;
        self
    }

    /// Refuses requests whose `Host` the guard does not allow (checked before anything).
    pub fn host_guard(mut self, guard: HostGuard) -> Self {
        self.spec.host_guard = Some(guard);
        self
    }

    /// Requires a bearer token on every request to the endpoint.
    pub fn bearer_auth(mut self, auth: BearerAuth) -> Self {
        self.spec.auth = Some(auth);
        self
    }

    pub(crate) fn inner(&self) -> Arc<Inner> {
        Arc::new(Inner {
            spec: self.spec.clone(),
            state: Arc::clone(&self.state),
        })
    }

    /// The reply for POST on the endpoint.
    pub fn post_reply(&self) -> Reply {
        let inner = self.inner();
        Reply::handler(move |req| super::post::answer(&inner, req))
    }

    /// The reply for GET on the endpoint (as set by [`McpServer::get_style`]).
    pub fn get_reply(&self) -> Reply {
        let inner = self.inner();
        Reply::handler(move |req| super::get::answer_get(&inner, req))
    }

    /// The reply for DELETE on the endpoint: ends a session (200), 405 when stateless.
    pub fn delete_reply(&self) -> Reply {
        let inner = self.inner();
        Reply::handler(move |req| super::get::answer_delete(&inner, req))
    }

    /// Every call received so far, in order.
    pub fn calls(&self) -> Vec<McpCall> {
        self.state
            .calls
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// How many POSTs carried JSON-RPC `method`.
    pub fn count(&self, method: &str) -> usize {
        self.calls()
            .iter()
            .filter(|c| c.method.as_deref() == Some(method))
            .count()
    }

    /// The session ids minted so far.
    pub fn sessions(&self) -> Vec<String> {
        let mut ids: Vec<String> = self
            .state
            .sessions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .keys()
            .cloned()
            .collect();
        ids.sort();
        ids
    }
}
