//! The builder methods of [`McpServer`]: who it says it is, what it lists, which revisions
//! and dialects it speaks, how it frames answers and where it fails.

use super::*;

impl McpServer {
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

    /// Answers `tools/list` with its tools but declares no tools capability in `initialize`.
    pub fn undeclared_tools(mut self) -> Self {
        self.spec.undeclared_tools = true;
        self
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
}
