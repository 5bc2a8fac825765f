//! What the deep probe saw, as plain data: the facts its requests established and the
//! deprecated features and migration status read from them. Below the classification and the
//! checklist, which both read it.

pub use mcpcensus_store::{DeprecatedFeature, MigrationStatus};

use mcpcensus_store::{AuthInfo, Transport};
use serde_json::Value;

/// The revision a server must speak to be Ready.
pub const MODERN_VERSION: &str = "2026-07-28";

/// How much of the tool list the probe read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolsRead {
    /// The raw tool entries of every page read, in order, at most [`MAX_KEPT_TOOLS`].
    pub entries: Vec<Value>,
    /// Entries the pages listed, those not kept included.
    pub listed: usize,
    /// A `tools/list` was answered with a result (the first page at least).
    pub answered: bool,
    /// A page named a later page (`nextCursor`) the probe did not read.
    pub pending_cursor: bool,
    /// `tools/list` was refused with 401 or 403.
    pub refused: bool,
}

/// Most tools a pasted list may hold, and most a list may hold to be graded down.
pub const PASTED_MAX_TOOLS: usize = 200;
/// Tool entries the deep probe keeps as parsed JSON: 100,000 tiny tools must not cost
/// hundreds of MB. Past the tools a record names and the list graded down.
pub const MAX_KEPT_TOOLS: usize = 1000;

impl ToolsRead {
    /// A list read whole from `entries` (a pasted list, a test's).
    pub fn listing(entries: Vec<Value>) -> Self {
        Self {
            listed: entries.len(),
            entries,
            answered: true,
            ..Self::default()
        }
    }

    /// Keeps a page's entries up to [`MAX_KEPT_TOOLS`], counting them all.
    pub fn keep(&mut self, page: &[Value]) {
        self.listed += page.len();
        let room = MAX_KEPT_TOOLS.saturating_sub(self.entries.len());
        self.entries.extend(page.iter().take(room).cloned());
    }

    /// Entries listed but not kept.
    pub fn cut(&self) -> usize {
        self.listed - self.entries.len()
    }

    /// The list was read whole: answered, no page left, at most 200 entries, each with a
    /// string name (the deep probe's conditions for grading SW-MCP-001 down).
    pub fn whole(&self) -> bool {
        self.answered
            && !self.pending_cursor
            && self.listed <= PASTED_MAX_TOOLS
            && self
                .entries
                .iter()
                .all(|t| t.get("name").is_some_and(Value::is_string))
    }
}

/// Everything the probe learned about one endpoint.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProbeFacts {
    /// The endpoint is an https URL (an http:// one is not probed at all).
    pub https: bool,
    /// No endpoint, only a repository (a stdio server from a registry entry).
    pub stdio: bool,
    pub transport: Option<Transport>,
    /// `supportedVersions` of a `server/discover` result.
    pub discover_versions: Option<Vec<String>>,
    /// The version `initialize` negotiated.
    pub negotiated: Option<String>,
    pub initialize_answered: bool,
    pub session_id_issued: bool,
    /// The server's capabilities (discover or initialize).
    pub capabilities: Option<Value>,
    /// Requests the server sent the probe (`roots/list`, `sampling/createMessage`, ...).
    pub server_calls: Vec<String>,
    pub auth: Option<AuthInfo>,
    pub tools: ToolsRead,
    /// Why the probe stopped early, when it did.
    pub note: Option<String>,
    /// URLs the server named that broke a safety rule, each with the rule; not requested.
    pub refused_urls: Vec<String>,
}
