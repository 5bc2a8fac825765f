//! The record: one per input site per run. JSON field names are a public contract
//! (`mcpcensus export`, ClickHouse columns); the rkyv form is what the embedded store keeps.

// Short names for the stored form's derives, so each type's derive list stays one line.
use rkyv::{Archive, Deserialize as FromRkyv, Serialize as ToRkyv};
use serde::{Deserialize, Serialize};

use crate::first_tools::FirstToolNames;
pub use crate::readiness::{Readiness, ReadinessCheck, ReadinessEvidence, CHECKS_VERSION};
use crate::tool_capability::{ToolCapability, ToolCapabilityCounts};
use crate::vocab::MigrationStatus;
use crate::vocab::{ChecklistStep, DeprecatedFeature, DiscoverySource, FailureKind};
use crate::vocab::{ProbeDepth, Severity, SurfaceSignal};

/// Bumped whenever a field is added, removed or changes meaning, or the stored (rkyv) layout
/// changes. 2: the record's enums, `tool_names_first_25`, and the fields added after 1's first
/// release (final origin, redirects, surface, truncated, robots, refused URLs). 3: the typed
/// failure kinds (`reason_kind`, `requests[].error_kind`); the JSON key `tool_names_seed` is no
/// longer written (still read). 4: the input line's `rank` and the deep probe's stop note
/// (`probe_note`), the new document kinds and `surface_signals`. 5: the readiness level's
/// section (`readiness`) and the first look of a site looked at twice (`first_look`). 6: the
/// tools' capability tags (`tools[].capabilities`, `tool_capabilities`, `capabilities_version`).
/// Stores of schemas 2 to 5 are read through `store::schema2` to `store::schema5`.
pub const SCHEMA_VERSION: u16 = 6;

record_enum!(
    /// The verdict for one site (the survey's outcomes plus the crawler's own).
    Outcome {
        Pass => "pass",
        Partial => "partial",
        Fail => "fail",
        NotMeasured => "not_measured",
        OutOfScope => "out_of_scope",
        Unreachable => "unreachable",
        Excluded => "excluded",
        InvalidInput => "invalid_input",
        // `crawl --dry-run`: the site would be scanned.
        Planned => "planned",
        // The run stopped (--max-duration, Ctrl-C) before this site started; `--resume` takes it.
        NotStarted => "not_started",
    }
);

record_enum!(
    /// Where the endpoint that was opened came from, in the survey's order (the card paths,
    /// the AI catalog, the homepage's links, `/mcp`). Two vocabularies on purpose: the
    /// discovery audit's [`crate::DiscoverySource`] answers another question (which of its four
    /// places first named an MCP server, the catalog first) and has no homepage links or `/mcp`;
    /// a record can say `link_header` here and `ai_catalog` there, both true.
    DiscoveredVia {
        ServerCard => "server_card",
        LegacyCard => "legacy_card",
        AiCatalog => "ai_catalog",
        LinkHeader => "link_header",
        LinkHtml => "link_html",
        McpPath => "mcp_path",
    }
);

record_enum!(
    /// The transport the deep probe saw.
    Transport {
        StreamableHttp => "streamable_http",
        Sse => "sse",
        Stdio => "stdio",
        Unknown => "unknown",
    }
);

record_enum!(
    /// The authentication kind, as the deep probe reads it.
    AuthKind {
        None => "none",
        StaticKey => "static_key",
        OauthDcr => "oauth_dcr",
        OauthCimd => "oauth_cimd",
        Xaa => "xaa",
        Unknown => "unknown",
    }
);

record_enum!(
    /// The discovery documents a scan fetches and records.
    DocumentKind {
        Home => "home",
        ServerCard => "server_card",
        LegacyCard => "legacy_card",
        AiCatalog => "ai_catalog",
        CatalogCard => "catalog_card",
        McpPath => "mcp_path",
        EndpointServerCard => "endpoint_server_card",
        /// RFC 9728's metadata (the survey's GET at the root; the deep probe's are requests).
        ProtectedResource => "protected_resource",
        /// RFC 8414's metadata (the same).
        AuthServer => "auth_server",
        // Appended (schema 4): the stored form numbers the values in order.
        /// RFC 9727's `/.well-known/api-catalog`.
        ApiCatalog => "api_catalog",
        /// The A2A agent card at `/.well-known/agent-card.json`.
        AgentCard => "agent_card",
        /// The OpenAPI document a homepage `service-desc` link names on the measured site.
        Openapi => "openapi",
    }
);

/// One HTTP header kept in the record (only a selected few are kept).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Archive, ToRkyv, FromRkyv)]
pub struct Header {
    pub name: String,
    pub value: String,
}

/// One request the scan made, kept compactly.
#[derive(
    Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, Archive, ToRkyv, FromRkyv,
)]
pub struct RequestLog {
    pub method: String,
    pub url: String,
    /// What the request was for, e.g. `initialize` or `server_card`.
    pub purpose: String,
    pub status: Option<u16>,
    pub bytes: u64,
    pub ms: u32,
    /// Why there is no status (timeout, reset, guard refusal, ...), or why reading the answer
    /// stopped (the byte cap), in words.
    pub error: Option<String>,
    pub headers: Vec<Header>,
    /// The kind of [`RequestLog::error`], set by the crawler from the typed failure (absent in
    /// records of schema 2 and earlier, and when there is no error).
    #[serde(default)]
    pub error_kind: Option<FailureKind>,
}

/// One redirect the homepage answered: its status and `Location` as sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Archive, ToRkyv, FromRkyv)]
pub struct RedirectHop {
    pub url: String,
    pub status: u16,
    pub location: String,
}

/// What one discovery document returned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Archive, ToRkyv, FromRkyv)]
pub struct DocumentLog {
    pub kind: DocumentKind,
    pub url: String,
    pub status: Option<u16>,
    pub content_type: Option<String>,
    pub bytes: u64,
    /// Parsed as the document it should be.
    pub parsed: bool,
    /// A 200 answer with an HTML page where a JSON document was expected.
    pub soft_404: bool,
    /// Why it was not parsed, or what was notable.
    pub note: Option<String>,
}

/// One tool as `tools/list` described it.
#[derive(
    Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, Archive, ToRkyv, FromRkyv,
)]
pub struct ToolInfo {
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    /// The `annotations` object as JSON.
    #[serde(with = "crate::json_text")]
    pub annotations: Option<String>,
    /// Hash of the canonical input schema.
    pub input_schema_hash: Option<String>,
    /// Hash of name, description and input schema.
    pub fingerprint: Option<String>,
    /// A–F, when graded.
    pub grade: Option<String>,
    /// What the tool can do, by the capability table ([`crate::CAPABILITIES_VERSION`]), in
    /// [`ToolCapability::ALL`]'s order; empty in records of schema 5 and earlier.
    #[serde(default)]
    pub capabilities: Vec<ToolCapability>,
}

/// How the server authenticates, as the deep probe reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Archive, ToRkyv, FromRkyv)]
pub struct AuthInfo {
    pub kind: AuthKind,
    /// The `WWW-Authenticate` challenge, when one was sent.
    pub challenge: Option<String>,
    pub resource_metadata_url: Option<String>,
    pub authorization_servers: Vec<String>,
    /// Every metadata document read.
    pub metadata_urls: Vec<String>,
}

/// What the site's robots.txt said, as the scan read it (absent when robots.txt was not read:
/// `--robots ignore`, or a scan without discovery).
#[derive(
    Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, Archive, ToRkyv, FromRkyv,
)]
pub struct RobotsInfo {
    pub url: String,
    /// The answer's status; absent when there was no answer.
    pub status: Option<u16>,
    /// `rules` (a robots.txt was read and is followed), `allow_all` (none, a 4xx, a redirect
    /// or an error: everything allowed) or `disallow_all` (a 5xx, RFC 9309).
    pub verdict: String,
    /// The Crawl-delay of the group that applies to us, in milliseconds.
    pub crawl_delay_ms: Option<u32>,
    /// The URLs the scan would have fetched and did not, because robots.txt disallows them.
    pub skipped: Vec<String>,
}

/// One audit finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Archive, ToRkyv, FromRkyv)]
pub struct Finding {
    pub rule_id: String,
    pub severity: Severity,
    pub evidence: String,
    /// The document or endpoint the evidence comes from.
    pub url: Option<String>,
    /// The tool the finding is about, for tool rules.
    pub tool: Option<String>,
}

/// Tool description grades for one server.
#[derive(
    Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, Archive, ToRkyv, FromRkyv,
)]
pub struct Grades {
    pub graded: u32,
    pub not_graded: u32,
    pub median: Option<String>,
    /// Tools per letter, A to F.
    pub counts: Vec<u32>,
}

/// Where the time went, in milliseconds.
#[derive(
    Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, Archive, ToRkyv, FromRkyv,
)]
pub struct Timings {
    pub total_ms: u32,
    pub resolve_ms: Option<u32>,
    pub discovery_ms: Option<u32>,
    pub session_ms: Option<u32>,
    pub probe_ms: Option<u32>,
}

/// One site's result. Field names are the JSON contract.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Archive, ToRkyv, FromRkyv)]
pub struct Record {
    pub schema_version: u16,
    pub run_id: String,
    #[serde(with = "crate::rfc3339_ms")]
    pub scanned_at: u64,
    /// The input line as read (trimmed).
    pub input: String,
    /// 1-based line number in its input file.
    pub input_line: u64,
    /// The line's rank in a ranked list (Tranco, Umbrella, CrUX's rank bucket, Majestic's
    /// global rank, a Radar CSV's rank column); `None` for an unranked line, and in records
    /// of schema 3 and earlier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<u32>,
    /// The input's origin, where the scan started.
    pub origin: Option<String>,
    /// Where the site was measured when its homepage redirected within the site to another
    /// origin; `None` when measured at `origin`.
    #[serde(default)]
    pub final_origin: Option<String>,
    /// The homepage's redirects, in order (the followed ones and the one that ended the site).
    #[serde(default)]
    pub redirects: Vec<RedirectHop>,
    /// The site showed an API or agent surface: `surface_signals` is not empty.
    #[serde(default)]
    pub surface: bool,
    /// The kinds of API or agent surface evidence the scan saw, each once, in
    /// [`SurfaceSignal`]'s order; empty in records of schema 3 and earlier (their `surface`
    /// was read from MCP evidence alone).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub surface_signals: Vec<SurfaceSignal>,
    pub host: Option<String>,
    pub registrable_domain: Option<String>,
    pub addresses: Vec<String>,
    pub outcome: Outcome,
    pub outcome_reason: String,
    /// The kind of reason behind a verdict other than pass (`dns`, `timeout`, `answer`,
    /// `no_endpoint`, ...): what reports and scripts group by, never the reason's wording.
    /// Absent for pass, and in records of schema 2 and earlier.
    #[serde(default)]
    pub reason_kind: Option<FailureKind>,
    pub defect: bool,
    pub endpoint: Option<String>,
    pub discovered_via: Option<DiscoveredVia>,
    /// The discovery audit's order: which document first named an MCP server.
    pub discovery_source: Option<DiscoverySource>,
    pub protocol_version: Option<String>,
    pub session_id_issued: bool,
    pub server_name: Option<String>,
    pub server_version: Option<String>,
    #[serde(with = "crate::json_text")]
    pub capabilities: Option<String>,
    pub tool_count: Option<u32>,
    /// Every tool name read, up to the tool cap.
    pub tool_names: Vec<String>,
    /// The first 25 tool names, as the survey keeps them (JSON: `tool_names_first_25`, and
    /// `tool_names_seed` as schemas 1 and 2 wrote it, still read).
    #[serde(flatten)]
    pub tool_names_first_25: FirstToolNames,
    pub tools: Vec<ToolInfo>,
    pub tool_list_fingerprint: Option<String>,
    pub probe: Option<ProbeDepth>,
    /// Why the deep probe stopped before its last step, when it did (its time or request
    /// budget ran out, an answer it could not read); what it learnt before is kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probe_note: Option<String>,
    pub transport: Option<Transport>,
    pub auth: Option<AuthInfo>,
    pub spec_version: Option<String>,
    pub deprecated_features: Vec<DeprecatedFeature>,
    pub migration_status: Option<MigrationStatus>,
    pub checklist: Vec<ChecklistStep>,
    pub findings: Vec<Finding>,
    pub grades: Option<Grades>,
    pub documents: Vec<DocumentLog>,
    pub requests: Vec<RequestLog>,
    pub timings: Timings,
    /// What [`crate::bound`] cut to keep the record within its caps, e.g.
    /// `findings: 2500 of 166000 kept`; `None` when nothing was cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncated: Option<String>,
    /// What robots.txt said (added after schema 1's first fields: absent in older exports).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub robots: Option<RobotsInfo>,
    /// URLs a server named that broke a safety rule (`url: rule; not requested`): a legacy-SSE
    /// endpoint on another origin, an OAuth metadata URL on a bad port or an IP literal.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refused_urls: Vec<String>,
    /// The readiness level's checks (`--probe readiness`); absent when the level was off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub readiness: Option<Readiness>,
    /// The first look at a site whose first scan ended on a transient failure and was looked
    /// at again near the end of the run; the record's verdict is the second look's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_look: Option<FirstLook>,
    /// The capability table's version that tagged `tools` (absent when no tool was tagged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capabilities_version: Option<String>,
    /// The kept tools per capability tag (absent when no tool was tagged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_capabilities: Option<ToolCapabilityCounts>,
}

/// What the first of a site's two looks saw (see [`Record::first_look`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Archive, ToRkyv, FromRkyv)]
pub struct FirstLook {
    #[serde(with = "crate::rfc3339_ms")]
    pub scanned_at: u64,
    pub outcome: Outcome,
    pub outcome_reason: String,
    pub reason_kind: Option<FailureKind>,
    pub total_ms: u32,
    pub requests: Vec<RequestLog>,
}

impl Record {
    /// A record with only its identity and verdict set; scans fill in the rest.
    pub fn new(
        run_id: &str,
        scanned_at: u64,
        input: &str,
        input_line: u64,
        outcome: Outcome,
        reason: impl Into<String>,
    ) -> Record {
        Record {
            schema_version: SCHEMA_VERSION,
            run_id: run_id.to_owned(),
            scanned_at,
            input: input.to_owned(),
            input_line,
            rank: None,
            origin: None,
            final_origin: None,
            redirects: Vec::new(),
            surface: false,
            surface_signals: Vec::new(),
            host: None,
            registrable_domain: None,
            addresses: Vec::new(),
            outcome,
            outcome_reason: reason.into(),
            reason_kind: None,
            defect: false,
            endpoint: None,
            discovered_via: None,
            discovery_source: None,
            protocol_version: None,
            session_id_issued: false,
            server_name: None,
            server_version: None,
            capabilities: None,
            tool_count: None,
            tool_names: Vec::new(),
            tool_names_first_25: FirstToolNames::default(),
            tools: Vec::new(),
            tool_list_fingerprint: None,
            probe: None,
            probe_note: None,
            transport: None,
            auth: None,
            spec_version: None,
            deprecated_features: Vec::new(),
            migration_status: None,
            checklist: Vec::new(),
            findings: Vec::new(),
            grades: None,
            documents: Vec::new(),
            requests: Vec::new(),
            timings: Timings::default(),
            truncated: None,
            robots: None,
            refused_urls: Vec::new(),
            readiness: None,
            first_look: None,
            capabilities_version: None,
            tool_capabilities: None,
        }
    }
}

impl Record {
    /// Sets `tool_capabilities` and `capabilities_version` from the kept tools' tags: both
    /// absent when no tool is kept.
    pub fn count_tool_capabilities(&mut self, version: &str) {
        if self.tools.is_empty() {
            self.tool_capabilities = None;
            self.capabilities_version = None;
            return;
        }
        let tags = self.tools.iter().map(|t| t.capabilities.as_slice());
        self.tool_capabilities = Some(ToolCapabilityCounts::of(tags));
        self.capabilities_version = Some(version.to_owned());
    }

    /// Sets the verdict, its reason and the reason's kind together, so no verdict is written
    /// without its kind.
    pub fn set_verdict(
        &mut self,
        outcome: Outcome,
        kind: Option<FailureKind>,
        reason: impl Into<String>,
    ) {
        self.outcome = outcome;
        self.reason_kind = kind;
        self.outcome_reason = reason.into();
    }

    /// The same record with its reason's kind set (for [`Record::new`]'s callers).
    pub fn with_kind(mut self, kind: FailureKind) -> Record {
        self.reason_kind = Some(kind);
        self
    }
}

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}
