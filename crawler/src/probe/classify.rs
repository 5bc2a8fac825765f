//! What the probe saw, and how seed 003 classifies it: transport, spec version, deprecated
//! features (in the seed's fixed order) and migration status. Pure.

use mcpcensus_store::{AuthInfo, AuthKind, Transport};
use serde_json::Value;

use super::checklist::{checklist, Step};

/// The revision a server must speak to be Ready.
pub const MODERN_VERSION: &str = "2026-07-28";

/// How much of the tool list the probe read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolsRead {
    /// The raw tool entries, every page read, in order.
    pub entries: Vec<Value>,
    /// A `tools/list` was answered with a result (the first page at least).
    pub answered: bool,
    /// A page named a later page (`nextCursor`) the probe did not read.
    pub pending_cursor: bool,
    /// `tools/list` was refused with 401 or 403.
    pub refused: bool,
}

impl ToolsRead {
    /// The list was read whole: answered, no page left, at most 200 entries, each with a
    /// string name (seed 003's conditions for grading SW-MCP-001 down).
    pub fn whole(&self) -> bool {
        self.answered
            && !self.pending_cursor
            && self.entries.len() <= super::rules::PASTED_MAX_TOOLS
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
}

/// A deprecated feature of seed 003's list, in its fixed order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Deprecated {
    Sse,
    InitializeOnly,
    Sessions,
    Roots,
    Sampling,
    Logging,
    DynamicClientRegistration,
}

impl Deprecated {
    pub const ALL: [Deprecated; 7] = [
        Deprecated::Sse,
        Deprecated::InitializeOnly,
        Deprecated::Sessions,
        Deprecated::Roots,
        Deprecated::Sampling,
        Deprecated::Logging,
        Deprecated::DynamicClientRegistration,
    ];

    /// The text kept in `deprecated_features`.
    pub fn as_str(self) -> &'static str {
        match self {
            Deprecated::Sse => "sse",
            Deprecated::InitializeOnly => "initialize_only",
            Deprecated::Sessions => "sessions",
            Deprecated::Roots => "roots",
            Deprecated::Sampling => "sampling",
            Deprecated::Logging => "logging",
            Deprecated::DynamicClientRegistration => "dynamic_client_registration",
        }
    }
}

/// Ready, To migrate, Not probeable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MigrationStatus {
    Ready,
    ToMigrate,
    NotProbeable,
}

impl MigrationStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            MigrationStatus::Ready => "ready",
            MigrationStatus::ToMigrate => "to_migrate",
            MigrationStatus::NotProbeable => "not_probeable",
        }
    }
}

/// The classification of one server.
#[derive(Debug, Clone, PartialEq)]
pub struct Classification {
    pub transport: Transport,
    pub spec_version: Option<String>,
    pub deprecated: Vec<Deprecated>,
    /// `None` when the probe could not tell (no version seen and nothing deprecated).
    pub status: Option<MigrationStatus>,
    pub checklist: Vec<Step>,
}

/// The spec version: the highest `server/discover` lists, else the negotiated one. Versions
/// are dates, so the highest is the greatest string of the `YYYY-MM-DD` shape.
pub fn spec_version(facts: &ProbeFacts) -> Option<String> {
    let listed = facts.discover_versions.as_ref().and_then(|versions| {
        versions
            .iter()
            .filter(|v| is_date(v))
            .max()
            .or_else(|| versions.iter().max())
            .cloned()
    });
    listed.or_else(|| facts.negotiated.clone())
}

fn is_date(v: &str) -> bool {
    let b = v.as_bytes();
    b.len() == 10
        && b.iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            _ => c.is_ascii_digit(),
        })
}

/// The deprecated features the probe saw, in seed 003's order.
pub fn deprecated_features(facts: &ProbeFacts) -> Vec<Deprecated> {
    let capability = |key: &str| {
        facts
            .capabilities
            .as_ref()
            .and_then(|c| c.get(key))
            .is_some_and(|v| !matches!(v, Value::Null | Value::Bool(false)))
    };
    let called = |prefix: &str| facts.server_calls.iter().any(|m| m.starts_with(prefix));
    let mut out = Vec::new();
    for feature in Deprecated::ALL {
        let seen = match feature {
            Deprecated::Sse => facts.transport == Some(Transport::Sse),
            Deprecated::InitializeOnly => {
                facts.initialize_answered && facts.discover_versions.is_none()
            }
            Deprecated::Sessions => facts.session_id_issued,
            Deprecated::Roots => called("roots/"),
            Deprecated::Sampling => called("sampling/"),
            Deprecated::Logging => capability("logging"),
            Deprecated::DynamicClientRegistration => {
                facts.auth.as_ref().map(|a| a.kind) == Some(AuthKind::OauthDcr)
            }
        };
        if seen {
            out.push(feature);
        }
    }
    out
}

/// Classifies what the probe saw.
pub fn classify(facts: &ProbeFacts) -> Classification {
    if facts.stdio {
        return Classification {
            transport: Transport::Stdio,
            spec_version: None,
            deprecated: Vec::new(),
            status: Some(MigrationStatus::NotProbeable),
            checklist: Vec::new(),
        };
    }
    let spec_version = spec_version(facts);
    let deprecated = deprecated_features(facts);
    let speaks_modern = facts
        .discover_versions
        .as_ref()
        .is_some_and(|v| v.iter().any(|v| v.as_str() >= MODERN_VERSION));
    let status = if !facts.https || !deprecated.is_empty() {
        Some(MigrationStatus::ToMigrate)
    } else if speaks_modern {
        Some(MigrationStatus::Ready)
    } else if spec_version.is_some() {
        // A version was seen and it is older than 2026-07-28.
        Some(MigrationStatus::ToMigrate)
    } else {
        None
    };
    let steps = checklist(facts, &deprecated, status, speaks_modern);
    Classification {
        transport: facts.transport.unwrap_or(Transport::Unknown),
        spec_version,
        deprecated,
        status,
        checklist: steps,
    }
}
