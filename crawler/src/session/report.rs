//! What a session hands back: the verdict, what it learned, and what it sent and received.

use http::{HeaderMap, StatusCode};
use mcpcensus_store::{Outcome, Record, RequestLog, ToolInfo};

use super::capped::EXCERPT_BYTES;

/// The result of one capped MCP session.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionReport {
    /// `pass`, `partial`, `fail` or `not_measured`.
    pub outcome: Outcome,
    /// Why, in words a site owner understands, naming the step that decided.
    pub reason: String,
    /// Seed 000's defect flag (see `verdict.rs` for how it is read).
    pub defect: bool,
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
    pub tool_names_seed: Vec<String>,
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
            outcome: Outcome::NotMeasured,
            reason: String::new(),
            defect: false,
            protocol_version: None,
            session_id_issued: false,
            server_name: None,
            server_version: None,
            capabilities: None,
            tools: Vec::new(),
            tool_names: Vec::new(),
            tool_names_seed: Vec::new(),
            tool_count: None,
            auth_challenge: None,
            requests: Vec::new(),
            exchanges: Vec::new(),
        }
    }

    /// Copies the verdict and what the session learned into a record; the request logs are
    /// appended after those already there (discovery's).
    pub fn apply_to(&self, record: &mut Record) {
        record.outcome = self.outcome;
        record.outcome_reason.clone_from(&self.reason);
        record.defect = self.defect;
        record.protocol_version.clone_from(&self.protocol_version);
        record.session_id_issued = self.session_id_issued;
        record.server_name.clone_from(&self.server_name);
        record.server_version.clone_from(&self.server_version);
        record.capabilities.clone_from(&self.capabilities);
        record.tool_count = self.tool_count;
        record.tool_names.clone_from(&self.tool_names);
        record.tool_names_seed.clone_from(&self.tool_names_seed);
        record.tools.clone_from(&self.tools);
        record.requests.extend(self.requests.iter().cloned());
    }
}

/// One request and its answer in full, for `mcpcensus check --explain`: the session's POSTs
/// and, when the scan keeps a transcript, its discovery GETs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exchange {
    /// `initialize`, `notifications/initialized` or `tools/list`; for a discovery GET the
    /// document it asked for (`home`, `server_card`, `mcp_path`, …).
    pub purpose: String,
    /// `GET` or `POST`.
    pub method: String,
    /// The URL requested.
    pub url: String,
    /// Headers sent, in order, as the client sends them (`User-Agent` and
    /// `Accept-Encoding: identity` included; hyper adds `Host` and `Content-Length`).
    pub headers_sent: Vec<(String, String)>,
    /// The body sent (the JSON-RPC message; empty for a GET).
    pub body_sent: String,
    /// The answer's status; `None` when there was no answer.
    pub status: Option<u16>,
    /// The answer's headers.
    pub headers_received: Vec<(String, String)>,
    /// The first bytes of the answer's body as read (lossy UTF-8), at most [`EXCERPT_BYTES`].
    pub body_excerpt: String,
    /// False when the body was not read (the notification's answer, by the seed's rule; a
    /// `/mcp` GET its status and headers decided).
    pub body_read: bool,
    /// Bytes of the body read.
    pub body_bytes: u64,
    /// Why there was no answer, or why reading it stopped.
    pub error: Option<String>,
}

impl Exchange {
    /// A request as it goes out; its answer is filled in by the other methods.
    pub fn request(
        purpose: &str,
        method: &str,
        url: &str,
        headers_sent: &HeaderMap,
        body_sent: String,
    ) -> Exchange {
        Exchange {
            purpose: purpose.to_owned(),
            method: method.to_owned(),
            url: url.to_owned(),
            headers_sent: header_pairs(headers_sent),
            body_sent,
            status: None,
            headers_received: Vec::new(),
            body_excerpt: String::new(),
            body_read: false,
            body_bytes: 0,
            error: None,
        }
    }

    /// Notes the answer's status and headers.
    pub fn answered(&mut self, status: StatusCode, headers: &HeaderMap) {
        self.status = Some(status.as_u16());
        self.headers_received = header_pairs(headers);
    }

    /// Notes the body as read: `body` (its first [`EXCERPT_BYTES`] are kept) of `total` bytes.
    pub fn read_body(&mut self, body: &[u8], total: u64) {
        let excerpt = &body[..body.len().min(EXCERPT_BYTES)];
        self.body_excerpt = String::from_utf8_lossy(excerpt).into_owned();
        self.body_read = true;
        self.body_bytes = total;
    }
}

/// Every header as a name and a (lossy UTF-8) value, in order.
pub fn header_pairs(headers: &HeaderMap) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(name, value)| {
            (
                name.to_string(),
                String::from_utf8_lossy(value.as_bytes()).into_owned(),
            )
        })
        .collect()
}
