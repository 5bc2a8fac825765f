//! What a session hands back: the verdict, what it learned, and what it sent and received.

use mcpcensus_store::{FirstToolNames, Record, RequestLog, ToolInfo};

use crate::net::Exchange;
use crate::verdict::Verdict;

/// The result of one capped MCP session.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionReport {
    /// `pass`, `partial`, `fail` or `not_measured`, its reason naming the step that decided
    /// (`judge.rs` gives the rules).
    pub verdict: Verdict,
    /// `protocolVersion` of the `initialize` result.
    pub protocol_version: Option<String>,
    /// The `initialize` answer carried an `Mcp-Session-Id`.
    pub session_id_issued: bool,
    /// `serverInfo.name`.
    pub server_name: Option<String>,
    /// `serverInfo.version`.
    pub server_version: Option<String>,
    /// The `capabilities` object as canonical JSON text.
    pub capabilities: Option<String>,
    /// The tools read, up to the tools cap.
    pub tools: Vec<ToolInfo>,
    /// Their names, up to the tools cap.
    pub tool_names: Vec<String>,
    /// The first 25 names.
    pub tool_names_first_25: FirstToolNames,
    /// Named tools in the `tools/list` result (all of them); `None` when it was not answered.
    pub tool_count: Option<u32>,
    /// The `WWW-Authenticate` challenge of a 401.
    pub auth_challenge: Option<String>,
    /// One entry per request sent.
    pub requests: Vec<RequestLog>,
    /// Full exchanges, only when `SessionOptions::keep_exchanges` is set.
    pub exchanges: Vec<Exchange>,
}

impl SessionReport {
    /// An empty report with a provisional verdict (every path overwrites it).
    pub(crate) fn new() -> Self {
        Self {
            verdict: Verdict::pending(),
            protocol_version: None,
            session_id_issued: false,
            server_name: None,
            server_version: None,
            capabilities: None,
            tools: Vec::new(),
            tool_names: Vec::new(),
            tool_names_first_25: FirstToolNames::default(),
            tool_count: None,
            auth_challenge: None,
            requests: Vec::new(),
            exchanges: Vec::new(),
        }
    }

    /// Copies the verdict and what the session learned into a record (the scan logs the
    /// requests, in the order they were sent).
    pub fn apply_to(&self, record: &mut Record) {
        self.verdict.clone().write_to(record);
        record.protocol_version.clone_from(&self.protocol_version);
        record.session_id_issued = self.session_id_issued;
        record.server_name.clone_from(&self.server_name);
        record.server_version.clone_from(&self.server_version);
        record.capabilities.clone_from(&self.capabilities);
        record.tool_count = self.tool_count;
        record.tool_names.clone_from(&self.tool_names);
        record
            .tool_names_first_25
            .clone_from(&self.tool_names_first_25);
        record.tools.clone_from(&self.tools);
    }
}
