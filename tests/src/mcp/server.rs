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

mod builder;

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
    /// Lists its tools but leaves the tools capability out of `initialize` (a server that
    /// forgot to declare it).
    pub(crate) undeclared_tools: bool,
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
        if self.tools_capability && !self.undeclared_tools {
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
                undeclared_tools: false,
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
